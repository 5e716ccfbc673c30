/**
 * The drop-in script, `/hitpay.js` on the sandbox's origin as on the service's, with the service's public surface
 * (`HitPay.init`, `HitPay.toggle` and the three callbacks), so that a page written for the real drop-in runs
 * unchanged against the sandbox. The sandbox README ("Drop-in") lists that surface and the choices the docs leave open.
 *
 * Why it is safe on any shop's page: the overlay is a modal `<dialog>` in a shadow root styled by a constructed
 * style sheet (a strict Content-Security-Policy needs no `unsafe-inline`); nothing assigns HTML or a script URL
 * (Trusted Types need no policy); script and frame talk by `postMessage` with exact origins both ways and the
 * payment request's id in every message (drop-in-frame-script.ts), so another window changes nothing.
 */
export const HITPAY_JS = `(function () {
  'use strict';
  if (window.HitPay && window.HitPay.sandbox) return;
  var script = document.currentScript || document.querySelector('script[src$="/hitpay.js"]');
  var ORIGIN = new URL(script ? script.src : location.href, location.href).origin;
  var SOURCE = 'hitpay-drop-in';
  var LOAD_TIMEOUT_MS = 10000;
  var CALLBACKS = ['onClose', 'onSuccess', 'onError'];
  var STYLE =
    'dialog{box-sizing:border-box;width:min(30rem,100vw);height:min(48rem,100dvh);max-width:100vw;max-height:100dvh;' +
    'padding:0;border:0;border-radius:14px;overflow:hidden;background:#f3f4f8;color:#161a24;' +
    'font:1rem/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}' +
    'dialog[open]{display:flex;flex-direction:column}' +
    'dialog::backdrop{background:rgba(14,16,21,.6)}' +
    '.bar{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding:.4rem .5rem .4rem 1rem;' +
    'background:#161a24;color:#fff}' +
    'h2{margin:0;font-size:1rem;font-weight:600}' +
    '.close{min-height:44px;min-width:44px;padding:0 1rem;font:inherit;font-weight:600;color:inherit;' +
    'background:transparent;border:1px solid rgba(255,255,255,.6);border-radius:8px;cursor:pointer}' +
    '.close:focus-visible{outline:3px solid #ffc53d;outline-offset:2px}' +
    'iframe{flex:1;width:100%;border:0;background:#f3f4f8}' +
    '@media (max-width:32rem){dialog{width:100vw;height:100dvh;border-radius:0}}';
  var settings = { paymentUrl: '', options: {}, callbacks: {} };
  var session = null;
  var sheet = null;

  function call(name, argument, callbacks) {
    var callback = (callbacks || settings.callbacks)[name];
    if (typeof callback !== 'function') return;
    try {
      if (argument === undefined) callback();
      else callback(argument);
    } catch (error) {
      // A failing callback is the page's bug: reported as the page's, without stopping the overlay.
      setTimeout(function () { throw error; });
    }
  }

  function checkoutIdOf(url) {
    try {
      var parsed = new URL(url);
      var match = /^\\/checkout\\/([^/]+)$/.exec(parsed.pathname);
      return parsed.origin === ORIGIN && match ? decodeURIComponent(match[1]) : null;
    } catch (error) {
      return null;
    }
  }

  function post(message) {
    message.source = SOURCE;
    message.paymentRequest = session.id;
    session.frame.contentWindow.postMessage(message, ORIGIN);
  }

  function open(id, method) {
    var url = new URL('/checkout/' + encodeURIComponent(id), ORIGIN);
    url.searchParams.set('mode', 'drop-in');
    url.searchParams.set('parent', location.origin);
    if (method) url.searchParams.set('method', String(method));
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(STYLE);
    }
    var host = document.createElement('div');
    host.setAttribute('data-hitpay-drop-in', '');
    var root = host.attachShadow({ mode: 'open' });
    root.adoptedStyleSheets = [sheet];
    var dialog = document.createElement('dialog');
    dialog.setAttribute('aria-labelledby', 'hitpay-drop-in-title');
    var bar = document.createElement('div');
    bar.className = 'bar';
    var title = document.createElement('h2');
    title.id = 'hitpay-drop-in-title';
    title.textContent = 'Checkout';
    var close = document.createElement('button');
    close.type = 'button';
    close.className = 'close';
    close.textContent = 'Close';
    var frame = document.createElement('iframe');
    frame.title = 'Checkout';
    frame.setAttribute('allow', 'payment');
    frame.src = url.href;
    bar.append(title, close);
    dialog.append(bar, frame);
    root.append(dialog);
    session = {
      id: id,
      // The callbacks of the init before this opening: a later init (for another payment) does not take its end.
      callbacks: settings.callbacks,
      host: host,
      dialog: dialog,
      frame: frame,
      opener: document.activeElement,
      timer: setTimeout(function () { end('error', 'The checkout could not be loaded.'); }, LOAD_TIMEOUT_MS),
    };
    close.addEventListener('click', function () { end('close'); });
    // Escape while focus is in the overlay but outside the frame; in the frame, its script says 'close'.
    dialog.addEventListener('cancel', function (event) {
      event.preventDefault();
      end('close');
    });
    document.body.append(host);
    dialog.showModal();
  }

  function end(kind, argument) {
    var ended = session;
    if (!ended) return;
    session = null;
    clearTimeout(ended.timer);
    ended.dialog.close();
    ended.host.remove();
    var opener = ended.opener;
    if (opener && opener !== document.body && opener.isConnected && typeof opener.focus === 'function') opener.focus();
    if (kind === 'close') call('onClose', undefined, ended.callbacks);
    else if (kind === 'success') call('onSuccess', argument, ended.callbacks);
    else call('onError', argument, ended.callbacks);
  }

  window.addEventListener('message', function (event) {
    if (!session || event.origin !== ORIGIN || event.source !== session.frame.contentWindow) return;
    var message = event.data;
    if (!message || message.source !== SOURCE || message.paymentRequest !== session.id) return;
    if (message.type === 'ready') {
      clearTimeout(session.timer);
      session.frame.focus();
      post({ type: 'focus' });
    } else if (message.type === 'close') {
      end('close');
    } else if (message.type === 'success') {
      end('success', { payment_request_id: session.id, status: 'completed', reference_number: message.reference_number || null });
    } else if (message.type === 'error') {
      clearTimeout(session.timer);
      var text = typeof message.message === 'string' ? message.message : 'The payment was not completed.';
      if (settings.options.closeOnError) end('error', text);
      else call('onError', text, session.callbacks);
    }
  });

  window.HitPay = {
    sandbox: true,
    inited: false,
    init: function (paymentUrl, options, callbacks) {
      var chosen = {};
      options = options || {};
      callbacks = callbacks || {};
      CALLBACKS.forEach(function (name) { chosen[name] = callbacks[name] || options[name]; });
      settings = { paymentUrl: String(paymentUrl || ''), options: options, callbacks: chosen };
      this.inited = true;
    },
    toggle: function (params) {
      params = params || {};
      if (!this.inited) throw new Error('HitPay.init must be called before HitPay.toggle');
      var wanted = typeof params.open === 'boolean' ? params.open : !session;
      if (!wanted) return end('close');
      var id = params.paymentRequest ? String(params.paymentRequest) : checkoutIdOf(settings.paymentUrl);
      if (session && session.id === id) return;
      if (session) end('close');
      if (id) open(id, params.method);
      else call('onError', 'There is no payment request to open.');
    },
  };
})();
`;
