/**
 * The elements when the Payments API misbehaves behind the merchant's real handler: the shopper reads what
 * happened, the button works again, nothing is created twice, and a return page never says "paid" unconfirmed.
 */
import { expect, fixture, html, waitUntil } from '@open-wc/testing';
import { startCheckout } from './checkout/start-checkout.js';
import type { PaykitErrorEvent } from './events.js';
import './pay-button/define.js';
import type { PaykitPayButton } from './pay-button/pay-button.js';
import './return/define.js';
import type { PaykitReturn } from './return/return-status.js';
import { backendState, injectFault, next } from '../test-support/backend-client.js';

let checkoutOrigin: string;
before(async () => {
  ({ checkoutOrigin } = await backendState());
});
afterEach(() => history.replaceState(null, '', location.pathname));

async function payButton(): Promise<PaykitPayButton> {
  const el = await fixture<PaykitPayButton>(
    html`<paykit-pay-button
      endpoint="/paykit"
      reference="sku-mug"
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
      expect(detail.code).to.be.oneOf(['upstream_error', 'network_error', 'upstream_invalid_response', 'timeout']);
      expect(detail.message).to.match(/payment service/);
      expect((await backendState()).count).to.equal(before);
      await waitUntil(() => el.shadowRoot!.querySelector('button')!.getAttribute('aria-busy') === 'false');

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
    await waitUntil(check, 'no "Check again" after the checks stopped', { timeout: 5_000 });
    expect(box.dataset.state).to.equal('pending');
    expect(box.textContent).to.contain("We're still confirming your payment. Please don't pay again.");
    expect(box.textContent).to.not.match(/received|wrong|could not/i);
    expect(errors).to.have.length(0);
    // The API is back: "Check again" finds the payment still pending, and keeps the calm words.
    check()!.click();
    await waitUntil(() => box.dataset.state === 'pending' && check(), 'no calm words after checking again', {
      timeout: 5_000,
    });
    expect(errors).to.have.length(0);
  });
});
