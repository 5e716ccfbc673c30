import type { PaykitError } from '@paykit/core/browser';
import { html, LitElement } from 'lit';
import { handleConnectReturn, isConnectReturn } from '../connect/handle-connect-return.js';
import {
  PaykitConnectDeniedEvent,
  PaykitConnectedEvent,
  PaykitErrorEvent,
  PaykitPaymentCompletedEvent,
  PaykitPaymentFailedEvent,
} from '../events.js';
import { describeFailure } from '../http.js';
import { text } from '../messages.js';
import { FINAL_STATUSES, handleReturn } from './handle-return.js';
import { returnStatusStyles } from './return-status.styles.js';

/** What a payment's confirmed status shows. */
type Outcome = 'completed' | 'failed' | 'canceled' | 'pending';
type State = Outcome | 'checking' | 'connected' | 'error';

/**
 * The result of a payment, on the merchant's return page. Reads `reference` from the page URL, asks the
 * backend (`endpoint`) for the confirmed status, and shows it. The `status` in the URL is never believed.
 * On a platform's OAuth callback (`code`/`error` and `state`), it checks the state this tab issued, sends
 * the code with its PKCE verifier to the backend, and shows the connected business.
 *
 * @tag paykit-return
 * @fires paykit-payment-completed - The backend confirms the payment. `detail`: `{ id, status, amount, currency }`.
 * @fires paykit-payment-failed - The backend confirms it failed or was canceled.
 * @fires paykit-connected - The platform's backend connected the merchant. `detail`: `{ business }`.
 * @fires paykit-connect-denied - The merchant declined on the consent page. `detail`: `{ description }`.
 * @fires paykit-error - The status could not be confirmed, or the connection was refused or cancelled. `detail`: `{ code, message }`.
 * @csspart base - The status box; its `data-state` is `checking`, `completed`, `failed`, `canceled`, `pending`, `connected` or `error`.
 * @cssprop --paykit-success-color - Border of a completed payment.
 * @cssprop --paykit-error-color - Border of a failed payment or an error.
 */
export class PaykitReturn extends LitElement {
  static override styles = returnStatusStyles;
  static override properties = {
    endpoint: {},
    maxWaitMs: { attribute: 'max-wait-ms', type: Number },
    _state: { state: true },
    _text: { state: true },
  };

  /** Where the backend's paykit handler is mounted, such as `/paykit`. */
  declare endpoint: string;
  /** How long to keep checking a payment that is still processing. Default 30 000. */
  declare maxWaitMs?: number;
  declare private _state: State;
  declare private _text: string;

  #abort: AbortController | undefined;

  constructor() {
    super();
    this.endpoint = '';
    this._state = 'checking';
    this._text = text(this).checking;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.#start();
  }

  /** After any update: the endpoint may have arrived (#start does nothing while a check runs or ran). */
  override updated(): void {
    this.#start();
  }

  /**
   * Starts once connected with an endpoint. A page rendered on the server (Next.js and the like) upgrades the
   * element before the framework hydrates and sets `endpoint`, so an empty one means: wait for it.
   */
  #start(): void {
    if (!this.endpoint || !this.isConnected || this.#abort?.signal.aborted === false) return;
    this.#abort = new AbortController();
    void this.#confirm(this.#abort.signal);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abort?.abort();
  }

  override render() {
    // role=status is a polite live region by itself (WAI-ARIA 1.2): no aria-live needed.
    return html`<div part="base" role="status" data-state=${this._state}>${this._text}</div>`;
  }

  /** Shows the outcome and tells the page. */
  #show(state: State, message: string, event?: Event): void {
    this._state = state;
    this._text = message;
    if (event) this.dispatchEvent(event);
  }

  async #confirm(signal: AbortSignal): Promise<void> {
    this._text = text(this).checking;
    await this.updateComplete;
    try {
      if (isConnectReturn(location.href)) {
        this._text = text(this).connecting;
        const business = await handleConnectReturn({ endpoint: this.endpoint });
        this.#show('connected', `${text(this).connected}${business.name}.`, new PaykitConnectedEvent({ business }));
        return;
      }
      const status = await handleReturn({
        endpoint: this.endpoint,
        signal,
        maxWaitMs: this.maxWaitMs,
      });
      // A final status is shown as it is (`failed` in its own words); any other is still processing.
      const state = (FINAL_STATUSES.has(status.status) ? status.status : 'pending') as Outcome;
      this.#show(
        state,
        text(this)[state === 'failed' ? 'failedPayment' : state],
        state === 'completed'
          ? new PaykitPaymentCompletedEvent(status)
          : state === 'pending'
            ? undefined
            : new PaykitPaymentFailedEvent(status),
      );
    } catch (error) {
      if (signal.aborted) return;
      const failure = describeFailure(error);
      if (failure.code === 'access_denied')
        this.#show(
          'canceled',
          failure.message,
          // handleConnectReturn keeps the server's description of a denial as the error's cause.
          new PaykitConnectDeniedEvent({ description: (error as PaykitError).cause as string | undefined }),
        );
      else this.#show('error', failure.message, new PaykitErrorEvent(failure));
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'paykit-return': PaykitReturn;
  }
}
