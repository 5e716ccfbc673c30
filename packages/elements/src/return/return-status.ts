/** `<paykit-return>`: a payment's confirmed result on the shop's return page, and a platform's connect result. */
import { html, LitElement, nothing } from 'lit';
import { dev } from '#dev';
import { startedFrom } from '../checkout/started-from.js';
import { PaykitErrorEvent } from '../events.js';
import { describeFailure } from '../http.js';
import { langOf, text, type Messages } from '../messages.js';
import type { PaymentStatus } from '../types.js';
import { formatAmount } from './format-amount.js';
import { loadConfirmReturn } from './lazy-confirm-return.js';
import type { ReturnHost, ReturnState } from './return-host.js';
import { returnStatusStyles } from './return-status.styles.js';

/**
 * The result of a payment, on the merchant's return page. Reads `reference` from the page URL, asks the
 * backend (`endpoint`) for the confirmed status, and shows it with the confirmed amount (in the page's
 * language), purpose and reference. The `status` in the URL is never believed: only `status=canceled` (the
 * shopper left the checkout) turns a still-pending payment into "not completed" at once.
 * While the payment is pending or the backend cannot be reached, it says calmly that it is still confirming
 * and keeps checking (1, 2, 4 … 30 s apart, for `max-wait-ms`), then offers "Check again"; an outage is never
 * shown as an error. A failed or canceled payment offers "Try again", a link to `retry-url`, else to the page of
 * this shop that started the checkout in this tab (the pay button keeps it), else to the page the shopper came from.
 * On a platform's OAuth callback (`code`/`error` and `state`), it checks the state this tab issued, sends
 * the code with its PKCE verifier to the backend, and shows the connected business.
 *
 * @tag paykit-return
 * @slot completed - Your own words for a completed payment, instead of "Payment received. Thank you!"; likewise `failed`, `canceled`, `pending`, `checking`, `connected`, `error`.
 * @fires paykit-payment-completed - The backend confirms the payment. `detail`: `{ id, status, amount, currency, purpose?, reference? }`.
 * @fires paykit-payment-failed - The backend confirms it failed or was canceled.
 * @fires paykit-connected - The platform's backend connected the merchant. `detail`: `{ business }`.
 * @fires paykit-connect-denied - The merchant declined on the consent page. `detail`: `{ description }`.
 * @fires paykit-error - The status cannot be confirmed (an unknown or missing reference, a refusal), or the connection was refused or cancelled. Not for an outage. `detail`: `{ code, message }`.
 * @csspart base - The status box; its `data-state` is `checking`, `completed`, `failed`, `canceled`, `pending`, `connected` or `error`.
 * @csspart message - The sentence saying the outcome.
 * @csspart amount - The confirmed amount and currency, formatted for the page's language.
 * @csspart purpose - What was paid for, when the backend sends it.
 * @csspart reference - The merchant's reference, when the backend sends it.
 * @csspart retry - The "Try again" link (a failed, canceled or not completed payment): to `retry-url`, else the page of this origin that started the checkout.
 * @csspart check - The "Check again" button, once the automatic checks have stopped.
 * @csspart connect - The "Connect again" button, on a callback whose attempt this tab cannot find (`state_unknown`: another tab or browser) or that expired, when this browser knows the origin's latest connect request.
 * @cssprop --paykit-success-color - Border of a completed payment.
 * @cssprop --paykit-error-color - Border of a failed payment or an error.
 */
export class PaykitReturn extends LitElement implements ReturnHost {
  // Static getters and TypeScript-private members, not class fields or #private ones: Safari 15.4 needs those
  // lowered (see eslint.config.js).
  static override get styles() {
    return returnStatusStyles;
  }
  static override get properties() {
    return {
      endpoint: {},
      maxWaitMs: { attribute: 'max-wait-ms', type: Number },
      retryUrl: { attribute: 'retry-url' },
      _state: { state: true },
      _text: { state: true },
      _payment: { state: true },
      _stalled: { state: true },
    };
  }

  /** Where the backend's paykit handler is mounted, such as `/paykit`. */
  declare endpoint: string;
  /** How long to keep checking a payment that is still processing, or a backend that is down. Default 180 000 (3 minutes). */
  declare maxWaitMs?: number;
  /**
   * The shop's page to try again from. Default: the page that started the checkout in this tab (the pay button
   * keeps it), else the page the shopper came from; either only when it is on this origin.
   */
  declare retryUrl?: string;
  declare private _state: ReturnState;
  declare private _text: string;
  declare private _payment: PaymentStatus | undefined;
  /** The automatic checks have stopped without a final status: "Check again" is offered. */
  declare private _stalled: boolean;

  declare private _abort: AbortController | undefined;
  /**
   * "Connect again", on a callback whose attempt is not found or expired: starts the origin's latest authorization
   * request again. Not a reactive property: it is set just before the state, which renders.
   */
  declare private _again: (() => Promise<void>) | undefined;

  constructor() {
    super();
    this.endpoint = '';
    this._state = this._text = 'checking';
    this._stalled = false;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    dev?.returnPage(this);
    this._start();
  }

  /** After any update: the endpoint may have arrived (_start does nothing while a check runs or ran). */
  override updated(): void {
    this._start();
  }

  /**
   * Starts once connected with an endpoint. A page rendered on the server (Next.js and the like) upgrades the
   * element before the framework hydrates and sets `endpoint`, so an empty one means: wait for it.
   */
  private _start(): void {
    if (!this.endpoint || !this.isConnected || this._abort?.signal.aborted === false) return;
    const { signal } = (this._abort = new AbortController());
    // The check's code (a lazy chunk) is fetched now; one that cannot load is said as any failure is.
    loadConfirmReturn().then(
      (check) => check.confirmReturn(this, signal),
      (error: unknown) => {
        dev?.failure(this, error);
        const failure = describeFailure(error);
        this.show('error', failure.message, new PaykitErrorEvent(failure));
      },
    );
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this._abort?.abort();
  }

  override render() {
    // A message is a key of the table, or the words themselves (the backend's, a business's name).
    const words: Messages & Readonly<Record<string, string | undefined>> = text(this);
    const payment = this._payment;
    const state = this._state;
    // "Try again" goes back to the shop: `retry-url`, else the page that started the checkout in this tab, else the
    // page the shopper came from; either only when it is this shop's (this origin).
    const retry = /^(failed|canceled)$/.test(state) && (this.retryUrl || [startedFrom(), document.referrer].find(ours));
    // role=status is a polite live region by itself (WAI-ARIA 1.2): no aria-live needed. `hidden` rather than
    // nested templates, and one line (Prettier's breaks would be text nodes): this ships to every shopper.
    // prettier-ignore
    return html`<div part="base" role="status" data-state=${state}><div part="message"><slot name=${state}>${words[this._text] ?? this._text}</slot></div>${
      payment ? html`<div part="amount">${formatAmount(payment, langOf(this))}</div><div part="purpose" ?hidden=${!payment.purpose}>${payment.purpose}</div><div part="reference" ?hidden=${!payment.reference}>${words.reference}${payment.reference}</div>` : nothing
    }${retry ? html`<a part="retry" href=${retry}>${words.tryAgain}</a>` : nothing}${
      this._stalled ? html`<button part="check" @click=${this._checkAgain}>${words.checkAgain}</button>` : nothing
    }${this._again ? html`<button part="connect" @click=${this._again}>${words.connectAgain}</button>` : nothing}</div>`;
  }

  /** "Check again" (Lit calls it with the element as `this`). */
  private _checkAgain(): void {
    this._abort = undefined;
    this._start();
  }

  /**
   * Shows the outcome and tells the page (the check's chunk calls it: see {@link ReturnHost}).
   *
   * @internal
   */
  show(state: ReturnState, message: keyof Messages | string, event?: Event): void {
    this._state = state;
    this._text = message;
    if (event) this.dispatchEvent(event);
  }

  /**
   * Shows the confirmed payment under the message.
   *
   * @internal
   */
  showPayment(payment: PaymentStatus): void {
    this._payment = payment;
  }

  /**
   * Offers "Check again" (`true`), or no longer.
   *
   * @internal
   */
  stall(stalled: boolean): void {
    this._stalled = stalled;
  }

  /**
   * Offers "Connect again", or no longer.
   *
   * @internal
   */
  offerConnectAgain(again: (() => Promise<void>) | undefined): void {
    this._again = again;
  }
}

/** True for a page of this origin: "Try again" never leads to another site. */
const ours = (url: string | undefined) => !!url?.startsWith(`${location.origin}/`);

declare global {
  interface HTMLElementTagNameMap {
    'paykit-return': PaykitReturn;
  }
}
