/**
 * The headless pay flow: ask the merchant's backend for a payment request, then check where it says to go, or
 * (with `dropIn`) open it in the payment service's drop-in overlay. `<paykit-pay-button>` is built on it; SPA code
 * can call it directly.
 */
import { PaykitError, parseAllowedUrl, parseWebUrl, type PAYMENT_REQUESTS_PATH } from '@paykit/core/browser';
import { text } from '../messages.js';
import { callBackend, paymentOf } from '../http.js';
import { randomUuid } from '../random.js';
import type { CheckoutStarted, ShopperChoice } from '../types.js';
import type { CheckoutInPlace, DropInScript } from './checkout-in-place.js';

/** Options of {@link startCheckout}. */
export interface StartCheckoutOptions {
  /** Where the backend's paykit handler is mounted, such as `/paykit`. */
  endpoint: string;
  /** What the shopper chose. */
  choice: ShopperChoice;
  /**
   * Origins the checkout may be on, such as `https://checkout.example`. Required: the browser cannot know the
   * payment service's checkout host, and a compromised or misconfigured backend must not be able to send
   * shoppers elsewhere.
   */
  checkoutOrigins: readonly string[];
  /**
   * The payment request's `Idempotency-Key`. Default: one per choice (this `endpoint` and `choice`, every field
   * of it) in this tab, kept in sessionStorage until the backend has answered with a payment request, so that a
   * retry after `network_error`, `timeout` or a 5xx (even after a reload) sends the same key and gets the first
   * request's answer; a changed choice gets a new key, and so does the next click after a payment request was
   * created. Without sessionStorage, a fresh UUID per call.
   */
  idempotencyKey?: string;
  /**
   * Opens the payment request in the payment service's drop-in overlay on this page instead of returning for a
   * redirect: `true` (or `''`) for the script at `/hitpay.js` on the checkout URL's origin, or the script's URL,
   * whose origin must be one of `checkoutOrigins`. Its code is a lazy chunk, fetched on the first such call. See
   * {@link CheckoutInPlace} for what it resolves with.
   */
  dropIn?: DropInScript | undefined;
  signal?: AbortSignal;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/**
 * Creates the payment request through the backend and returns it with its checkout URL checked: `https:`
 * (or `http:` on localhost), on one of `checkoutOrigins`. Throws `PaykitError` (`unsafe_url` for any other URL).
 * Sends nothing without an `endpoint` (`validation_failed`), with an empty or unparsable `checkoutOrigins`
 * (`unsafe_url`), or with an `amount` that has more decimals than its `currency` (`validation_failed`, whose
 * `errors` name the currency: JPY has none). With `dropIn`, opens it in the drop-in overlay and resolves when the overlay is done with it
 * (see {@link CheckoutInPlace}).
 */
export async function startCheckout(options: StartCheckoutOptions & { dropIn: DropInScript }): Promise<CheckoutInPlace>;
export async function startCheckout(options: StartCheckoutOptions): Promise<CheckoutStarted>;
export async function startCheckout(options: StartCheckoutOptions): Promise<CheckoutStarted> {
  return wantsDropIn(options.dropIn)
    ? // The drop-in's code is fetched only by a page that opens it. wantsDropIn narrowed `options.dropIn`, which
      // TypeScript does not carry over to `options`.
      (await import('./drop-in.js')).checkoutInPlace(options as StartCheckoutOptions & { dropIn: DropInScript })
    : createCheckout(options);
}

/** True when a `dropIn` option or attribute asks for the drop-in: `true`, `''` (an attribute without value) or a URL. */
export function wantsDropIn(value: DropInScript | false | null | undefined): value is DropInScript {
  return value === '' || !!value;
}

/**
 * The sessionStorage key of the page that started this tab's latest checkout: `<paykit-return>` offers "Try
 * again" to it (same origin only, as sessionStorage is) when the page sets no `retry-url`.
 */
export const STARTED_FROM = 'paykit:checkout-from';

/** {@link startCheckout} without the drop-in: the payment request, for a redirect to its checkout. */
export async function createCheckout(options: StartCheckoutOptions): Promise<CheckoutStarted> {
  // Checked before any request, so that a misconfigured page creates nothing: no endpoint (it would post to the
  // page's own path), or no checkout origin that could ever match. The development build says which and why.
  if (!options.endpoint || !options.checkoutOrigins.length || !options.checkoutOrigins.every((o) => parseWebUrl(o)))
    throw new PaykitError(options.endpoint ? 'unsafe_url' : 'validation_failed', text().misconfigured);
  // An amount the currency cannot have (1250.50 in JPY: a digit other than 0 past its decimals) is refused before
  // anything is sent, never rounded. Its decimals: the currency's minor unit as `Intl.NumberFormat` reports it (ISO
  // 4217: JPY 0, SGD 2, KWD 3); without a currency, or with one Intl refuses, no limit here (20). The API's own
  // limit of two (KWD 12.345) is the backend's to refuse (`@paykit/core`'s `currencyDecimals`): this stays small.
  const { amount, currency } = options.choice;
  let decimals = 20;
  try {
    decimals = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits!;
  } catch {
    // No currency, or an unknown one: the backend decides.
  }
  if (RegExp(`\\.\\d{${decimals}}\\d*[1-9]`).test(amount!))
    throw new PaykitError('validation_failed', text().misconfigured, {
      errors: [{ path: 'amount', message: `${currency} has ${decimals} decimals` }],
    });
  // The same choice in this tab is the same attempt until it gets a payment request: the backend answers a
  // retried key with the first request's outcome (even one whose answer was lost), never with a second request.
  const attempt = `paykit:pay:${JSON.stringify([options.endpoint, options.choice])}`;
  let key = options.idempotencyKey;
  try {
    key ||= sessionStorage[attempt] ||= randomUuid();
  } catch {
    // No sessionStorage (blocked by the browser's settings, a sandboxed frame): a fresh key for this call only.
  }
  // Core's path, written out: an imported constant would cost every page its bytes; the type holds it to core's.
  const path: typeof PAYMENT_REQUESTS_PATH = '/payment-requests';
  const answer = await callBackend(trimSlash(options.endpoint) + path, {
    body: options.choice,
    headers: { 'idempotency-key': key || randomUuid() },
    signal: options.signal,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
  });
  // Created: the next click is a new attempt, with a new key. And this page is where the shopper tries again from
  // after a failed or cancelled payment (`<paykit-return>`'s "Try again": the checkout sends no referrer).
  try {
    delete sessionStorage[attempt];
    sessionStorage[STARTED_FROM] = location.href;
  } catch {
    // Blocked: nothing was kept.
  }
  const url = parseAllowedUrl(answer.url, options.checkoutOrigins);
  // The refused URL goes with the error (as its cause, never shown), for the development build's console.
  if (!url) throw new PaykitError('unsafe_url', text().misconfigured, { cause: answer.url });
  return { ...paymentOf(answer), url: url.href };
}

/** The endpoint without a trailing slash. */
export function trimSlash(endpoint: string): string {
  return endpoint.replace(/\/+$/, '');
}
