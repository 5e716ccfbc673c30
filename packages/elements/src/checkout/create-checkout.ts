/**
 * The payment request of a choice, made through the merchant's backend, with its checkout URL checked: what both
 * the redirect (start-checkout.ts) and the drop-in's lazy chunk start with, in a module of its own so that the
 * chunk imports it and not the entry.
 */
import {
  currencyMinorUnit,
  PaykitError,
  parseAllowedUrl,
  parseWebUrl,
  type PAYMENT_REQUESTS_PATH,
} from '@paykit/core/browser';
import { text } from '../messages.js';
import { callBackend, paymentOf, trimSlash } from '../http.js';
import { randomUuid } from '../random.js';
import type { CheckoutStarted } from '../types.js';
import { rememberStartedFrom } from './started-from.js';
import type { StartCheckoutOptions } from './types.js';

/** `startCheckout` without the drop-in: the payment request, for a redirect to its checkout. */
export async function createCheckout(options: StartCheckoutOptions): Promise<CheckoutStarted> {
  // Checked before any request, so that a misconfigured page creates nothing: no endpoint (it would post to the
  // page's own path), or no checkout origin that could ever match. The development build says which and why.
  if (!options.endpoint || !options.checkoutOrigins.length || !options.checkoutOrigins.every((o) => parseWebUrl(o)))
    throw new PaykitError(options.endpoint ? 'unsafe_url' : 'validation_failed', text().misconfigured);
  // An amount the currency cannot have (1250.50 in JPY: a digit other than 0 past its decimals) is refused before
  // anything is sent, never rounded. Its decimals: the currency's minor unit (ISO 4217: JPY 0, SGD 2, KWD 3);
  // without a currency, or with one Intl refuses, no limit here (20: the backend decides). The API's own limit of
  // two (KWD 12.345) is the backend's to refuse (`currencyDecimals`): this stays small.
  const { amount, currency } = options.choice;
  const decimals = currencyMinorUnit(currency) ?? 20;
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
  } catch {
    // Blocked: nothing was kept.
  }
  rememberStartedFrom();
  const url = parseAllowedUrl(answer.url, options.checkoutOrigins);
  // The refused URL goes with the error (as its cause, never shown), for the development build's console.
  if (!url) throw new PaykitError('unsafe_url', text().misconfigured, { cause: answer.url });
  return { ...paymentOf(answer), url: url.href };
}
