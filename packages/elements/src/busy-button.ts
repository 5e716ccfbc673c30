import { html, LitElement, nothing } from 'lit';
import { PaykitErrorEvent } from './events.js';
import { describeFailure } from './http.js';
import { buttonStyles } from './button.styles.js';
import { MESSAGES_CHANGED } from './messages.js';

/**
 * What paykit's buttons share: a native button, a busy state during which further clicks are ignored (one
 * click, one action), the failure shown in the element and fired as `paykit-error`, and a reset when the page
 * comes back from the back-forward cache. Subclasses say what a click does and what the label is.
 */
export abstract class BusyButton extends LitElement {
  static override styles = buttonStyles;
  static override shadowRootOptions = { ...LitElement.shadowRootOptions, delegatesFocus: true };
  static override properties = { _busy: { state: true }, _error: { state: true } };

  declare private _busy: boolean;
  declare private _error: string | undefined;

  /** Set synchronously on click, so that a second click in the same frame is ignored too. */
  #inFlight = false;

  constructor() {
    super();
    this._busy = false;
  }

  /** The default label, when the slot is empty. */
  protected abstract readonly defaultLabel: string;

  /** Does the click's work. Resolve `true` when the page is navigating away (the button then stays busy). */
  protected abstract act(): Promise<boolean>;

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('pageshow', this.#onPageShow);
    addEventListener(MESSAGES_CHANGED, this.#relabel);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('pageshow', this.#onPageShow);
    removeEventListener(MESSAGES_CHANGED, this.#relabel);
  }

  override render() {
    return html`<button
        part="button"
        type="button"
        aria-busy=${this._busy}
        aria-disabled=${this._busy}
        @click=${this.#click}
      >
        ${this._busy ? html`<span part="spinner" aria-hidden="true"></span>` : nothing}<span part="label"
          ><slot>${this.defaultLabel}</slot></span
        >
      </button>
      ${this._error ? html`<p part="error" role="alert">${this._error}</p>` : nothing}`;
  }

  #click = async (): Promise<void> => {
    if (this.#inFlight) return;
    this.#inFlight = true;
    this._busy = true;
    this._error = undefined;
    try {
      if (await this.act()) return;
    } catch (error) {
      const failure = describeFailure(error);
      this._error = failure.message;
      this.dispatchEvent(new PaykitErrorEvent(failure));
    }
    this.#inFlight = false;
    this._busy = false;
  };

  /** The default label is read at render: render again when a locale arrives. */
  #relabel = (): void => this.requestUpdate();

  #onPageShow = (event: PageTransitionEvent): void => {
    if (!event.persisted) return;
    this.#inFlight = false;
    this._busy = false;
    this._error = undefined;
  };
}
