import { isPaykitError } from '@paykit/core/browser';
import { html, LitElement, type PropertyValues } from 'lit';
import { handleConnectReturn, isConnectReturn } from '../connect/handle-connect-return.js';
import {
  PaykitConnectDeniedEvent,
  PaykitConnectedEvent,
  PaykitErrorEvent,
  PaykitPaymentCompletedEvent,
  PaykitPaymentFailedEvent,
} from '../events.js';
import { describeFailure } from '../http.js';
import { text, type Messages } from '../messages.js';
import { handleReturn } from './handle-return.js';
import { returnStatusStyles } from './return-status.styles.js';

type State = 'checking' | 'completed' | 'failed' | 'canceled' | 'pending' | 'connected' | 'error';

/** What each confirmed status says; any other status is still processing. */
const RESULTS: Record<string, { state: State; key: keyof Messages } | undefined> = {
  completed: { state: 'completed', key: 'completed' },
  failed: { state: 'failed', key: 'failedPayment' },
  canceled: { state: 'canceled', key: 'canceled' },
};

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

  override updated(changed: PropertyValues<this>): void {
    if (changed.has('endpoint')) this.#start();
  }

  /**
   * Starts once connected with an endpoint. A page rendered on the server (Next.js and the like) upgrades the
   * element before the framework hydrates and sets `endpoint`, so an empty one means: wait for it.
   */
  #start(): void {
    if (!this.endpoint || !this.isConnected || (this.#abort && !this.#abort.signal.aborted)) return;
    this.#abort = new AbortController();
    void this.#confirm(this.#abort.signal);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.#abort?.abort();
  }

  override render() {
    return html`<div part="base" role="status" aria-live="polite" data-state=${this._state}>${this._text}</div>`;
  }

  async #confirm(signal: AbortSignal): Promise<void> {
    this._text = text(this).checking;
    await this.updateComplete;
    // Read before the callback handling cleans the address bar.
    const description = new URL(location.href).searchParams.get('error_description') ?? undefined;
    try {
      if (isConnectReturn(location.href)) {
        this._text = text(this).connecting;
        const business = await handleConnectReturn({ endpoint: this.endpoint });
        this._state = 'connected';
        this._text = `${text(this).connected}${business.name}.`;
        this.dispatchEvent(new PaykitConnectedEvent({ business }));
        return;
      }
      const status = await handleReturn({
        endpoint: this.endpoint,
        signal,
        ...(this.maxWaitMs === undefined ? {} : { maxWaitMs: this.maxWaitMs }),
      });
      const result = RESULTS[status.status] ?? { state: 'pending', key: 'pending' };
      this._state = result.state;
      this._text = text(this)[result.key];
      if (result.state === 'completed') this.dispatchEvent(new PaykitPaymentCompletedEvent(status));
      else if (result.state !== 'pending') this.dispatchEvent(new PaykitPaymentFailedEvent(status));
    } catch (error) {
      if (signal.aborted) return;
      if (isPaykitError(error, 'access_denied')) {
        this._state = 'canceled';
        this._text = error.message;
        this.dispatchEvent(new PaykitConnectDeniedEvent({ description }));
        return;
      }
      const failure = describeFailure(error);
      this._state = 'error';
      this._text = failure.message;
      this.dispatchEvent(new PaykitErrorEvent(failure));
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'paykit-return': PaykitReturn;
  }
}
