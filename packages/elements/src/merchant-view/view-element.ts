/**
 * The base class of the merchant views: `endpoint` and `merchant`, a load that starts when both are set (again when
 * either changes), an error state in the platform staff's words with "Try again", `paykit-error`, a live region,
 * and a re-render when a locale is registered. Subclasses say what a load fetches and what is rendered.
 */
import { PaykitError } from '@paykit/core/browser';
import { html, LitElement, nothing, type PropertyDeclarations, type PropertyValues } from 'lit';
import { dev } from '#dev';
import { PaykitErrorEvent } from '../events.js';
import { langOf, MESSAGES_CHANGED } from '../messages.js';
import { viewStyles } from './view.styles.js';
import { failureWords, viewText, type MerchantViewMessages } from './view-messages.js';

/** Where a view is: waiting for its attributes, loading, showing what it loaded, or failed. */
export type ViewPhase = 'idle' | 'loading' | 'ready' | 'error';

export abstract class MerchantViewElement extends LitElement {
  // Static getters and TypeScript-private members, not class fields: Safari 15.4 (see eslint.config.js).
  static override get styles() {
    return viewStyles;
  }
  static override get properties(): PropertyDeclarations {
    return {
      endpoint: {},
      merchant: {},
      _phase: { state: true },
      _failure: { state: true },
      _said: { state: true },
    };
  }

  /** Where the platform's paykit handler is mounted, such as `/paykit`. */
  declare endpoint: string;
  /** The connected merchant's business id. */
  declare merchant: string;
  declare protected _phase: ViewPhase;
  /** What failed: its code, and the words shown. */
  declare protected _failure: { code: string; message: string } | undefined;
  /** The live region's sentence (a page loaded, a refund made). */
  declare protected _said: string;
  /** The current load's; aborted when the view leaves the page or loads again. */
  declare protected _abort: AbortController | undefined;

  constructor() {
    super();
    this.endpoint = this.merchant = this._said = '';
    this._phase = 'idle';
  }

  /** Fetches what the view shows; rejects to show the error state. */
  protected abstract load(signal: AbortSignal): Promise<void>;

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener(MESSAGES_CHANGED, this);
    dev?.merchantView(this);
    // Moved in the page (its load was aborted as it left): load again.
    if (this.hasUpdated && this.endpoint && this.merchant) this.reload();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener(MESSAGES_CHANGED, this);
    this._abort?.abort();
    this._abort = undefined;
  }

  /** A locale registered after the view rendered: render again in it. */
  handleEvent(): void {
    this.requestUpdate();
  }

  /** Before an update: once both attributes are set, and again whenever either changes (set in this update, not another). */
  override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('endpoint') || changed.has('merchant')) && this.endpoint && this.merchant) this.reload();
  }

  /** Loads again from the first page (the attributes changed, "Try again", a connection made). */
  reload(): void {
    this._abort?.abort();
    const abort = (this._abort = new AbortController());
    this._phase = 'loading';
    this._failure = undefined;
    this.load(abort.signal).then(
      () => {
        if (this._abort === abort) this._phase = 'ready';
      },
      (error: unknown) => {
        if (this._abort === abort && !abort.signal.aborted) this.fail(error);
      },
    );
  }

  /** Shows `error` in the staff's words, fires `paykit-error`, and tells the developer why (development build). */
  protected fail(error: unknown): void {
    const message = failureWords(this.words, error);
    const code = error instanceof PaykitError ? error.code : 'internal_error';
    this._failure = { code, message };
    this._phase = 'error';
    dev?.merchantView(this, error);
    this.dispatchEvent(new PaykitErrorEvent({ code, message }));
  }

  /** The texts in this element's language. */
  protected get words(): MerchantViewMessages {
    return viewText(this);
  }

  /** This element's language (its nearest `lang`). */
  protected get locale(): string {
    return langOf(this);
  }

  /** The error state: the staff's words and "Try again" (`retry`, by default loading again from the start). */
  protected renderFailure(retry: () => void = this.reload) {
    return this._failure
      ? html`<div part="error" role="alert">
          <p>${this._failure.message}</p>
          <button @click=${retry}>${this.words.viewRetry}</button>
        </div>`
      : nothing;
  }

  /** The live region: polite, always in the page, so that a change of its text is read out. */
  protected renderLive() {
    return html`<p class="sr" role="status" part="live">${this._said}</p>`;
  }
}
