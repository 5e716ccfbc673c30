/**
 * The sandbox's foreign-exchange rates: fixed, so that a test can compute what a transfer costs. They are
 * round figures near real ones, a paykit choice (the service quotes live rates; its transfer examples show
 * `exchange_rate` as payment units per source unit, as a decimal string, e.g. `'88.949505'` for sgd to bdt).
 */
import { PaykitError } from '@paykit/core';

/** Units of each currency one US dollar buys, in the sandbox. */
const PER_USD: Readonly<Record<string, number>> = {
  usd: 1,
  sgd: 1.3,
  myr: 4.4,
  php: 56,
  idr: 15_500,
  vnd: 25_000,
  thb: 35,
  bdt: 110,
  aud: 1.5,
  eur: 0.92,
  gbp: 0.79,
  inr: 83,
  hkd: 7.8,
  jpy: 150,
};

/** Whether the sandbox quotes a rate for `currency` (any case). */
export function knowsCurrency(currency: string): boolean {
  return Object.hasOwn(PER_USD, currency.toLowerCase());
}

/**
 * How many `to` units one `from` unit buys, rounded to six decimals as the service writes it; 1 for the same
 * currency. Throws `validation_failed` (naming `field`) for a currency the sandbox has no rate for.
 */
export function exchangeRate(from: string, to: string, field = 'source_currency'): number {
  const a = PER_USD[from.toLowerCase()];
  const b = PER_USD[to.toLowerCase()];
  if (a === undefined || b === undefined) {
    const unknown = a === undefined ? from : to;
    throw new PaykitError('validation_failed', `The sandbox has no exchange rate for ${unknown.toUpperCase()}`, {
      errors: [{ path: field, message: `has no exchange rate in the sandbox (${Object.keys(PER_USD).join(', ')})` }],
    });
  }
  if (from.toLowerCase() === to.toLowerCase()) return 1;
  return Math.round((b / a) * 1e6) / 1e6;
}

/** A rate as the service writes it: a decimal string with up to six places (`'1'`, `'84.615385'`). */
export function rateText(rate: number): string {
  return String(rate);
}
