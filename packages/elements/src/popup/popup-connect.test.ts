/**
 * Connect in a popup, in Chromium, Firefox and WebKit, against the real backend and the sandbox's authorization
 * server: the attempt prepared before the click, the popup's callback page (`GET /return`, `<paykit-return>` as a
 * platform serves it; `GET /return-coop`, the same under `Cross-Origin-Opener-Policy: same-origin`) handing the
 * callback back to this page, which exchanges it and fires `paykit-connected`; the merchant's denial; the popup
 * closed; a window of another origin posting a code; another tab of this origin on the popups' channel
 * (`GET /__test/eavesdropper`); where the attempt's verifier is left; the headless time limit and `AbortSignal`;
 * and what the browsers do with a popup's sessionStorage and name, which the attempt's secret relies on. The
 * merchant's approval on the sandbox dashboard is the backend's `/__test/approve` (the e2e tests sign in and
 * consent in the popup itself: test/e2e/connect-popup.test.ts); an opener too slow to take the callback.
 */
import { expect, fixture, html } from '@open-wc/testing';
import type { PaykitError } from '@paykit/core/browser';
import type { PaykitCancelEvent, PaykitConnectDeniedEvent, PaykitConnectedEvent, PaykitErrorEvent } from '../events.js';
import { approveOnDashboard, backendState, next, waitFor } from '../../test-support/backend-client.js';
import { PREFIX } from '../connect/connect-attempts.js';
import { LATEST } from '../connect/latest-request.js';
import { ACK_MS } from './hand-off-callback.js';
import '../connect-button/define.js';
import type { PaykitConnectButton } from '../connect-button/connect-button.js';
import { prepareConnectPopup } from './lazy-popup-connect.js';
import { POPUP_FEATURES, POPUP_NAME } from './popup-window.js';

let dashboard: string;
const redirectUri = () => `${location.origin}/return`;
before(async () => {
  dashboard = (await backendState()).checkoutOrigin;
  // The test files share one origin: an attempt another file kept in localStorage (storage="local") would be read
  // here as this page's latest request.
  localStorage.clear();
});
/** The popup of the current test, and the other windows it opened, closed after it. */
let current: Window | null = null;
const others: (() => void)[] = [];
afterEach(() => {
  current?.close();
  current = null;
  others.splice(0).forEach((close) => close());
  sessionStorage.clear();
  localStorage.clear();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The attempt of `state` as `storage` keeps it (its verifier, or the tombstone of a used one), or `null`. */
const kept = (storage: Storage, state: string) =>
  JSON.parse(storage.getItem(PREFIX + state) ?? 'null') as { used?: true; codeVerifier?: string } | null;

/** The open connect popup: `window.open` with its name and no URL returns it without navigating it. */
function popup(): Window {
  current = window.open('', POPUP_NAME)!;
  return current;
}

/** A popup connect button, once its attempt is prepared (the authorization request it will open). */
async function button(): Promise<{ el: PaykitConnectButton; request: URL }> {
  const el = await fixture<PaykitConnectButton>(
    html`<paykit-connect-button
      popup
      endpoint="/platform"
      client-id="ignored-until-approved"
      redirect-uri=${redirectUri()}
      scope="payments business:read"
      dashboard-url=${dashboard}
    ></paykit-connect-button>`,
  );
  // Prepared before any click: kept in this tab's storage, with the latest request (where is checked below).
  const latest = () => sessionStorage.getItem(LATEST) ?? localStorage.getItem(LATEST);
  await waitFor(latest, 'the attempt was not prepared');
  const request = new URL((JSON.parse(latest()!) as [string, boolean])[0]);
  expect(kept(sessionStorage, request.searchParams.get('state')!)?.codeVerifier).to.have.length(43);
  return { el, request };
}

/** Clicks, and resolves once the popup is on the authorization server. */
async function click(el: PaykitConnectButton): Promise<Window> {
  el.shadowRoot!.querySelector('button')!.click();
  return onAuthorizationServer(popup());
}

/**
 * Resolves once `win` is on the authorization server (another origin: its address is hidden), as a merchant's
 * popup is before anything happens in it: the callback then comes from where a real one does, and never races
 * the authorization request's own navigation (a probe found no such race in Chromium 0 to 120 ms after the open).
 */
async function onAuthorizationServer(win: Window): Promise<Window> {
  await waitFor(() => {
    try {
      return win.location.href === undefined;
    } catch {
      return true;
    }
  }, 'the popup did not go to the authorization server');
  return win;
}

/** Where `win` is, for a failure's message: closed, on another origin, or its address here. */
async function whereIs(win: Window): Promise<string> {
  let at: string;
  try {
    at = win.closed ? 'closed' : win.location.href;
  } catch {
    at = 'on another origin';
  }
  return `the popup is ${at}; the backend has seen ${(await backendState()).callbacks} callbacks`;
}

/**
 * `promise`, or a failure that says where things stood after `ms` (before mocha's own time limit, whose message
 * says nothing): CI once saw the headless attempt hang without a trace.
 */
async function withinOrSay<T>(promise: Promise<T>, ms: number, say: () => Promise<string>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => void say().then((what) => reject(new Error(`not settled after ${ms} ms: ${what}`))), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs `work` with this page an opener too slow to answer (a busy phone, a background tab): from the first message
 * of the popup's callback page, everything the page hears from it (its `message` events and the origin's popup
 * channel) waits half a second longer than the callback page waits for the ack ({@link ACK_MS}), then arrives in
 * the order it came. A real busy page cannot be played here: the popup shares this page's event loop, so a busy
 * loop would stall both.
 */
async function withSlowOpener<T>(work: () => Promise<T>): Promise<T> {
  const undo = slowOpener(ACK_MS + 500);
  try {
    return await work();
  } finally {
    undo();
  }
}

/** What {@link withSlowOpener} does: holds the page's messages from the popup `ms`; returns the undo. */
function slowOpener(ms: number): () => void {
  const held: (() => void)[] = [];
  let releaseAt = 0;
  const hold = (deliver: () => void) => {
    releaseAt ||= Date.now() + ms;
    held.push(deliver);
    setTimeout(() => held.shift()?.(), releaseAt - Date.now());
  };
  const passing = new WeakSet<Event>();
  const onMessage = (event: MessageEvent) => {
    if (passing.has(event) || event.origin !== location.origin) return;
    event.stopImmediatePropagation();
    const { data, origin, source } = event;
    hold(() => {
      const again = new MessageEvent('message', { data, origin, source });
      passing.add(again);
      dispatchEvent(again);
    });
  };
  addEventListener('message', onMessage, true);
  const Original = BroadcastChannel;
  window.BroadcastChannel = class extends Original {
    override set onmessage(handler: ((event: MessageEvent) => void) | null) {
      super.onmessage = handler && ((event: MessageEvent) => hold(() => handler.call(this, event)));
    }
  };
  return () => {
    removeEventListener('message', onMessage, true);
    window.BroadcastChannel = Original;
  };
}

/**
 * The merchant approves the request on the dashboard; the popup comes back to the callback page (`page`: the
 * platform's callback page served another way, such as `/return-coop`). Resolves with the code.
 */
async function approveIn(win: Window, request: URL, page = '/return'): Promise<string> {
  const callback = new URL(
    await approveOnDashboard({
      redirect_uri: redirectUri(),
      state: request.searchParams.get('state')!,
      code_challenge: request.searchParams.get('code_challenge')!,
    }),
  );
  callback.pathname = page;
  win.location.href = callback.href;
  return callback.searchParams.get('code')!;
}

/**
 * Another tab of this origin gone bad (a compromised widget on another page of the site: `GET
 * /__test/eavesdropper`, see backend.ts), knowing the attempt's `state`: it listens on the connect popups'
 * channel, sends back what it hears and answers each message with forged `ack`, `go` and a `done` for "Evil Corp
 * (spoofed)"; with `inject`, it also says from the start, and every 100 ms, that the callback came back with a code
 * of its own. `heard` is what it heard, as text (bytes as Latin-1).
 */
async function anotherTab(state: string, inject = false): Promise<{ heard: string[] }> {
  const report = new BroadcastChannel('paykit-test:eavesdropper');
  const heard: string[] = [];
  const ready = new Promise<void>((resolve) => {
    report.onmessage = ({ data }: MessageEvent<{ heard?: string }>) =>
      data.heard === undefined ? resolve() : void heard.push(data.heard);
  });
  const tab = window.open(`/__test/eavesdropper?state=${state}${inject ? '&inject' : ''}`, 'another-tab')!;
  others.push(() => {
    tab.close();
    report.close();
  });
  await ready;
  return { heard };
}

describe('<paykit-connect-button popup>', () => {
  it('connects in a popup and fires paykit-connected on this page, which stays as it was', async () => {
    const { el, request } = await button();
    const before = (await backendState()).callbacks;
    const connected = next<PaykitConnectedEvent>(el, 'paykit-connected');
    const win = await click(el);
    await approveIn(win, request);
    const { detail } = await connected;
    expect(detail.business.name).to.equal('Harbour Cafe');
    await el.updateComplete;
    const status = el.shadowRoot!.querySelector('[part=status]')!;
    expect(status.getAttribute('role')).to.equal('status');
    expect(status.textContent).to.equal('Connected to Harbour Cafe.');
    // One exchange, made by this page; the popup closed itself.
    expect((await backendState()).callbacks).to.equal(before + 1);
    await waitFor(() => win.closed, 'the popup did not close itself');
    await waitFor(() => el.shadowRoot!.querySelector('button')!.getAttribute('aria-busy') === 'false');
  });

  it("the merchant's denial reaches paykit-connect-denied, and nothing is exchanged", async () => {
    const { el, request } = await button();
    const before = (await backendState()).callbacks;
    const denied = next<PaykitConnectDeniedEvent>(el, 'paykit-connect-denied');
    const win = await click(el);
    win.location.href = `${redirectUri()}?error=access_denied&error_description=No&state=${request.searchParams.get('state')}`;
    expect((await denied).detail.description).to.equal('No');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part=status]')!.textContent).to.equal(
      'Connection cancelled. Nothing was shared.',
    );
    expect((await backendState()).callbacks).to.equal(before);
  });

  it('a popup the merchant closes ends the attempt with paykit-cancel within a second, focus back on the button', async () => {
    const { el } = await button();
    const cancelled = next<PaykitCancelEvent>(el, 'paykit-cancel');
    const win = await click(el);
    // Past the first moments, when a window read as closed is taken for a handle cut by COOP.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const closedAt = performance.now();
    win.close();
    await cancelled;
    expect(performance.now() - closedAt).to.be.lessThan(1_000);
    expect(document.activeElement).to.equal(el);
    await waitFor(() => el.shadowRoot!.querySelector('button')!.getAttribute('aria-busy') === 'false');
  });

  it('a callback page that read as closed and speaks late (COOP, a slow machine) still connects after paykit-cancel', async () => {
    const { el, request } = await button();
    const before = (await backendState()).callbacks;
    const cancelled = next<PaykitCancelEvent>(el, 'paykit-cancel');
    const connected = next<PaykitConnectedEvent>(el, 'paykit-connected');
    const win = await click(el);
    // Past the first second, when a window read as closed is taken for one that COOP cut at once.
    await sleep(1_100);
    // The callback page under COOP cuts this page's handle, which reads as closed, and, on a slow machine, speaks
    // (on the origin's channel, its only way) only after the button gave up on the window.
    await approveIn(win, request, '/return-coop-late');
    await cancelled;
    await waitFor(() => el.shadowRoot!.querySelector('button')!.getAttribute('aria-busy') === 'false');
    expect((await connected).detail.business.name).to.equal('Harbour Cafe');
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part=status]')!.textContent).to.equal('Connected to Harbour Cafe.');
    // Exchanged once, by this page.
    expect((await backendState()).callbacks).to.equal(before + 1);
  });

  it('an opener too slow to answer in time: the callback page exchanges the code itself, once, and this page hears how it went', async () => {
    const { el, request } = await button();
    const before = (await backendState()).callbacks;
    const connected = next<PaykitConnectedEvent>(el, 'paykit-connected');
    await withSlowOpener(async () => {
      await approveIn(await click(el), request);
      expect((await connected).detail.business.name).to.equal('Harbour Cafe');
    });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part=status]')!.textContent).to.equal('Connected to Harbour Cafe.');
    // One exchange, the callback page's: this page's late ack got no `go`, so it never sent the code as well.
    expect((await backendState()).callbacks).to.equal(before + 1);
  });

  it("an opener too slow to answer in time still hears the merchant's denial, with the server's description", async () => {
    const { el, request } = await button();
    const before = (await backendState()).callbacks;
    const denied = next<PaykitConnectDeniedEvent>(el, 'paykit-connect-denied');
    await withSlowOpener(async () => {
      const win = await click(el);
      win.location.href = `${redirectUri()}?error=access_denied&error_description=No&state=${request.searchParams.get('state')}`;
      expect((await denied).detail.description).to.equal('No');
    });
    expect((await backendState()).callbacks).to.equal(before);
  });

  it('a window of another origin posting a code for the attempt changes nothing', async () => {
    const { el, request } = await button();
    const before = (await backendState()).callbacks;
    let connected = false;
    el.addEventListener('paykit-connected', () => (connected = true));
    const win = await click(el);
    // An opaque-origin frame that knows the state (the worst case) says the callback came back to it.
    const forger = document.createElement('iframe');
    forger.setAttribute('sandbox', 'allow-scripts');
    forger.srcdoc = `<script>parent.postMessage(${JSON.stringify({
      type: 'paykit:connect-callback',
      state: request.searchParams.get('state'),
      search: `?code=forged&state=${request.searchParams.get('state')}`,
    })}, '*')</script>`;
    document.body.append(forger);
    await new Promise((resolve) => setTimeout(resolve, 600));
    forger.remove();
    expect(connected).to.equal(false);
    expect((await backendState()).callbacks).to.equal(before);
    expect(el.shadowRoot!.querySelector('button')!.getAttribute('aria-busy')).to.equal('true');
    // The real callback still completes the attempt.
    const done = next<PaykitConnectedEvent>(el, 'paykit-connected');
    await approveIn(win, request);
    await done;
    expect((await backendState()).callbacks).to.equal(before + 1);
  });

  for (const [page, cut] of [
    ['/return', false],
    ['/return-coop', true],
  ] as const)
    it(`another tab of this origin learns no code, and its forged done changes nothing (${
      cut ? 'a callback page under COOP, on the channel' : 'a callback page with its opener: nothing on the channel'
    })`, async () => {
      const { el, request } = await button();
      const state = request.searchParams.get('state')!;
      const prepared = { session: !!sessionStorage.getItem(LATEST), local: !!localStorage.getItem(LATEST) };
      const tab = await anotherTab(state);
      const before = (await backendState()).callbacks;
      const names: string[] = [];
      el.addEventListener('paykit-connected', ({ detail }) => names.push(detail.business.name));
      const connected = next<PaykitConnectedEvent>(el, 'paykit-connected');
      const code = await approveIn(await click(el), request, page);
      await connected;
      // Whatever the other tab posted after the outcome has arrived by now.
      await sleep(500);
      expect(names).to.deep.equal(['Harbour Cafe']);
      await el.updateComplete;
      expect(el.shadowRoot!.querySelector('[part=status]')!.textContent).to.equal('Connected to Harbour Cafe.');
      // One exchange, of the merchant's code, by this page.
      expect((await backendState()).callbacks).to.equal(before + 1);
      expect(tab.heard.filter((message) => message.includes(code))).to.deep.equal([]);
      if (cut) {
        // The channel carried the attempt (this engine cut the popup from its opener), sealed: the other tab heard
        // it, and it does not even name the attempt.
        expect(tab.heard).to.not.deep.equal([]);
        expect(tab.heard.filter((message) => message.includes(state))).to.deep.equal([]);
      } else expect(tab.heard).to.deep.equal([]);
      // Nor could it have read the attempt's state and challenge where every tab reads: the latest request was
      // kept in this tab's sessionStorage, as the attempt is.
      expect(prepared).to.deep.equal({ session: true, local: false });
    });

  it('another tab of this origin that knows the state and says the callback came back, with a code of its own, changes nothing', async () => {
    const { el, request } = await button();
    const before = (await backendState()).callbacks;
    let connected = false;
    el.addEventListener('paykit-connected', () => (connected = true));
    const win = await click(el);
    // From the start, and every 100 ms: "callback", "go" and "done", in the attempt's state (the protocol's old and
    // new shapes), as a page that asked the authorization server for a code of its own merchant would.
    await anotherTab(request.searchParams.get('state')!, true);
    await sleep(800);
    expect(connected).to.equal(false);
    expect((await backendState()).callbacks).to.equal(before);
    expect(el.shadowRoot!.querySelector('button')!.getAttribute('aria-busy')).to.equal('true');
    // The merchant's own callback, on the channel beside the other tab's, connects the merchant.
    const done = next<PaykitConnectedEvent>(el, 'paykit-connected');
    await approveIn(win, request, '/return-coop');
    expect((await done).detail.business.name).to.equal('Harbour Cafe');
    expect((await backendState()).callbacks).to.equal(before + 1);
  });

  it("a used verifier is kept nowhere: the popup's copy once it handed the code over, this page's once connected", async () => {
    const { el, request } = await button();
    const state = request.searchParams.get('state')!;
    // This page's exchange waits until the popup's storage is read, so that the popup is still there.
    const { fetch } = window;
    let asked = false;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    window.fetch = async (input, init) => {
      if (String(input instanceof Request ? input.url : input).endsWith('/platform/oauth/callback')) {
        asked = true;
        await held;
      }
      return fetch(input, init);
    };
    try {
      const connected = next<PaykitConnectedEvent>(el, 'paykit-connected');
      const win = await click(el);
      await approveIn(win, request);
      await waitFor(() => asked, 'this page did not exchange the code');
      // The popup's copy of this page's sessionStorage (the browser's, at window.open) held the attempt.
      expect(kept(win.sessionStorage, state)).to.include({ used: true }).and.not.have.property('codeVerifier');
      // Nothing else of the attempt either: its secret was taken.
      expect(Object.keys(win.sessionStorage).filter((key) => key.includes(state))).to.deep.equal([PREFIX + state]);
      release();
      expect((await connected).detail.business.name).to.equal('Harbour Cafe');
    } finally {
      window.fetch = fetch;
      release();
    }
    expect(kept(sessionStorage, state)).to.include({ used: true }).and.not.have.property('codeVerifier');
  });

  it("an opener too slow to answer: once the callback page exchanged the code, this page's verifier is gone too", async () => {
    const { el, request } = await button();
    const state = request.searchParams.get('state')!;
    const connected = next<PaykitConnectedEvent>(el, 'paykit-connected');
    await withSlowOpener(async () => {
      current = await click(el);
      await approveIn(current, request);
      expect((await connected).detail.business.name).to.equal('Harbour Cafe');
    });
    expect(kept(sessionStorage, state)).to.include({ used: true }).and.not.have.property('codeVerifier');
    expect(kept(current!.sessionStorage, state)).to.include({ used: true }).and.not.have.property('codeVerifier');
  });

  it('shows a refused exchange as an error (a replayed state is "already handled")', async () => {
    const { el, request } = await button();
    const win = await click(el);
    const failed = next<PaykitErrorEvent>(el, 'paykit-error');
    // The state of an attempt this tab already used: the popup's callback is handed here and refused.
    const state = request.searchParams.get('state')!;
    sessionStorage.setItem(`paykit:connect:${state}`, JSON.stringify({ used: true, createdAt: Date.now() }));
    win.location.href = `${redirectUri()}?code=anything&state=${state}`;
    expect((await failed).detail.code).to.equal('state_used');
  });
});

describe('prepareConnectPopup (headless)', () => {
  const options = () => ({
    clientId: 'ignored-until-approved',
    redirectUri: redirectUri(),
    scope: 'payments business:read',
    dashboardUrl: dashboard,
    endpoint: '/platform',
  });

  it('connects: open() in the click resolves with the business', async () => {
    const attempt = await prepareConnectPopup(options());
    const result = attempt.open();
    const win = await onAuthorizationServer(popup());
    await approveIn(win, new URL(attempt.url));
    expect((await withinOrSay(result, 8_000, () => whereIs(win))).name).to.equal('Harbour Cafe');
  });

  it('an AbortSignal ends the attempt: the popup closes, open() rejects with its reason', async () => {
    const attempt = await prepareConnectPopup(options());
    const abort = new AbortController();
    const result = attempt.open({ signal: abort.signal });
    const win = popup();
    abort.abort(new Error('the merchant left the wizard'));
    const reason = await result.then(
      () => undefined,
      (error: Error) => error.message,
    );
    expect(reason).to.equal('the merchant left the wizard');
    await waitFor(() => win.closed, 'the popup was left open');
  });

  it('a browser that throws instead of opening (Firefox in a frame sandboxed without allow-popups) rejects with popup_blocked', async () => {
    const attempt = await prepareConnectPopup(options());
    const open = window.open;
    window.open = () => {
      throw new DOMException('Blocked by the sandbox', 'SecurityError');
    };
    try {
      const code = await attempt.open().then(
        () => undefined,
        (error: PaykitError) => error.code,
      );
      expect(code).to.equal('popup_blocked');
    } finally {
      window.open = open;
    }
  });

  it('the time limit ends a forgotten attempt with timeout', async () => {
    const attempt = await prepareConnectPopup(options());
    const code = await attempt.open({ timeoutMs: 300 }).then(
      () => undefined,
      (error: PaykitError) => error.code,
    );
    expect(code).to.equal('timeout');
  });
});

describe("a popup's sessionStorage and name, in this engine (what the attempt's secret relies on)", () => {
  afterEach(() => sessionStorage.removeItem('paykit-test:copied'));
  for (const coop of [false, true])
    it(`keeps what the opener wrote into it while blank, through another origin${
      coop ? ' and a callback page under COOP (window.name cleared: no way for a secret)' : ''
    }`, async () => {
      const report = new BroadcastChannel('paykit-test:storage-report');
      const reported = new Promise<{ stored: Record<string, string>; name: string; opener: boolean }>((resolve) => {
        report.onmessage = ({ data }: MessageEvent) => resolve(data as never);
      });
      sessionStorage.setItem('paykit-test:copied', 'before the open');
      const win = window.open('', 'paykit-test-window', POPUP_FEATURES)!;
      others.push(() => {
        win.close();
        report.close();
      });
      sessionStorage.setItem('paykit-test:copied', 'after the open');
      win.sessionStorage.setItem('paykit-test:written', 'by the opener');
      win.location.replace(`${dashboard}/`);
      await onAuthorizationServer(win);
      win.location.href = `${location.origin}/__test/storage-report${coop ? '?coop' : ''}`;
      const { stored, name, opener } = await reported;
      // Written by the opener while the window was blank, and still there on this origin after another.
      expect(stored['paykit-test:written']).to.equal('by the opener');
      // The browser copies the opener's sessionStorage at window.open (a copy, not shared): a secret made after
      // the click would miss it, which is why the opener writes the secret into the popup.
      expect(stored['paykit-test:copied']).to.equal('before the open');
      expect(opener).to.equal(!coop);
      expect(name).to.equal(coop ? '' : 'paykit-test-window');
    });
});
