/**
 * The script of the checkout's drop-in mode (`/_assets/drop-in-frame.js`, the one script a sandbox page runs):
 * it tells the overlay of the drop-in script (drop-in-script.ts) what happens in the frame, by `postMessage` to the
 * exact origin of the page that framed it (the `parent` the page was asked for, which its `frame-ancestors` also
 * names), always with the payment request's id:
 *
 * - `ready` when the checkout has loaded; `success` (with `reference_number`) or `error` (with a message) when the
 *   page is an outcome (after "Pay" or "Fail payment", or a request that is no longer pending); `close` when the
 *   shopper presses Escape in the frame (a key press in a frame never reaches the page around it).
 * - It takes one message, `focus` (after `ready`): it focuses the checkout's first control, so that focus moves into
 *   the overlay. Only from its parent window, of that origin, naming this payment request: anything else is ignored.
 *
 * Plain browser JavaScript in a string, as the sandbox's stylesheet: the sandbox is a Node package without a
 * browser build. Every message carries `source: 'hitpay-drop-in'`, so that other messages of the page are not read.
 */
export const DROP_IN_FRAME_JS = `(function () {
  'use strict';
  var data = document.querySelector('[data-drop-in]');
  if (!data || window.parent === window) return;
  var parentOrigin = data.getAttribute('data-parent-origin');
  var id = data.getAttribute('data-payment-request');
  var outcome = data.getAttribute('data-outcome');
  function post(message) {
    message.source = 'hitpay-drop-in';
    message.paymentRequest = id;
    window.parent.postMessage(message, parentOrigin);
  }
  if (outcome === 'completed') post({ type: 'success', status: 'completed', reference_number: data.getAttribute('data-reference') || null });
  else if (outcome) post({ type: 'error', status: outcome, message: data.getAttribute('data-message') });
  else post({ type: 'ready' });
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape') post({ type: 'close' });
  });
  window.addEventListener('message', function (event) {
    var message = event.data;
    if (event.origin !== parentOrigin || event.source !== window.parent) return;
    if (!message || message.source !== 'hitpay-drop-in' || message.paymentRequest !== id) return;
    if (message.type === 'focus') {
      var first = document.querySelector('input[name=payment_method]:checked, main button, main a[href]');
      if (first) first.focus();
    }
  });
})();
`;
