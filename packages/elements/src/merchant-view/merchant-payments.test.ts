import { expect, fixture, html } from '@open-wc/testing';
import type { PaykitErrorEvent } from '../events.js';
import { consoleDuring, next, waitFor } from '../../test-support/backend-client.js';
import {
  merchantViewState,
  part,
  parts,
  resetMerchantView,
  shown,
  stateIs,
} from '../../test-support/merchant-view-client.js';
import '../locales/ar.js';
import '../locales/fr.js';
import type { PaykitMerchantPayments } from './merchant-payments.js';
import './define-merchant-payments.js';
import type { PaykitRefundCompletedEvent } from './view-events.js';

const payments = async (merchant: string) => {
  const el = await fixture<PaykitMerchantPayments>(
    html`<paykit-merchant-payments endpoint="/mv" merchant=${merchant}></paykit-merchant-payments>`,
  );
  return el;
};
const rowIds = (el: Element) => parts(el, 'row').map((row) => row.dataset.id!);
const cells = (row: HTMLElement) => [...row.children].map((cell) => shown(cell));

/** Opens the detail of `id`'s row and waits for it. */
async function openDetail(el: PaykitMerchantPayments, id: string): Promise<HTMLElement> {
  const row = parts(el, 'row').find((one) => one.dataset.id === id)!;
  row.querySelector<HTMLButtonElement>('[part=details]')!.click();
  await waitFor(() => part(el, 'detail') && !/Loading/.test(shown(part(el, 'detail'))), 'the detail never loaded');
  return part(el, 'detail')!;
}

/** Opens `id`'s refund confirmation; resolves with its amount field once it has the focus. */
async function openRefund(el: PaykitMerchantPayments, id: string): Promise<HTMLInputElement> {
  await openDetail(el, id);
  part(el, 'refund-open')!.click();
  await waitFor(
    () => part(el, 'amount-input') && el.shadowRoot!.activeElement === part(el, 'amount-input'),
    'the amount never had the focus',
  );
  return part(el, 'amount-input') as HTMLInputElement;
}

function type(input: HTMLInputElement, value: string): void {
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

describe('<paykit-merchant-payments>', () => {
  beforeEach(resetMerchantView);

  it('lists the payments newest first in a table with a caption and headers, amounts in the currency', async () => {
    const el = await payments('biz_cafe');
    await stateIs(el, 'ready');
    const table = part(el, 'table') as HTMLTableElement;
    expect(shown(table.caption)).to.equal('Payments');
    expect([...table.tHead!.querySelectorAll('th')].map((th) => th.getAttribute('scope'))).to.deep.equal(
      Array(6).fill('col'),
    );
    const rows = parts(el, 'row');
    expect(rows).to.have.length(100);
    expect(rows[0]!.firstElementChild!.localName).to.equal('th');
    expect(rows[0]!.firstElementChild!.getAttribute('scope')).to.equal('row');
    expect(cells(rows[0]!).slice(1, 5)).to.deep.equal(['SGD 30.00', 'Succeeded', 'paynow online', 'Order 1000']);
    expect(cells(rows[1]!).slice(1, 3)).to.deep.equal(['SGD 12.50', 'Succeeded']);
    expect(cells(rows[3]!)[1]).to.equal('SGD 999.99');
    await expect(el).to.be.accessible();
  });

  it('"Load more" pages through all 250 payments, each shown once, and says how many are shown', async () => {
    const el = await payments('biz_cafe');
    await stateIs(el, 'ready');
    // A double click asks for the next page once.
    part(el, 'more')!.click();
    part(el, 'more')!.click();
    await waitFor(() => parts(el, 'row').length === 200, 'the second page never came');
    part(el, 'more')!.click();
    await waitFor(() => parts(el, 'row').length === 250, 'the third page never came');
    const ids = rowIds(el);
    expect(new Set(ids).size).to.equal(250);
    expect(ids[0]).to.equal('ch_0001');
    expect(ids[249]).to.equal('ch_0250');
    expect(part(el, 'more')).to.equal(null);
    expect(shown(part(el, 'live'))).to.equal('250 shown.');
  });

  it('shows amounts in the digits of their currency: yen has none', async () => {
    const el = await payments('biz_yen');
    await stateIs(el, 'ready');
    expect(parts(el, 'row').map((row) => cells(row)[1])).to.deep.equal(['¥1,250', '¥98,000']);
    // This caller may not refund here: the detail offers no refund.
    const detail = await openDetail(el, 'ch_y1');
    expect(shown(detail)).to.contain('Left to refund: ¥98,000');
    expect(part(el, 'refund-open')).to.equal(null);
  });

  it('lists the payment requests nothing charged among the charges: their status, no refund, a detail without a request', async () => {
    const el = await payments('biz_shop');
    await stateIs(el, 'ready');
    expect(rowIds(el)).to.deep.equal(['pr_s3', 'ch_s2', 'pr_s2', 'ch_s1', 'pr_s1']);
    expect(parts(el, 'row').map((row) => row.dataset.kind)).to.deep.equal([
      'payment_request',
      'charge',
      'payment_request',
      'charge',
      'payment_request',
    ]);
    expect(parts(el, 'row').map((row) => cells(row)[2])).to.deep.equal([
      'Pending',
      'Succeeded',
      'Expired',
      'Succeeded',
      'Canceled',
    ]);
    expect(cells(parts(el, 'row')[0]!).slice(1)).to.deep.equal(['SGD 25.00', 'Pending', '', 'Poetry set', 'Details']);
    const seen: string[] = [];
    const real = window.fetch;
    window.fetch = (input, init) => (
      seen.push(String(input instanceof Request ? input.url : input)),
      real(input, init)
    );
    const button = parts(el, 'row')[2]!.querySelector<HTMLButtonElement>('[part=details]')!;
    button.click();
    await el.updateComplete;
    const detail = part(el, 'detail')!;
    expect(shown(detail)).to.equal('Payment request pr_s2: nothing has been paid, so there is nothing to refund.');
    expect(button.getAttribute('aria-expanded')).to.equal('true');
    expect(part(el, 'refund-open')).to.equal(null);
    await expect(el).to.be.accessible();
    await new Promise((resolve) => setTimeout(resolve, 50));
    button.click();
    await el.updateComplete;
    expect(part(el, 'detail')).to.equal(null);
    // A charge's detail is still read from the server.
    const charge = await openDetail(el, 'ch_s2').finally(() => (window.fetch = real));
    expect(seen).to.have.length(1);
    expect(seen[0]).to.match(/\/mv\/merchants\/biz_shop\/payments\/ch_s2$/);
    expect(shown(charge)).to.contain('Left to refund: SGD 42.00');
  });

  it("says a payment request's status in French and Arabic", async () => {
    for (const [lang, words] of [
      ['fr', ['En attente', 'Expiré', 'Annulé']],
      ['ar', ['قيد الانتظار', 'منتهية الصلاحية', 'ملغاة']],
    ] as const) {
      const wrapper = await fixture(
        html`<div lang=${lang}>
          <paykit-merchant-payments endpoint="/mv" merchant="biz_shop"></paykit-merchant-payments>
        </div>`,
      );
      const el = wrapper.firstElementChild as PaykitMerchantPayments;
      await stateIs(el, 'ready');
      const requests = parts(el, 'row').filter((row) => row.dataset.kind === 'payment_request');
      expect(requests.map((row) => cells(row)[2])).to.deep.equal([...words]);
    }
  });

  it('a row opens its detail (its refunds), and closes it again', async () => {
    const el = await payments('biz_cafe');
    await stateIs(el, 'ready');
    const button = parts(el, 'row')[1]!.querySelector<HTMLButtonElement>('[part=details]')!;
    expect(button.getAttribute('aria-expanded')).to.equal('false');
    const detail = await openDetail(el, 'ch_0002');
    expect(button.getAttribute('aria-expanded')).to.equal('true');
    expect(button.getAttribute('aria-controls')).to.equal(detail.id);
    expect(shown(detail)).to.contain('Refunded: SGD 0.00');
    expect(shown(detail)).to.contain('Left to refund: SGD 12.50');
    expect(shown(detail)).to.contain('No refunds yet.');
    await expect(el).to.be.accessible();
    button.click();
    await el.updateComplete;
    expect(part(el, 'detail')).to.equal(null);
  });

  it('refunds part of a payment after the confirmation: one request with an Idempotency-Key, the result from the answer', async () => {
    const el = await payments('biz_cafe');
    await stateIs(el, 'ready');
    const input = await openRefund(el, 'ch_0001');
    // The whole of what is left is offered; the merchant refunds less.
    expect(input.value).to.equal('30.00');
    expect(shown(part(el, 'refund-confirm'))).to.equal('Refund SGD 30.00');
    await expect(el).to.be.accessible();
    type(input, '5.00');
    await el.updateComplete;
    expect(shown(part(el, 'refund-confirm'))).to.equal('Refund SGD 5.00');
    const completed = next<PaykitRefundCompletedEvent>(el, 'paykit-refund-completed');
    part(el, 'refund-confirm')!.click();
    const { detail } = await completed;
    expect(detail.refund).to.include({ amount: '5.00', currency: 'SGD' });
    expect(detail.payment).to.include({ id: 'ch_0001', refunded: '5.00', refundable: '25.00' });
    await el.updateComplete;
    const said = 'Refunded SGD 5.00. Refunded in total: SGD 5.00; left to refund: SGD 25.00.';
    expect(shown(part(el, 'result'))).to.equal(said);
    expect(shown(part(el, 'live'))).to.equal(said);
    expect(el.shadowRoot!.activeElement).to.equal(part(el, 'result'));
    expect(cells(parts(el, 'row')[0]!)[2]).to.equal('Partially refunded');
    expect(shown(part(el, 'detail'))).to.contain('Left to refund: SGD 25.00');
    const backend = await merchantViewState();
    expect(backend.posts).to.equal(1);
    expect(backend.keys[0]).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    // The rest: a new confirmation, a new key.
    const again = await (async () => {
      part(el, 'refund-open')!.click();
      await waitFor(() => part(el, 'amount-input'), 'no confirmation');
      return part(el, 'amount-input') as HTMLInputElement;
    })();
    expect(again.value).to.equal('25.00');
    const full = next<PaykitRefundCompletedEvent>(el, 'paykit-refund-completed');
    part(el, 'refund-confirm')!.click();
    expect((await full).detail.payment).to.include({ refunded: '30.00', refundable: '0.00', status: 'refunded' });
    await el.updateComplete;
    expect(part(el, 'refund-open')).to.equal(null);
    const after = await merchantViewState();
    expect(after.posts).to.equal(2);
    expect(after.keys[1]).to.not.equal(after.keys[0]);
  });

  it('a double click on the confirmation sends one request', async () => {
    const el = await payments('biz_cafe');
    await stateIs(el, 'ready');
    await openRefund(el, 'ch_0002');
    const completed = next<PaykitRefundCompletedEvent>(el, 'paykit-refund-completed');
    const confirm = part(el, 'refund-confirm')!;
    confirm.click();
    confirm.click();
    confirm.dispatchEvent(new MouseEvent('dblclick', { bubbles: true, composed: true }));
    await completed;
    // Longer than a second request would take to arrive (the backend answers in 150 ms).
    await new Promise((resolve) => setTimeout(resolve, 400));
    const backend = await merchantViewState();
    expect(backend).to.include({ posts: 1, refunds: 1 });
  });

  it("shows the server's field error next to the amount, and refunds nothing", async () => {
    const el = await payments('biz_cafe');
    await stateIs(el, 'ready');
    const input = await openRefund(el, 'ch_0003');
    type(input, '70.50');
    const failed = next<PaykitErrorEvent>(el, 'paykit-error');
    let detail: PaykitErrorEvent['detail'] | undefined;
    const lines = await consoleDuring(async () => {
      part(el, 'refund-confirm')!.click();
      detail = (await failed).detail;
    });
    expect(detail).to.deep.equal({ code: 'validation_failed', message: 'At most 7.05 SGD is left to refund.' });
    await el.updateComplete;
    const error = part(el, 'field-error')!;
    expect(shown(error)).to.equal('At most 7.05 SGD is left to refund.');
    expect(error.hidden).to.equal(false);
    expect(input.getAttribute('aria-invalid')).to.equal('true');
    expect(input.getAttribute('aria-describedby')!.split(' ')).to.include(error.id);
    await waitFor(() => el.shadowRoot!.activeElement === input, 'the amount did not get the focus back');
    expect(lines.join('\n')).to.match(/<paykit-merchant-payments>: the refund's amount was refused \(422/);
    expect(await merchantViewState()).to.include({ posts: 1, refunds: 0 });
    await expect(el).to.be.accessible();
    // Corrected, it goes through with a new key.
    type(input, '7.05');
    const completed = next<PaykitRefundCompletedEvent>(el, 'paykit-refund-completed');
    part(el, 'refund-confirm')!.click();
    expect((await completed).detail.payment.refundable).to.equal('0.00');
    const backend = await merchantViewState();
    expect(backend.keys[1]).to.not.equal(backend.keys[0]);
  });

  it('"Cancel" closes the confirmation without a request, the focus back on "Refund…"', async () => {
    const el = await payments('biz_cafe');
    await stateIs(el, 'ready');
    await openRefund(el, 'ch_0004');
    part(el, 'refund-cancel')!.click();
    await waitFor(() => el.shadowRoot!.activeElement === part(el, 'refund-open'), 'the focus did not come back');
    expect(part(el, 'refund')).to.equal(null);
    expect((await merchantViewState()).posts).to.equal(0);
  });

  it('says when there are no payments', async () => {
    const el = await payments('biz_empty');
    await stateIs(el, 'empty');
    expect(shown(part(el, 'empty'))).to.equal('No payments yet.');
    expect(part(el, 'table')).to.equal(null);
    await expect(el).to.be.accessible();
  });

  it('an outage says what the platform should check, fires paykit-error, and "Try again" asks again', async () => {
    const failed = next<PaykitErrorEvent>(document, 'paykit-error');
    const el = await payments('biz_down');
    expect((await failed).detail.code).to.equal('api_unreachable');
    await stateIs(el, 'error');
    expect(shown(part(el, 'error'))).to.match(/^The payment service couldn't be reached\..*Try again$/);
    el.merchant = 'biz_cafe';
    await stateIs(el, 'ready');
  });

  it('a merchant whose connection expired says to connect again', async () => {
    const el = await payments('biz_expired');
    await stateIs(el, 'error');
    expect(shown(part(el, 'error'))).to.match(/^This merchant isn't connected, or the connection has expired/);
  });

  it('right to left in Arabic: the first column on the right', async () => {
    const wrapper = await fixture(
      html`<div dir="rtl" lang="ar">
        <paykit-merchant-payments endpoint="/mv" merchant="biz_yen"></paykit-merchant-payments>
      </div>`,
    );
    const el = wrapper.firstElementChild as PaykitMerchantPayments;
    await stateIs(el, 'ready');
    const table = part(el, 'table') as HTMLTableElement;
    expect(shown(table.caption)).to.equal('المدفوعات');
    const [date, amount] = [...parts(el, 'row')[0]!.children].map((cell) => cell.getBoundingClientRect());
    expect(date!.left).to.be.greaterThan(amount!.left);
    await expect(wrapper).to.be.accessible();
  });

  it('renders dark with the theming tokens, and stays accessible', async () => {
    const wrapper = await fixture(
      html`<div
        style="background:#111827;color:#f9fafb;--paykit-accent:#93b4fd;--paykit-on-accent:#111827;--paykit-view-border:#4b5563;--paykit-view-muted:#d1d5db"
      >
        <paykit-merchant-payments endpoint="/mv" merchant="biz_cafe"></paykit-merchant-payments>
      </div>`,
    );
    const el = wrapper.firstElementChild as PaykitMerchantPayments;
    await stateIs(el, 'ready');
    await openRefund(el, 'ch_0001');
    expect(getComputedStyle(part(el, 'refund-confirm')!).backgroundColor).to.equal('rgb(147, 180, 253)');
    expect(getComputedStyle(part(el, 'details')!).color).to.equal('rgb(147, 180, 253)');
    await expect(wrapper).to.be.accessible();
  });
});
