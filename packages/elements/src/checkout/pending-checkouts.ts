/**
 * The drop-in's pending payment requests, one per choice (the `endpoint` and every field of the choice, as the
 * Idempotency-Key of start-checkout.ts is kept), in this tab's sessionStorage: a shopper who closes the overlay
 * and clicks again (or reloads, then clicks) gets the same payment request back instead of a second one. Where the
 * browser refuses sessionStorage, nothing is kept and each click makes its own, as before the drop-in.
 */
import { parseAllowedUrl } from '@paykit/core/browser';
import type { CheckoutStarted } from '../types.js';
import type { StartCheckoutOptions } from './types.js';

/** The sessionStorage key of a choice's pending payment request. */
const keyOf = (options: StartCheckoutOptions) => `paykit:drop-in:${JSON.stringify([options.endpoint, options.choice])}`;

/**
 * The payment request kept for this choice, if any, and if its checkout URL is still on `checkoutOrigins` (the
 * page's configuration may have changed since).
 */
export function pendingCheckout(options: StartCheckoutOptions): CheckoutStarted | undefined {
  try {
    // This module's own entry, as it wrote it (what the page trusts is checked next: the id and the URL).
    const kept = JSON.parse(sessionStorage.getItem(keyOf(options))!) as CheckoutStarted | null;
    if (kept && typeof kept.id === 'string' && parseAllowedUrl(kept.url, options.checkoutOrigins)) return kept;
  } catch {
    // Unreadable, or no sessionStorage: nothing was kept.
  }
  return undefined;
}

/** Keeps the payment request of this choice until it is paid, failed or canceled. */
export function rememberPending(options: StartCheckoutOptions, started: CheckoutStarted): void {
  try {
    sessionStorage.setItem(keyOf(options), JSON.stringify(started));
  } catch {
    // No sessionStorage: the next click makes its own payment request.
  }
}

/** Forgets the payment request of this choice: it is final, and the next click buys again. */
export function forgetPending(options: StartCheckoutOptions): void {
  try {
    sessionStorage.removeItem(keyOf(options));
  } catch {
    // No sessionStorage: nothing was kept.
  }
}
