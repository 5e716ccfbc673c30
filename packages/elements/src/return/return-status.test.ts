import { expect, fixture, html } from '@open-wc/testing';
import { startCheckout } from '../checkout/start-checkout.js';
import type { PaykitErrorEvent, PaykitPaymentCompletedEvent, PaykitPaymentFailedEvent } from '../events.js';
import { backendState, next, settle } from '../test-config.js';
import { handleReturn } from './handle-return.js';
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

async function returnElement(maxWaitMs = 2_000): Promise<PaykitReturn> {
  return fixture<PaykitReturn>(html`<paykit-return endpoint="/paykit" max-wait-ms=${maxWaitMs}></paykit-return>`);
}
const box = (el: PaykitReturn) => el.shadowRoot!.querySelector<HTMLElement>('[part=base]')!;

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
    expect((await completed).detail).to.deep.equal({ id, status: 'completed', amount: '30.00', currency: 'SGD' });
    await el.updateComplete;
    expect(box(el).getAttribute('role')).to.equal('status');
    expect(box(el).textContent).to.match(/Payment received/);
    await expect(el).to.be.accessible();
    el.remove();
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
  });

  it('says still processing, never paid, when the payment stays pending', async () => {
    const id = await newPayment();
    returnTo(`reference=${id}&status=completed`);
    const status = await handleReturn({ endpoint: '/paykit', pollIntervalMs: 100, maxWaitMs: 400 });
    expect(status.status).to.equal('pending');
    const el = await returnElement(300);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(box(el).dataset.state).to.equal('pending');
    expect(box(el).textContent).to.match(/still processing/);
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
