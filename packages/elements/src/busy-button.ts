/**
 * The base class of `<paykit-pay-button>` and `<paykit-connect-button>`: what a button that starts a network
 * action does the same in both (busy state, errors, an outcome shown in place), written once.
 */
import { PaykitError } from '@paykit/core/browser';
import { html, LitElement, nothing, type PropertyDeclarations } from 'lit';
import { PaykitErrorEvent } from './events.js';
import { describeFailure } from './http.js';
import { buttonStyles } from './button.styles.js';
import { MESSAGES_CHANGED } from './messages.js';
import { loadFramed } from './framed/lazy-framed.js';
import type { ButtonHost } from './button-host.js';
import { prefetch } from './prefetch.js';
import { dev } from '#dev';

/**
 * What paykit's buttons share: a native button, a busy state during which further clicks are ignored (one
 * click, one action), the failure shown in the element and fired as `paykit-error`, an outcome reached on the page
 * (a payment in the drop-in, a connection in a popup) shown in the same place, and a reset when the page comes
 * back from the back-forward cache. Subclasses say what a click does and what the label is.
 */
export abstract class BusyButton extends LitElement implements ButtonHost {
  // Static getters, not class fields: Safari 15.4 needs class fields lowered (see eslint.config.js).
  static override get styles() {
    return buttonStyles;
  }
  static override get shadowRootOptions() {
    return { ...LitElement.shadowRootOptions, delegatesFocus: true };
  }
  static override get properties(): PropertyDeclarations {
    return { _busy: { state: true }, _error: { state: true }, _done: { state: true } };
  }

  /** Set synchronously on click (a reactive property stores its value at once), so a second click in the same frame is ignored too. */
  declare private _busy: boolean;
  declare private _error: string | undefined;
  /** An outcome reached on this page (see {@link BusyButton.show}). */
  declare private _done: string | undefined;

  constructor() {
    super();
    this._busy = false;
  }

  /** The default label, when the slot is empty. */
  protected abstract readonly defaultLabel: string;

  /**
   * Does the click's work; resolves with the cancelable event announcing where the button goes (`detail.url`), or
   * with nothing when the work ended on this page (an overlay or a popup: its outcome is shown and fired already).
   * Called synchronously by the click, so that what must happen in the click (opening a popup) can.
   */
  protected abstract act(): Promise<(Event & { readonly detail: { readonly url: string } }) | undefined>;

  /**
   * Shows an outcome reached on this page below the button (`::part(status)`, `role="status"`), or with `failed`
   * one the shopper or merchant should act on, as a failure is shown (`::part(error)`, `role="alert"`). The button
   * is ready again: called as the click ends (a checkout opened in a new tab from a frame ends it so).
   *
   * @internal
   */
  show(words: string, failed?: boolean): void {
    this._busy = false;
    if (failed) this._error = words;
    else this._done = words;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener('pageshow', this);
    addEventListener(MESSAGES_CHANGED, this);
    // `top` is readable from a frame of any origin: nothing here can throw.
    if (top !== self) prefetch(loadFramed);
    dev?.framed(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener('pageshow', this);
    removeEventListener(MESSAGES_CHANGED, this);
  }

  override render() {
    // Prettier's line breaks would be whitespace shipped to every shopper and rendered as text nodes.
    // prettier-ignore
    return html`<button part="button" type="button" aria-busy=${this._busy} aria-disabled=${this._busy} @click=${this._click}>${
      this._busy ? html`<span part="spinner" aria-hidden="true"></span>` : nothing
    }<span part="label"><slot>${this.defaultLabel}</slot></span></button>${
      this._error ? html`<p part="error" role="alert">${this._error}</p>` : this._done ? html`<p part="status" role="status">${this._done}</p>` : nothing
    }`;
  }

  /** The click (Lit calls it with the element as `this`). */
  private async _click(): Promise<void> {
    if (this._busy) return;
    this._busy = true;
    this._error = this._done = undefined;
    try {
      const event = await this.act();
      // A listener may cancel the navigation (an SPA, a test); otherwise the button stays busy as the page leaves.
      // In a frame: the top window, or a new tab (framed.ts); never this frame, which the checkout refuses.
      if (event && this.dispatchEvent(event))
        return top !== self
          ? (await loadFramed()).go(this, event.detail.url, PaykitError)
          : location.assign(event.detail.url);
    } catch (error) {
      dev?.failure(this, error);
      const failure = describeFailure(error);
      this._error = failure.message;
      this.dispatchEvent(new PaykitErrorEvent(failure));
    }
    this._busy = false;
  }

  /**
   * The window's events, with the element as their listener object: a locale arrived (the default label is
   * read at render, so render again), or the page came back from the back-forward cache (the button was left
   * busy by a navigation that is now undone: ready again).
   *
   * @internal
   */
  handleEvent(event: Event): void {
    // `pageshow` is a PageTransitionEvent; the locale's event has no `persisted` (undefined: nothing to undo).
    if ((event as PageTransitionEvent).persisted) {
      this._busy = false;
      this._error = this._done = undefined;
    }
    this.requestUpdate();
  }
}
