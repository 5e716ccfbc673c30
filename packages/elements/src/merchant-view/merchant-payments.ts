/** `<paykit-merchant-payments>`: a connected merchant's payments, with their detail and an optional refund. */
import type { MerchantPaymentDetail, MerchantPaymentRow, MerchantRefundAnswer } from '@paykit/core/browser';
import { html, nothing, type PropertyDeclarations } from 'lit';
import { dev } from '#dev';
import { PaykitErrorEvent } from '../events.js';
import type { PaykitErrorDetail } from '../types.js';
import { loadRefundConfirm } from './lazy-refund-confirm.js';
import { formatDate, formatMoney } from './money.js';
import { PagedView } from './paged-view.js';
import type { RefundConfirm } from './refund-confirm.js';
import type { RefundHost } from './refund-host.js';
import { fetchView } from './view-fetch.js';
import { PaykitRefundCompletedEvent } from './view-events.js';
import { failureWords, fill, statusWords } from './view-messages.js';

/**
 * A connected merchant's payments (the charges, and the payment requests nothing charged: pending, expired or
 * canceled; newest first), in a table: date, amount in the currency's own digits,
 * status, method and description, 100 a page with "Load more". A row's "Details" opens its detail below it: what was
 * refunded (each refund) and what is left to refund, as the API reads them. When the platform's `merchantView` hook
 * lets this caller refund (`can_refund`) and something is left, "Refund…" opens a confirmation (a lazy chunk): the
 * amount, the whole or less, then one request with an `Idempotency-Key`; the result shown is the server's answer.
 * A payment request's row (`kind: 'payment_request'`) has no refund, and its "Details" says so without a request:
 * what there is to show is in the row.
 *
 * @tag paykit-merchant-payments
 * @fires paykit-refund-completed - The backend made a confirmed refund. `detail`: `{ refund, payment }`, its answer (the payment's new `refunded` and `refundable`).
 * @fires paykit-error - The payments could not be read (refused, not found, not connected, the service down), or a refund was refused or failed. `detail`: `{ code, message }`.
 * @csspart base - The box; its `data-state` is `loading`, `ready`, `empty` or `error`.
 * @csspart table - The payments' table (`<caption>`, a column header per column, the date as each row's header).
 * @csspart row - A payment's row (`data-id`: the charge's id, or the payment request's; `data-kind`: `charge` or `payment_request`).
 * @csspart details - A row's "Details" button (`aria-expanded`).
 * @csspart detail - The row under a payment with its detail.
 * @csspart refund-open - The "Refund…" button of a detail.
 * @csspart refund - The refund confirmation (a group labelled "Refund this payment?").
 * @csspart amount-input - The amount to refund.
 * @csspart field-error - The server's error for the amount, next to it.
 * @csspart refund-confirm - The confirmation's "Refund …" button.
 * @csspart refund-cancel - Its "Cancel".
 * @csspart result - The refund made, with the payment's new totals.
 * @csspart more - "Load more".
 * @csspart empty - "No payments yet."
 * @csspart error - The error state: what the platform should check, and "Try again".
 * @cssprop --paykit-view-border - Border of the box and the table (also `--paykit-view-background`, `--paykit-view-padding`, `--paykit-view-muted`).
 */
export class PaykitMerchantPayments extends PagedView<MerchantPaymentRow> implements RefundHost {
  static override get properties(): PropertyDeclarations {
    return {
      _open: { state: true },
      _detail: { state: true },
      _detailError: { state: true },
      _refund: { state: true },
      _result: { state: true },
    };
  }

  /** The charge whose detail is open. */
  declare private _open: string | undefined;
  declare private _detail: MerchantPaymentDetail | undefined;
  declare private _detailError: string | undefined;
  /** The refund confirmation, while it is open (its chunk's class). */
  declare private _refund: RefundConfirm | undefined;
  /** The last refund's result, in words, under its detail. */
  declare private _result: string | undefined;
  declare private _detailAbort: AbortController | undefined;

  protected get view() {
    return 'payments' as const;
  }

  protected override async load(signal: AbortSignal): Promise<void> {
    this._closeDetail();
    await super.load(signal);
  }

  override render() {
    const words = this.words;
    const lang = this.locale;
    const rows = this._rows;
    const state = this._phase === 'ready' ? (rows.length ? 'ready' : 'empty') : this._phase;
    const columns = [words.columnAmount, words.columnStatus, words.columnMethod, words.columnDescription];
    return html`<div part="base" data-state=${state} aria-busy=${this._phase === 'loading'}>
      ${
        this._phase === 'error' && !rows.length
          ? this.renderFailure()
          : this._phase === 'loading'
            ? html`<p>${words.viewLoading}</p>`
            : !rows.length
              ? html`<p part="empty">${words.paymentsNone}</p>`
              : html`<table part="table">
                  <caption>
                    ${words.paymentsCaption}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">${words.columnDate}</th>
                      ${columns.map((name) => html`<th scope="col">${name}</th>`)}
                      <th scope="col"><span class="sr">${words.columnDetails}</span></th>
                    </tr>
                  </thead>
                  <tbody>
                    ${rows.map((row, index) => this._row(row, index, lang))}
                  </tbody>
                </table>`
      }
      ${this.renderMore()} ${this.renderLive()}
    </div>`;
  }

  private _row(row: MerchantPaymentRow, index: number, lang: string) {
    const words = this.words;
    const open = this._open === row.id;
    return html`<tr part="row" data-id=${row.id} data-kind=${row.kind ?? 'charge'}>
        <th scope="row">${formatDate(row.created_at, lang)}</th>
        <td data-num>${formatMoney(row, lang)}</td>
        <td>${statusWords(words, row.status)}</td>
        <td>${row.method?.replace(/_/g, ' ') ?? ''}</td>
        <td>${row.description ?? ''}</td>
        <td>
          <button
            part="details"
            aria-expanded=${open}
            aria-controls=${`detail-${index}`}
            @click=${() => this._toggle(row)}
          >
            ${words.details}
          </button>
        </td>
      </tr>
      ${
        open
          ? html`<tr part="detail" id=${`detail-${index}`}>
              <td colspan="6">
                ${row.kind === 'payment_request' ? fill(words.requestNotPaid, row.id) : this._renderDetail(lang)}
              </td>
            </tr>`
          : nothing
      }`;
  }

  private _renderDetail(lang: string) {
    const words = this.words;
    const detail = this._detail;
    if (this._detailError)
      return html`<div part="error" role="alert">
        <p>${this._detailError}</p>
        <button @click=${() => void this._openDetail(this._open!)}>${words.viewRetry}</button>
      </div>`;
    if (!detail) return html`<p>${words.viewLoading}</p>`;
    const money = (amount: string) => formatMoney({ amount, currency: detail.currency }, lang);
    const refundable = detail.can_refund && +detail.refundable > 0;
    return html`<p>${words.refundedSoFar}: <strong>${money(detail.refunded)}</strong></p>
      <p>${words.refundableLeft}: <strong>${money(detail.refundable)}</strong></p>
      <p><strong>${words.refundsTitle}</strong></p>
      ${
        detail.refunds.length
          ? html`<ul part="refunds">
              ${detail.refunds.map((refund) => html`<li>${formatDate(refund.created_at, lang)}: ${money(refund.amount)}</li>`)}
            </ul>`
          : html`<p>${words.refundsNone}</p>`
      }
      ${this._result ? html`<p part="result" tabindex="-1">${this._result}</p>` : nothing}
      ${
        this._refund
          ? this._refund.render(lang)
          : refundable
            ? html`<button part="refund-open" @click=${() => void this._openRefund()}>${words.refundOpen}</button>`
            : nothing
      }`;
  }

  private _toggle({ id, kind }: MerchantPaymentRow): void {
    if (this._open === id) this._closeDetail();
    // A payment request's detail is its row: nothing to read.
    else if (kind === 'payment_request') {
      this._closeDetail();
      this._open = id;
    } else void this._openDetail(id);
  }

  private _closeDetail(): void {
    this._detailAbort?.abort();
    this._open = this._detail = this._detailError = this._refund = this._result = undefined;
  }

  private async _openDetail(id: string): Promise<void> {
    this._closeDetail();
    this._open = id;
    const abort = (this._detailAbort = new AbortController());
    try {
      const detail = await fetchView<MerchantPaymentDetail>({
        endpoint: this.endpoint,
        merchant: this.merchant,
        view: 'payments',
        id,
        signal: abort.signal,
      });
      if (!abort.signal.aborted) this._detail = detail;
    } catch (error) {
      if (abort.signal.aborted) return;
      this._detailError = failureWords(this.words, error);
      dev?.merchantView(this, error);
      this.dispatchEvent(new PaykitErrorEvent({ code: codeOf(error), message: this._detailError }));
    }
  }

  private async _openRefund(): Promise<void> {
    const detail = this._detail;
    if (!detail) return;
    this._result = undefined;
    try {
      const { RefundConfirm } = await loadRefundConfirm();
      if (this._detail !== detail) return;
      this._refund = new RefundConfirm(this, detail);
      await this._refund.focus();
    } catch (error) {
      this._detailError = failureWords(this.words, error);
      dev?.merchantView(this, error);
      this.dispatchEvent(new PaykitErrorEvent({ code: codeOf(error), message: this._detailError }));
    }
  }

  /** @internal The refund confirmation's: see {@link RefundHost}. */
  refunded(answer: MerchantRefundAnswer): void {
    const { refund, payment } = answer;
    const lang = this.locale;
    const money = (amount: string) => formatMoney({ amount, currency: payment.currency }, lang);
    this._rows = this._rows.map((row) => (row.id === payment.id ? { ...row, ...withoutRefunds(payment) } : row));
    if (this._open === payment.id) this._detail = payment;
    this._refund = undefined;
    this._said = this._result = fill(
      this.words.refundDone,
      formatMoney(refund, lang),
      money(payment.refunded),
      money(payment.refundable),
    );
    this.dispatchEvent(new PaykitRefundCompletedEvent(answer));
    // The confirmation's buttons are gone: the focus goes to the result.
    void this.updateComplete.then(() => this.shadowRoot?.querySelector<HTMLElement>('[part=result]')?.focus());
  }

  /** @internal See {@link RefundHost}. */
  refundFailed(error: unknown, detail: PaykitErrorDetail): void {
    dev?.merchantView(this, error);
    this.dispatchEvent(new PaykitErrorEvent(detail));
  }

  /** @internal See {@link RefundHost}. */
  closeRefund(): void {
    this._refund = undefined;
    void this.updateComplete.then(() => this.shadowRoot?.querySelector<HTMLElement>('[part=refund-open]')?.focus());
  }
}

const codeOf = (error: unknown) =>
  error && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
    ? error.code
    : 'internal_error';

/** A detail as a row: the refunds stay with the detail. */
function withoutRefunds({
  refunds: _refunds,
  can_refund: _canRefund,
  ...row
}: MerchantPaymentDetail): MerchantPaymentRow {
  return row;
}

declare global {
  interface HTMLElementTagNameMap {
    'paykit-merchant-payments': PaykitMerchantPayments;
  }
}
