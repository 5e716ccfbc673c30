/**
 * A payment's refund, confirmed before it is asked (a lazy chunk of `<paykit-merchant-payments>`, typed on its
 * {@link RefundHost}, never on the element's class): an inline region with the amount (the whole of what is left to
 * refund, or less), "Refund S$12.50" and "Cancel". One confirmed click is one request: a further click while it runs
 * does nothing, and the request carries an `Idempotency-Key` made for this confirmation (a random UUID). A refusal
 * (a 4xx) ends the key: the next confirmation is a new one. After no answer (the network, a timeout, a 5xx) the same
 * confirmation of the same amount sends the same key again, so the server answers the first request's outcome
 * instead of refunding twice; any change of the amount is a new key. The result shown is the server's answer (the
 * refund it made, the payment's new `refunded` and `refundable`), never computed here; a field error on `amount` (422)
 * is shown next to the field.
 */
import { PaykitError, type MerchantPaymentDetail, type MerchantRefundAnswer } from '@paykit/core/browser';
import { html, type TemplateResult } from 'lit';
import { randomUuid } from '../random.js';
import { formatMoney } from './money.js';
import type { RefundHost } from './refund-host.js';
import { fetchView } from './view-fetch.js';
import { failureWords, fill, viewText } from './view-messages.js';

/** The confirmation of one payment's refund, rendered inside its detail by the host. */
export class RefundConfirm {
  declare private _host: RefundHost;
  declare private _payment: MerchantPaymentDetail;
  /** The amount as typed (the API's decimal string). */
  declare private _amount: string;
  /** This confirmation's `Idempotency-Key`, made at its first click; kept for a retry of the same amount. */
  declare private _key: string | undefined;
  declare private _busy: boolean;
  declare private _fieldError: string | undefined;
  declare private _error: string | undefined;

  constructor(host: RefundHost, payment: MerchantPaymentDetail) {
    this._host = host;
    this._payment = payment;
    this._amount = payment.refundable;
    this._busy = false;
  }

  /** Focuses the amount (once rendered): the confirmation has just opened, or its amount was refused. */
  async focus(): Promise<void> {
    await this._host.updateComplete;
    this._host.shadowRoot?.querySelector<HTMLInputElement>('#refund-amount')?.focus();
  }

  render(lang: string): TemplateResult {
    const words = viewText(this._host);
    const { currency, refundable } = this._payment;
    const typed = this._amount.trim();
    const amount = typed && Number.isFinite(+typed) ? formatMoney({ amount: typed, currency }, lang) : typed;
    // prettier-ignore
    return html`<div part="refund" role="group" aria-labelledby="refund-title">
      <p id="refund-title"><strong>${words.refundQuestion}</strong></p>
      <p><label for="refund-amount">${fill(words.refundAmount, currency)}</label></p>
      <p><input id="refund-amount" part="amount-input" inputmode="decimal" autocomplete="off" .value=${this._amount}
        aria-invalid=${this._fieldError ? 'true' : 'false'} aria-describedby="refund-hint refund-field-error"
        @input=${(event: Event) => this._input((event.target as HTMLInputElement).value)}></p>
      <p id="refund-hint" part="hint">${fill(words.refundUpTo, formatMoney({ amount: refundable, currency }, lang))}</p>
      <p id="refund-field-error" part="field-error" ?hidden=${!this._fieldError}>${this._fieldError}</p>
      <p part="error" role="alert" ?hidden=${!this._error}>${this._error}</p>
      <p><button data-primary part="refund-confirm" aria-disabled=${this._busy} @click=${() => void this._confirm()}>${fill(words.refundConfirm, amount)}</button>
      <button part="refund-cancel" @click=${() => this._host.closeRefund()}>${words.refundCancel}</button></p>
    </div>`;
  }

  private _input(value: string): void {
    if (value.trim() !== this._amount.trim()) this._key = undefined;
    this._amount = value;
    this._fieldError = undefined;
    this._host.requestUpdate();
  }

  private async _confirm(): Promise<void> {
    if (this._busy) return;
    this._busy = true;
    this._fieldError = this._error = undefined;
    this._host.requestUpdate();
    const key = (this._key ??= randomUuid());
    try {
      const answer = await fetchView<MerchantRefundAnswer>({
        endpoint: this._host.endpoint,
        merchant: this._host.merchant,
        view: 'refunds',
        body: { charge: this._payment.id, amount: this._amount.trim() },
        idempotencyKey: key,
        timeoutMs: 30_000,
      });
      this._host.refunded(answer);
    } catch (error) {
      this._busy = false;
      const refused = error instanceof PaykitError && error.status !== undefined && error.status < 500;
      if (refused) this._key = undefined;
      const field = refused ? error.errors?.find((one) => one.path === 'amount') : undefined;
      const words = viewText(this._host);
      // The server's words for the field (its bounds); the staff's words for anything else.
      const message =
        field?.message ?? (refused && error.code === 'validation_failed' ? error.message : failureWords(words, error));
      if (field) this._fieldError = message;
      else this._error = message;
      this._host.requestUpdate();
      this._host.refundFailed(error, { code: error instanceof PaykitError ? error.code : 'internal_error', message });
      if (field) void this.focus();
    }
  }
}
