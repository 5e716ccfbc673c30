import { expect, fixture, html } from '@open-wc/testing';
import { startCheckout } from '../checkout/start-checkout.js';
import type { PaykitErrorEvent, PaykitPaymentCompletedEvent, PaykitPaymentFailedEvent } from '../events.js';
import { backendState, expire, next, settle, waitFor } from '../../test-support/backend-client.js';
import { handleReturn } from './handle-return.js';
import '../locales/fr.js';
import './define.js';
import type { PaykitReturn } from './return-status.js';

let checkoutOrigin: string;
before(async () => {
  ({ checkoutOrigin } = await backendState());
});

async function newPayment(): Promise<string> {
  const started = await startCheckout({
    endpoint: '/paykit',
    choice: { reference: 'sku-tee' },
    checkoutOrigins: [checkoutOrigin],
  });
  return started.id;
}

/** Puts a return URL in the address bar (same document, no navigation), as the checkout's redirect would. */
function returnTo(query: string): void {
  history.replaceState(null, '', `${location.pathname}?${query}`);
}

async function returnElement(maxWaitMs = 2_000, endpoint = '/paykit'): Promise<PaykitReturn> {
  return fixture<PaykitReturn>(
    html`<paykit-return endpoint=${endpoint} max-wait-ms=${maxWaitMs} retry-url="/shop/mug"></paykit-return>`,
  );
}
const box = (el: PaykitReturn) => el.shadowRoot!.querySelector<HTMLElement>('[part=base]')!;
const part = (el: PaykitReturn, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part=${name}]`);
/** Visible text, with the narrow and non-breaking spaces of Intl's formats as plain spaces. */
const shown = (element: HTMLElement | null) => element?.textContent?.replace(/\s/g, ' ');

describe('<paykit-return>', () => {
  afterEach(() => history.replaceState(null, '', location.pathname));

  it('shows a completed payment once the backend confirms it', async () => {
    const id = await newPayment();
    await settle(id, 'succeeded');
    returnTo(`reference=${id}&status=completed`);
    const el = document.createElement('paykit-return');
    el.setAttribute('endpoint', '/paykit');
    const completed = next<PaykitPaymentCompletedEvent>(document, 'paykit-payment-completed');
    document.body.append(el);
    expect((await completed).detail).to.deep.equal({
      id,
      status: 'completed',
      amount: '30.00',
      currency: 'SGD',
      purpose: 'Element test',
    });
    await el.updateComplete;
    expect(box(el).getAttribute('role')).to.equal('status');
    expect(box(el).textContent).to.match(/Payment received/);
    expect(shown(part(el, 'amount'))).to.equal('SGD 30.00');
    // The handler answers the purpose its hook set; the element shows it.
    expect(shown(part(el, 'purpose'))).to.equal('Element test');
    expect(part(el, 'retry')).to.equal(null);
    await expect(el).to.be.accessible();
    el.remove();
  });

  it("shows the amount in the page's language, and the purpose and reference a backend sends", async () => {
    const id = await newPayment();
    await settle(id, 'succeeded');
    returnTo(`reference=${id}`);
    // Listening before the element is in the page: the answer can come before a fixture's next frame (WebKit).
    const wrapper = document.createElement('div');
    wrapper.lang = 'fr';
    const el = wrapper.appendChild(document.createElement('paykit-return'));
    el.setAttribute('endpoint', '/detailed');
    const completed = next<PaykitPaymentCompletedEvent>(el, 'paykit-payment-completed');
    document.body.append(wrapper);
    expect((await completed).detail).to.include({ purpose: 'Element test', reference: 'order-1042' });
    await el.updateComplete;
    expect(shown(part(el, 'message'))).to.equal('Paiement reçu. Merci !');
    expect(shown(part(el, 'amount'))).to.equal('30,00 $SG');
    expect(shown(part(el, 'purpose'))).to.equal('Element test');
    expect(part(el, 'purpose')!.hidden).to.equal(false);
    expect(shown(part(el, 'reference'))).to.equal('Référence : order-1042');
    wrapper.remove();
  });

  it('takes the words of a slot named after the state', async () => {
    const id = await newPayment();
    await settle(id, 'succeeded');
    returnTo(`reference=${id}`);
    const el = await fixture<PaykitReturn>(
      html`<paykit-return endpoint="/paykit"><span slot="completed">Your mug is on its way.</span></paykit-return>`,
    );
    await next(el, 'paykit-payment-completed');
    await el.updateComplete;
    const slot = el.shadowRoot!.querySelector<HTMLSlotElement>('slot[name=completed]')!;
    expect(slot.assignedNodes()[0]!.textContent).to.equal('Your mug is on its way.');
  });

  it('waits, without a request, until a framework sets its endpoint after upgrading it', async () => {
    const id = await newPayment();
    await settle(id, 'succeeded');
    returnTo(`reference=${id}`);
    const el = document.createElement('paykit-return');
    const failed = next<PaykitErrorEvent>(el, 'paykit-error');
    document.body.append(el);
    await el.updateComplete;
    expect(box(el).textContent).to.match(/Confirming/);
    const completed = next<PaykitPaymentCompletedEvent>(el, 'paykit-payment-completed');
    el.endpoint = '/paykit';
    expect((await Promise.race([completed, failed])).type).to.equal('paykit-payment-completed');
    el.remove();
  });

  it('shows a failed payment as failed, though the URL says completed', async () => {
    const id = await newPayment();
    await settle(id, 'failed');
    returnTo(`reference=${id}&status=completed`);
    const failed = next<PaykitPaymentFailedEvent>(document, 'paykit-payment-failed');
    const el = await returnElement();
    expect((await failed).detail.status).to.equal('failed');
    await el.updateComplete;
    expect(box(el).dataset.state).to.equal('failed');
    expect(box(el).textContent).to.match(/failed/i);
    // "Try again" leads back to the shop's page.
    expect(part(el, 'retry')!.getAttribute('href')).to.equal('/shop/mug');
    expect(part(el, 'retry')!.textContent).to.equal('Try again');
  });

  it('shows a payment link whose time ran out as not completed, at once, with paykit-payment-failed', async () => {
    const id = await newPayment();
    await expire(id);
    returnTo(`reference=${id}&status=completed`);
    const failed = next<PaykitPaymentFailedEvent>(document, 'paykit-payment-failed');
    const el = await returnElement();
    expect((await failed).detail.status).to.equal('expired');
    await el.updateComplete;
    expect(box(el).dataset.state).to.equal('canceled');
    expect(box(el).textContent).to.contain('The payment was not completed.');
  });

  it('says calmly it is still confirming while the payment is pending, then offers "Check again", which checks again', async () => {
    const id = await newPayment();
    returnTo(`reference=${id}&status=completed`);
    const status = await handleReturn({ endpoint: '/paykit', pollIntervalMs: 100, maxWaitMs: 400 });
    expect(status.status).to.equal('pending');
    const el = await returnElement(300);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(box(el).dataset.state).to.equal('pending');
    expect(shown(part(el, 'message'))).to.equal("We're still confirming your payment. Please don't pay again.");
    expect(shown(part(el, 'amount'))).to.equal('SGD 30.00');
    expect(box(el).textContent).to.not.match(/received/);
    // Paid meanwhile: "Check again" asks the backend once more.
    await settle(id, 'succeeded');
    const completed = next<PaykitPaymentCompletedEvent>(el, 'paykit-payment-completed');
    part(el, 'check')!.click();
    expect((await completed).detail.status).to.equal('completed');
    await el.updateComplete;
    expect(part(el, 'check')).to.equal(null);
    expect(box(el).dataset.state).to.equal('completed');
  });

  it('says "not completed" and offers "Try again" when the shopper left the checkout and the payment is still pending', async () => {
    const id = await newPayment();
    returnTo(`reference=${id}&status=canceled`);
    const started = Date.now();
    const el = await returnElement(60_000);
    await waitFor(() => box(el).dataset.state === 'canceled', 'not shown as not completed', { timeout: 3_000 });
    // One check, not a minute of polling.
    expect(Date.now() - started).to.be.below(3_000);
    expect(shown(part(el, 'message'))).to.equal('The payment was not completed.');
    expect(part(el, 'retry')!.getAttribute('href')).to.equal('/shop/mug');
  });

  it('believes the backend, not the URL: a "canceled" return of a paid payment shows it paid', async () => {
    const id = await newPayment();
    await settle(id, 'succeeded');
    returnTo(`reference=${id}&status=canceled`);
    const completed = next<PaykitPaymentCompletedEvent>(document, 'paykit-payment-completed');
    const el = await returnElement();
    await completed;
    await el.updateComplete;
    expect(box(el).dataset.state).to.equal('completed');
  });

  it('refuses an unknown, a missing and a repeated reference', async () => {
    returnTo('reference=00000000-0000-4000-8000-00000000f00d&status=completed');
    const unknown = next<PaykitErrorEvent>(document, 'paykit-error');
    await returnElement();
    expect((await unknown).detail.code).to.equal('not_found');

    returnTo('status=completed');
    const missing = next<PaykitErrorEvent>(document, 'paykit-error');
    await returnElement();
    expect((await missing).detail.code).to.equal('validation_failed');

    returnTo('reference=a&reference=b');
    const repeated = next<PaykitErrorEvent>(document, 'paykit-error');
    const el = await returnElement();
    expect((await repeated).detail.code).to.equal('duplicate_parameter');
    await el.updateComplete;
    expect(box(el).dataset.state).to.equal('error');
  });
});

describe('"Try again" without retry-url', () => {
  afterEach(() => {
    history.replaceState(null, '', location.pathname);
    sessionStorage.clear();
  });

  /** A payment started from `page` (a page of this shop, in this tab) that then fails; resolves with its return element. */
  async function failedFrom(page: string, retryUrl?: string): Promise<PaykitReturn> {
    history.replaceState(null, '', page);
    const id = await newPayment();
    await settle(id, 'failed');
    returnTo(`reference=${id}&status=failed`);
    const el = await fixture<PaykitReturn>(
      retryUrl
        ? html`<paykit-return endpoint="/paykit" retry-url=${retryUrl}></paykit-return>`
        : html`<paykit-return endpoint="/paykit"></paykit-return>`,
    );
    await waitFor(() => box(el).dataset.state === 'failed', 'the payment did not show as failed');
    return el;
  }

  it('goes back to the page of this shop that started the checkout in this tab', async () => {
    const el = await failedFrom(`${location.pathname}?product=sku-tee`);
    // The checkout sends no referrer: the page is the one the pay button (startCheckout) remembered.
    expect(part(el, 'retry')!.getAttribute('href')).to.equal(`${location.origin}${location.pathname}?product=sku-tee`);
    expect(part(el, 'retry')!.textContent).to.equal('Try again');
  });

  it('retry-url still wins', async () => {
    const el = await failedFrom(`${location.pathname}?product=sku-tee`, '/shop/tee');
    expect(part(el, 'retry')!.getAttribute('href')).to.equal('/shop/tee');
  });

  it('never offers a page of another origin, whatever the tab kept', async () => {
    history.replaceState(null, '', location.pathname);
    const id = await newPayment();
    await settle(id, 'failed');
    sessionStorage.setItem('paykit:checkout-from', 'https://evil.example/phish');
    returnTo(`reference=${id}&status=failed`);
    const el = await fixture<PaykitReturn>(html`<paykit-return endpoint="/paykit"></paykit-return>`);
    await waitFor(() => box(el).dataset.state === 'failed', 'the payment did not show as failed');
    expect(part(el, 'retry')).to.equal(null);
  });
});
