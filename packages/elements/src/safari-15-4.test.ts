// First: the page loses what Safari 15.4 lacks, before any module of the elements is evaluated.
import { removed } from '../test-support/safari-15-4.js';
import { expect, fixture, html } from '@open-wc/testing';
import { PaykitError } from '@paykit/core/browser';
import type { PaykitCheckoutEvent, PaykitConnectedEvent, PaykitErrorEvent } from './events.js';
import {
  approveOnDashboard,
  backendState,
  consoleDuring,
  injectFault,
  next,
  settle,
} from '../test-support/backend-client.js';
import { callBackend } from './http.js';
import { randomUuid } from './random.js';
import { startCheckout } from './checkout/start-checkout.js';
import { startConnect } from './connect/start-connect.js';
import type { PaykitConnectButton } from './connect-button/connect-button.js';
import type { PaykitPayButton } from './pay-button/pay-button.js';
import type { PaykitReturn } from './return/return-status.js';
import './all.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let checkoutOrigin: string;
before(async () => {
  ({ checkoutOrigin } = await backendState());
});
afterEach(() => history.replaceState(null, '', location.pathname));

describe('the elements on Safari 15.4 (AbortSignal.any, AbortSignal.timeout and crypto.randomUUID removed)', () => {
  it('runs on a page that really lacks them', () => {
    expect(removed()).to.deep.equal({
      'AbortSignal.any': 'undefined',
      'AbortSignal.timeout': 'undefined',
      'crypto.randomUUID': 'undefined',
    });
  });

  it('pays: the button makes one payment request, with a UUID v4 key, and offers its checkout', async () => {
    sessionStorage.clear();
    const before = await backendState();
    const el = await fixture<PaykitPayButton>(
      html`<paykit-pay-button
        endpoint="/paykit"
        reference="sku-mug"
        amount="12.50"
        currency="SGD"
        checkout-origins=${checkoutOrigin}
      ></paykit-pay-button>`,
    );
    el.addEventListener('paykit-checkout', (event) => event.preventDefault());
    const checkout = next<PaykitCheckoutEvent>(el, 'paykit-checkout');
    el.shadowRoot!.querySelector('button')!.click();
    const { detail } = await checkout;
    expect(new URL(detail.url).origin).to.equal(checkoutOrigin);
    const after = await backendState();
    expect(after.count).to.equal(before.count + 1);
    expect(after.keys.at(-1)).to.match(UUID_V4);
    expect(el.shadowRoot!.querySelector('[part=error]')).to.equal(null);
  });

  it('confirms on the return page: the paid payment is shown paid, not "still confirming"', async () => {
    const { id } = await startCheckout({
      endpoint: '/paykit',
      choice: { reference: 'sku-tee' },
      checkoutOrigins: [checkoutOrigin],
    });
    await settle(id, 'succeeded');
    history.replaceState(null, '', `${location.pathname}?reference=${id}&status=completed`);
    const completed = next(document, 'paykit-payment-completed');
    const el = await fixture<PaykitReturn>(html`<paykit-return endpoint="/paykit" max-wait-ms="3000"></paykit-return>`);
    await completed;
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part=base]')!.getAttribute('data-state')).to.equal('completed');
  });

  it('still times out a call that hangs, with `timeout`', async () => {
    // The API holds the create for 3 s: the backend's call, and so the page's, outlive a 300 ms limit.
    await injectFault({ path: '/v1/payment-requests', method: 'POST', kind: 'slow', delay_ms: 3_000, times: 1 });
    const started = Date.now();
    const error = await callBackend('/paykit/payment-requests', {
      body: { reference: 'sku-mug' },
      headers: { 'idempotency-key': randomUuid() },
      timeoutMs: 300,
    }).catch((e: unknown) => e);
    expect(error).to.be.instanceOf(PaykitError);
    expect((error as PaykitError).code).to.equal('timeout');
    expect(Date.now() - started).to.be.below(2_500);
  });

  it("still stops at the caller's abort, with the caller's reason", async () => {
    await injectFault({ path: '/v1/payment-requests', method: 'POST', kind: 'slow', delay_ms: 3_000, times: 1 });
    const controller = new AbortController();
    const reason = new Error('left the page');
    setTimeout(() => controller.abort(reason), 100);
    const error = await callBackend('/paykit/payment-requests', {
      body: { reference: 'sku-mug' },
      headers: { 'idempotency-key': randomUuid() },
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(error).to.equal(reason);
    // Already aborted: nothing is sent.
    const attempts = (await backendState()).attempts;
    const again = await callBackend('/paykit/payment-requests', { body: {}, signal: controller.signal }).catch(
      (e: unknown) => e,
    );
    expect(again).to.equal(reason);
    expect((await backendState()).attempts).to.equal(attempts);
  });

  it("leaves nothing behind a finished call: the timer is cleared and the caller's signal let go", async () => {
    let used: AbortSignal | undefined;
    const caller = new AbortController();
    const answer = await callBackend('/anything', {
      timeoutMs: 200,
      signal: caller.signal,
      fetch: (_url, init) => {
        used = init!.signal!;
        return Promise.resolve(Response.json({ ok: true }));
      },
    });
    expect(answer).to.deep.equal({ ok: true });
    await sleep(400);
    expect(used!.aborted, 'aborted by a timer that should have been cleared').to.equal(false);
    caller.abort();
    expect(used!.aborted, "aborted by the caller's signal after the call ended").to.equal(false);
  });

  it('makes UUIDs of version 4 from crypto.getRandomValues, each new', () => {
    const ids = new Set(Array.from({ length: 200 }, randomUuid));
    expect(ids.size).to.equal(200);
    for (const id of ids) expect(id).to.match(UUID_V4);
  });

  it('connects: state and S256 challenge from Web Crypto, then the callback page connects the merchant', async () => {
    const redirectUri = `${location.origin}/return`;
    const { url, state } = await startConnect({
      clientId: 'unused',
      redirectUri,
      scope: 'payments',
      dashboardUrl: checkoutOrigin,
    });
    const request = new URL(url).searchParams;
    expect(request.get('code_challenge_method')).to.equal('S256');
    expect(state).to.have.length(43);
    const back = new URL(
      await approveOnDashboard({ redirect_uri: redirectUri, state, code_challenge: request.get('code_challenge')! }),
    );
    history.replaceState(null, '', `${location.pathname}${back.search}`);
    const connected = next<PaykitConnectedEvent>(document, 'paykit-connected');
    await fixture(html`<paykit-return endpoint="/platform"></paykit-return>`);
    expect((await connected).detail.business.name).to.equal('Harbour Cafe');
  });
});

describe('connect on a page that is not a secure context (no crypto.subtle)', () => {
  // What a browser gives a page served over plain http on a LAN address: `crypto` without `subtle`.
  beforeEach(() => Object.defineProperty(crypto, 'subtle', { value: undefined, configurable: true }));
  afterEach(() => delete (crypto as { subtle?: unknown }).subtle);

  it('the button says it is not set up instead of failing later; the development build names the fix', async () => {
    const el = await fixture<PaykitConnectButton>(
      html`<paykit-connect-button
        client-id="app_123"
        redirect-uri=${`${location.origin}/return`}
        scope="payments"
        dashboard-url=${checkoutOrigin}
      ></paykit-connect-button>`,
    );
    const stored = sessionStorage.length;
    const failure = next<PaykitErrorEvent>(el, 'paykit-error');
    const lines = await consoleDuring(async () => {
      el.shadowRoot!.querySelector('button')!.click();
      expect((await failure).detail.code).to.equal('insecure_context');
    });
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part=error]')!.textContent).to.equal('This button is not set up correctly.');
    expect(el.shadowRoot!.querySelector('button')!.getAttribute('aria-busy')).to.equal('false');
    expect(sessionStorage.length, 'an attempt was stored').to.equal(stored);
    expect(lines.join('\n')).to.match(/not a secure context.*crypto\.subtle.*Serve the page over https/s);
  });

  it('startConnect rejects with insecure_context before storing or fetching anything', async () => {
    let fetched = false;
    const error = await startConnect({
      clientId: 'app_123',
      redirectUri: `${location.origin}/return`,
      scope: 'payments',
      issuer: checkoutOrigin,
      fetch: () => {
        fetched = true;
        return Promise.reject(new Error('unexpected'));
      },
    }).catch((e: unknown) => e);
    expect((error as PaykitError).code).to.equal('insecure_context');
    expect(fetched).to.equal(false);
  });
});
