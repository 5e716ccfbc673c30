/** `<paykit-merchant-payouts>`: a connected merchant's payouts and transfers, with their statuses. */
import type { MerchantPayoutRow } from '@paykit/core/browser';
import { html } from 'lit';
import { formatDate, formatMoney } from './money.js';
import { PagedView } from './paged-view.js';
import { fill, statusWords } from './view-messages.js';

/**
 * A connected merchant's payouts (to its bank) and transfers (to a beneficiary), newest first, in a table: date,
 * type, amount in the currency's own digits, status as the API says it, and a payout's expected arrival or a
 * transfer's recipient; 100 a page with "Load more". It only reads: what the API cannot do, it does not offer.
 *
 * @tag paykit-merchant-payouts
 * @fires paykit-error - The payouts could not be read (refused, not found, not connected, the service down). `detail`: `{ code, message }`.
 * @csspart base - The box; its `data-state` is `loading`, `ready`, `empty` or `error`.
 * @csspart table - The table (`<caption>`, a column header per column, the date as each row's header).
 * @csspart row - A payout's or transfer's row (`data-id`, `data-kind`: `payout` or `transfer`).
 * @csspart more - "Load more".
 * @csspart empty - "No payouts or transfers yet."
 * @csspart error - The error state: what the platform should check, and "Try again".
 * @cssprop --paykit-view-border - Border of the box and the table (also `--paykit-view-background`, `--paykit-view-padding`, `--paykit-view-muted`).
 */
export class PaykitMerchantPayouts extends PagedView<MerchantPayoutRow> {
  protected get view() {
    return 'payouts' as const;
  }

  override render() {
    const words = this.words;
    const lang = this.locale;
    const rows = this._rows;
    const state = this._phase === 'ready' ? (rows.length ? 'ready' : 'empty') : this._phase;
    const columns = [words.columnType, words.columnAmount, words.columnStatus, words.columnArrival];
    return html`<div part="base" data-state=${state} aria-busy=${this._phase === 'loading'}>
      ${
        this._phase === 'error' && !rows.length
          ? this.renderFailure()
          : this._phase === 'loading'
            ? html`<p>${words.viewLoading}</p>`
            : !rows.length
              ? html`<p part="empty">${words.payoutsNone}</p>`
              : html`<table part="table">
                  <caption>
                    ${words.payoutsCaption}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">${words.columnDate}</th>
                      ${columns.map((name) => html`<th scope="col">${name}</th>`)}
                    </tr>
                  </thead>
                  <tbody>
                    ${rows.map(
                      (row) =>
                        html`<tr part="row" data-id=${row.id} data-kind=${row.kind}>
                          <th scope="row">${formatDate(row.created_at, lang)}</th>
                          <td>${row.kind === 'transfer' ? words.transfer : words.payout}</td>
                          <td data-num>${formatMoney(row, lang)}</td>
                          <td>${statusWords(words, row.status)}</td>
                          <td>
                            ${
                              row.arrival_date
                                ? fill(words.arrives, formatDate(row.arrival_date, lang, true))
                                : row.beneficiary
                                  ? fill(words.recipient, row.beneficiary)
                                  : ''
                            }
                          </td>
                        </tr>`,
                    )}
                  </tbody>
                </table>`
      }
      ${this.renderMore()} ${this.renderLive()}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'paykit-merchant-payouts': PaykitMerchantPayouts;
  }
}
