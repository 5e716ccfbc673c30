/**
 * The shapes of the headless pay flow, in a leaf that the eager entry (start-checkout.ts) and the drop-in's lazy
 * chunk both import: no code, so neither pulls the other in.
 */
import type { CheckoutStarted, ShopperChoice } from '../types.js';

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
 * The `dropIn` option: `true` (or `''`, an attribute without value) for `/hitpay.js` on the checkout URL's origin,
 * or the drop-in script's own URL (the service serves it from another host than its checkout pages).
 */
export type DropInScript = true | string;

/**
 * What {@link startCheckout} with `dropIn` resolves with: the payment request and how the overlay ended.
 * - `finished`: the overlay reported an outcome, and `status` is what the backend confirms (`completed`, `failed`
 *   or `canceled`; `pending` when the backend could not confirm it within `confirmWaitMs`).
 * - `closed`: the shopper closed the overlay; the payment request stays `pending`, and the next call with the same
 *   choice opens it again.
 * - `unavailable`: the drop-in could not be shown (its script refused by the page's Content-Security-Policy, a
 *   content blocker or the network; its frame refused by `frame-src`; a script URL not on `checkoutOrigins`): take
 *   the shopper to `url`, the checkout page, as without `dropIn`.
 */
export interface CheckoutInPlace extends CheckoutStarted {
  readonly dropIn: 'finished' | 'closed' | 'unavailable';
  /** What the backend says was paid for, when it sends it (`finished` only). */
  readonly purpose?: string;
  /** The merchant's reference, when the backend sends it (`finished` only). */
  readonly reference?: string;
  /** The drop-in script's URL when one was chosen (for the development build's explanation when it failed). */
  readonly script?: string;
}
