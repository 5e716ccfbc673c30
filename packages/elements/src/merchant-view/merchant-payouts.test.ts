import { expect, fixture, html } from '@open-wc/testing';
import type { PaykitErrorEvent } from '../events.js';
import { next, waitFor } from '../../test-support/backend-client.js';
import { part, parts, shown, stateIs } from '../../test-support/merchant-view-client.js';
import '../locales/fr.js';
import type { PaykitMerchantPayouts } from './merchant-payouts.js';
import './define-merchant-payouts.js';

const payouts = (merchant: string) =>
  fixture<PaykitMerchantPayouts>(
    html`<paykit-merchant-payouts endpoint="/mv" merchant=${merchant}></paykit-merchant-payouts>`,
  );
const cells = (row: HTMLElement) => [...row.children].map((cell) => shown(cell));

describe('<paykit-merchant-payouts>', () => {
  it('lists payouts and transfers with their statuses, then the next page', async () => {
    const el = await payouts('biz_cafe');
    await stateIs(el, 'ready');
    const table = part(el, 'table') as HTMLTableElement;
    expect(shown(table.caption)).to.equal('Payouts and transfers');
    expect([...table.tHead!.querySelectorAll('th')].map((th) => [shown(th), th.getAttribute('scope')])).to.deep.equal([
      ['Date', 'col'],
      ['Type', 'col'],
      ['Amount', 'col'],
      ['Status', 'col'],
      ['Arrival or recipient', 'col'],
    ]);
    const rows = parts(el, 'row');
    expect(rows.map((row) => cells(row).slice(1))).to.deep.equal([
      ['Payout', 'SGD 420.00', 'Scheduled', 'Arrives Dec 1, 2026'],
      ['Transfer', 'SGD 35.00', 'Paid', 'To Kopi Supplies'],
      ['Payout', 'SGD 1,310.45', 'Paid', 'Arrives Nov 27, 2026'],
    ]);
    await expect(el).to.be.accessible();
    part(el, 'more')!.click();
    await waitFor(() => parts(el, 'row').length === 5, 'the second page never came');
    expect(parts(el, 'row').map((row) => row.dataset.id)).to.deep.equal(['po_3', 'tr_2', 'po_2', 'tr_1', 'po_1']);
    expect(cells(parts(el, 'row')[3]!).slice(1, 4)).to.deep.equal(['Transfer', 'SGD 12.00', 'Failed']);
    expect(part(el, 'more')).to.equal(null);
    expect(shown(part(el, 'live'))).to.equal('5 shown.');
  });

  it('says when there are none', async () => {
    const el = await payouts('biz_empty');
    await stateIs(el, 'empty');
    expect(shown(part(el, 'empty'))).to.equal('No payouts or transfers yet.');
    await expect(el).to.be.accessible();
  });

  it('a refused caller reads what to ask for, and paykit-error says view_refused', async () => {
    const failed = next<PaykitErrorEvent>(document, 'paykit-error');
    const el = await payouts('biz_refused');
    expect((await failed).detail.code).to.equal('view_refused');
    await stateIs(el, 'error');
    expect(shown(part(el, 'error'))).to.match(/^You don't have access to this merchant's account/);
    await expect(el).to.be.accessible();
  });

  it('speaks French, with French amounts and dates', async () => {
    const wrapper = await fixture(
      html`<div lang="fr"><paykit-merchant-payouts endpoint="/mv" merchant="biz_cafe"></paykit-merchant-payouts></div>`,
    );
    const el = wrapper.firstElementChild as PaykitMerchantPayouts;
    await stateIs(el, 'ready');
    expect(cells(parts(el, 'row')[0]!).slice(1)).to.deep.equal([
      'Virement',
      '420,00 $SG',
      'Programmé',
      'Arrivée le 1 déc. 2026',
    ]);
    expect(shown(part(el, 'more'))).to.equal('Afficher plus');
  });

  it('right to left, and dark with the tokens', async () => {
    const wrapper = await fixture(
      html`<div dir="rtl" style="background:#111827;color:#f9fafb;--paykit-accent:#93b4fd;--paykit-view-border:#4b5563">
        <paykit-merchant-payouts endpoint="/mv" merchant="biz_cafe"></paykit-merchant-payouts>
      </div>`,
    );
    const el = wrapper.querySelector('paykit-merchant-payouts')!;
    await stateIs(el, 'ready');
    const [date, type] = [...parts(el, 'row')[0]!.children].map((cell) => cell.getBoundingClientRect());
    expect(date!.left).to.be.greaterThan(type!.left);
    expect(getComputedStyle(part(el, 'base')!).borderTopColor).to.equal('rgb(75, 85, 99)');
    await expect(wrapper).to.be.accessible();
  });
});
