/**
 * The elements when the Payments API misbehaves behind the merchant's real handler: the shopper reads what
 * happened, the button works again, nothing is created twice, and a return page never says "paid" unconfirmed.
 */
import { expect, fixture, html } from '@open-wc/testing';
import { startCheckout } from './checkout/start-checkout.js';
import type { PaykitCheckoutEvent, PaykitErrorEvent } from './events.js';
import './pay-button/define.js';
import type { PaykitPayButton } from './pay-button/pay-button.js';
import './return/define.js';
import type { PaykitReturn } from './return/return-status.js';
import { backendState, injectFault, loseAnswers, next, waitFor } from '../test-support/backend-client.js';

let checkoutOrigin: string;
before(async () => {
  ({ checkoutOrigin } = await backendState());
});
afterEach(() => history.replaceState(null, '', location.pathname));

async function payButton(reference = 'sku-mug'): Promise<PaykitPayButton> {
  const el = await fixture<PaykitPayButton>(
    html`<paykit-pay-button
      endpoint="/paykit"
      reference=${reference}
      checkout-origins=${checkoutOrigin}
    ></paykit-pay-button>`,
  );
  el.addEventListener('paykit-checkout', (event) => event.preventDefault());
  return el;
}

describe('under injected API faults', () => {
  // `timeout`: the API holds the create past the handler's 3 s limit; `rate_limit`: 429 with Retry-After.
  const faults = [
    { kind: 'status' },
    { kind: 'drop' },
    { kind: 'truncated' },
    { kind: 'html' },
    { kind: 'timeout', delay_ms: 5_000 },
    { kind: 'rate_limit', retry_after: 1 },
  ];
  for (const fault of faults) {
    it(`a create that meets "${fault.kind}" shows a readable error, creates nothing, and the button works again`, async () => {
      const before = (await backendState()).count;
      await injectFault({ path: '/v1/payment-requests', method: 'POST', ...fault });
      const el = await payButton();
      const failure = next<PaykitErrorEvent>(el, 'paykit-error');
      el.shadowRoot!.querySelector('button')!.click();
      const { detail } = await failure;
      expect(detail.code).to.be.oneOf([
        'upstream_error',
        'api_unreachable',
        'network_error',
        'upstream_invalid_response',
        'timeout',
      ]);
      expect(detail.message).to.match(/payment service/);
      expect((await backendState()).count).to.equal(before);
      await waitFor(() => el.shadowRoot!.querySelector('button')!.getAttribute('aria-busy') === 'false');

      // The next click, with the API healthy again, goes through.
      const checkout = next(el, 'paykit-checkout');
      el.shadowRoot!.querySelector('button')!.click();
      await checkout;
      expect((await backendState()).count).to.equal(before + 1);
    });
  }

  it('a slow create keeps the button busy, ignores the clicks meanwhile, and makes one payment request', async () => {
    const before = (await backendState()).count;
    await injectFault({ path: '/v1/payment-requests', method: 'POST', kind: 'slow', delay_ms: 800 });
    const el = await payButton();
    const button = el.shadowRoot!.querySelector('button')!;
    const checkout = next(el, 'paykit-checkout');
    button.click();
    await el.updateComplete;
    expect(button.getAttribute('aria-busy')).to.equal('true');
    button.click();
    button.click();
    await checkout;
    expect((await backendState()).count).to.equal(before + 1);
  });

  it('a return page whose status reads keep failing says calmly it is still confirming, never "paid" nor an error', async () => {
    const { id } = await startCheckout({
      endpoint: '/paykit',
      choice: { reference: 'sku-mug' },
      checkoutOrigins: [checkoutOrigin],
    });
    // Two reads fail (the first check and its retry after 1 s; the next wait, 2 s, is past the 1.5 s budget).
    await injectFault({ path: `/v1/payment-requests/${id}`, method: 'GET', kind: 'status', status: 503, times: 2 });
    history.replaceState(null, '', `${location.pathname}?reference=${id}&status=completed`);
    const errors: Event[] = [];
    document.addEventListener('paykit-error', (event) => errors.push(event));
    const el = await fixture<PaykitReturn>(html`<paykit-return endpoint="/paykit" max-wait-ms="1500"></paykit-return>`);
    const box = el.shadowRoot!.querySelector<HTMLElement>('[part=base]')!;
    const check = () => el.shadowRoot!.querySelector<HTMLButtonElement>('[part=check]');
    await waitFor(check, 'no "Check again" after the checks stopped', { timeout: 5_000 });
    expect(box.dataset.state).to.equal('pending');
    expect(box.textContent).to.contain("We're still confirming your payment. Please don't pay again.");
    expect(box.textContent).to.not.match(/received|wrong|could not/i);
    expect(errors).to.have.length(0);
    // The API is back: "Check again" finds the payment still pending, and keeps the calm words.
    check()!.click();
    await waitFor(() => box.dataset.state === 'pending' && check(), 'no calm words after checking again', {
      timeout: 5_000,
    });
    expect(errors).to.have.length(0);
  });
});

describe('a retried pay click (issue 24: one key per attempt)', () => {
  /** A reference no other test uses, so that no key kept by an earlier test (this tab's) is reused. */
  const fresh = () => `sku-retry-${crypto.randomUUID().slice(0, 8)}`;
  /** Clicks and resolves with the `paykit-error` code, or `checkout` when the checkout was offered. */
  async function click(el: PaykitPayButton): Promise<string> {
    await waitFor(() => el.shadowRoot!.querySelector('button')!.getAttribute('aria-busy') === 'false');
    const outcome = Promise.race([
      next<PaykitErrorEvent>(el, 'paykit-error').then((event) => event.detail.code),
      next(el, 'paykit-checkout').then(() => 'checkout'),
    ]);
    el.shadowRoot!.querySelector('button')!.click();
    return outcome;
  }
  /** The keys sent since `from` (the backend's list), without the browser's own resends of one request. */
  const keysSince = async (from: number) => [...new Set((await backendState()).keys.slice(from))];
  afterEach(() => loseAnswers(false));

  it('after network_error with the payment request made, a retry sends the same key and gets that one request', async () => {
    const before = await backendState();
    const el = await payButton(fresh());
    await loseAnswers(true);
    expect(await click(el)).to.equal('network_error');
    expect(await click(el)).to.equal('network_error');
    // Each lost answer left a payment request behind only once: the retry met the first request's key.
    expect((await backendState()).count).to.equal(before.count + 1);
    await loseAnswers(false);
    const checkout = next<PaykitCheckoutEvent>(el, 'paykit-checkout');
    expect(await click(el)).to.equal('checkout');
    const { detail } = await checkout;
    expect((await backendState()).count).to.equal(before.count + 1);
    expect(await keysSince(before.keys.length)).to.have.length(1);
    expect(detail.url).to.contain(detail.id);
  });

  it('after a 5xx (the API failed, nothing made), the retry sends the same key and makes one payment request', async () => {
    const before = await backendState();
    const el = await payButton(fresh());
    await injectFault({ path: '/v1/payment-requests', method: 'POST', kind: 'status', status: 503 });
    expect(await click(el)).to.equal('upstream_error');
    expect(await click(el)).to.equal('checkout');
    expect((await backendState()).count).to.equal(before.count + 1);
    expect(await keysSince(before.keys.length)).to.have.length(1);
  });

  it('a changed choice gets a new key and its own payment request; a created one ends the attempt', async () => {
    const before = await backendState();
    const el = await payButton(fresh());
    await loseAnswers(true);
    expect(await click(el)).to.equal('network_error');
    // The shopper picks something else: another choice, another attempt, another payment request.
    el.reference = fresh();
    await el.updateComplete;
    expect(await click(el)).to.equal('network_error');
    expect((await backendState()).count).to.equal(before.count + 2);
    expect(await keysSince(before.keys.length)).to.have.length(2);
    await loseAnswers(false);
    // Retried, the second choice gets its own request back, nothing new; then, created, the next click is new.
    expect(await click(el)).to.equal('checkout');
    expect((await backendState()).count).to.equal(before.count + 2);
    expect(await keysSince(before.keys.length)).to.have.length(2);
    expect(await click(el)).to.equal('checkout');
    expect((await backendState()).count).to.equal(before.count + 3);
    expect(await keysSince(before.keys.length)).to.have.length(3);
  });

  it('startCheckout after a timeout sends the same key, and one payment request is made', async () => {
    const before = await backendState();
    const choice = { reference: fresh() };
    // The API takes 1.5 s to create; the page gives up after 0.5 s (the backend then abandons its call).
    await injectFault({ path: '/v1/payment-requests', method: 'POST', kind: 'slow', delay_ms: 1_500 });
    let code: string | undefined;
    try {
      await startCheckout({ endpoint: '/paykit', choice, checkoutOrigins: [checkoutOrigin], timeoutMs: 500 });
    } catch (error) {
      code = (error as { code?: string }).code;
    }
    expect(code).to.equal('timeout');
    const started = await startCheckout({ endpoint: '/paykit', choice, checkoutOrigins: [checkoutOrigin] });
    expect(started.url).to.contain(started.id);
    expect((await backendState()).count).to.equal(before.count + 1);
    expect(await keysSince(before.keys.length)).to.have.length(1);
  });

  it('keeps the key in the tab, not in the page: a new page of this tab (a reload) retries with it', async () => {
    const before = await backendState();
    const choice = { reference: fresh() };
    await loseAnswers(true);
    const lost = await startCheckout({ endpoint: '/paykit', choice, checkoutOrigins: [checkoutOrigin] }).catch(
      (error: { code: string }) => error.code,
    );
    expect(lost).to.equal('network_error');
    await loseAnswers(false);
    // A same-origin frame shares this tab's sessionStorage and loads its own copy of the module, as a reload does.
    const frame = document.createElement('iframe');
    document.body.append(frame);
    const url = new URL('./checkout/start-checkout.ts', import.meta.url).href;
    const module = (await (frame.contentWindow as unknown as { eval(code: string): unknown }).eval(
      `import(${JSON.stringify(url)})`,
    )) as { startCheckout: typeof startCheckout };
    expect(module.startCheckout).to.not.equal(startCheckout);
    const started = await module.startCheckout({ endpoint: '/paykit', choice, checkoutOrigins: [checkoutOrigin] });
    frame.remove();
    expect(started.id).to.be.a('string');
    expect((await backendState()).count).to.equal(before.count + 1);
    expect(await keysSince(before.keys.length)).to.have.length(1);
  });

  it('without sessionStorage (blocked by the browser), each click still works, with a key of its own', async () => {
    const before = await backendState();
    const own = Object.getOwnPropertyDescriptor(window, 'sessionStorage');
    Object.defineProperty(window, 'sessionStorage', {
      configurable: true,
      get: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    try {
      const el = await payButton(fresh());
      expect(await click(el)).to.equal('checkout');
      expect(await click(el)).to.equal('checkout');
    } finally {
      if (own) Object.defineProperty(window, 'sessionStorage', own);
      else delete (window as { sessionStorage?: Storage }).sessionStorage;
    }
    expect((await backendState()).count).to.equal(before.count + 2);
    expect(await keysSince(before.keys.length)).to.have.length(2);
  });
});
