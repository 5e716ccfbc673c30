/**
 * The base of the two list views (payments, payouts): the first page on load, "Load more" from the answer's `next`,
 * each row once (a row already shown is not added again, should pages overlap), and the count said in the live
 * region as pages arrive. A failed "Load more" keeps the rows and offers "Try again" under them.
 */
import type { MerchantPage } from '@paykit/core/browser';
import { html, nothing, type PropertyDeclarations } from 'lit';
import { fetchView, type MerchantViewName } from './view-fetch.js';
import { MerchantViewElement } from './view-element.js';
import { fill } from './view-messages.js';

export abstract class PagedView<Row extends { id: string }> extends MerchantViewElement {
  static override get properties(): PropertyDeclarations {
    return { _rows: { state: true }, _next: { state: true }, _more: { state: true } };
  }

  /** The rows shown, newest first. */
  declare protected _rows: Row[];
  /** The following page's cursor; `undefined` on the last page. */
  declare protected _next: string | undefined;
  /** A "Load more" is on its way (further clicks do nothing). */
  declare protected _more: boolean;

  constructor() {
    super();
    this._rows = [];
    this._more = false;
  }

  /** The route this view lists. */
  protected abstract get view(): MerchantViewName;

  protected async load(signal: AbortSignal): Promise<void> {
    this._rows = [];
    this._next = undefined;
    this.add(await this.page(undefined, signal));
  }

  /** "Load more": the page after the last one shown. */
  protected async loadMore(): Promise<void> {
    const signal = this._abort?.signal;
    if (this._more || this._next === undefined || !signal) return;
    this._more = true;
    this._failure = undefined;
    try {
      const page = await this.page(this._next, signal);
      if (!signal.aborted) this.add(page);
    } catch (error) {
      if (!signal.aborted) {
        this.fail(error);
        // The rows stay: the failure is shown under them, and "Try again" asks for the same page.
        this._phase = 'ready';
      }
    } finally {
      this._more = false;
    }
  }

  private page(cursor: string | undefined, signal: AbortSignal): Promise<MerchantPage<Row>> {
    return fetchView<MerchantPage<Row>>({
      endpoint: this.endpoint,
      merchant: this.merchant,
      view: this.view,
      cursor,
      signal,
    });
  }

  private add(page: MerchantPage<Row>): void {
    const shown = new Set(this._rows.map((row) => row.id));
    this._rows = [...this._rows, ...page.items.filter((row) => !shown.has(row.id) && shown.add(row.id))];
    this._next = page.next || undefined;
    this._said = fill(this.words.rowsShown, String(this._rows.length));
  }

  /** "Load more" while there is a next page (busy while it loads), and a failure to load it. */
  protected renderMore() {
    return html`${this._rows.length > 0 ? this.renderFailure(() => void this.loadMore()) : nothing}${
      this._next === undefined
        ? nothing
        : html`<p>
            <button part="more" aria-disabled=${this._more} @click=${() => void this.loadMore()}>
              ${this.words.loadMore}
            </button>
          </p>`
    }`;
  }
}
