/**
 * `formatPrice`, the one way the sandbox's and the demo's pages write an amount: the ISO code in `en-SG`, the
 * currency's own digits unless the amount has cents it lacks, exact at any size, and a clear error for what is
 * not an amount or a currency.
 */
import { describe, expect, it } from 'vitest';
import { formatMinor } from './amounts.js';
import { formatPrice } from './format-price.js';

describe('formatPrice', () => {
  it.each([
    ['12.5', 'sgd', 'SGD\u00a012.50'],
    [12.5, 'SGD', 'SGD\u00a012.50'],
    ['0.00', 'SGD', 'SGD\u00a00.00'],
    ['1234567.50', 'SGD', 'SGD\u00a01,234,567.50'],
    ['1250.00', 'JPY', 'JPY\u00a01,250'],
    // Cents the currency has not: shown with two digits, never rounded away.
    ['1250.5', 'jpy', 'JPY\u00a01,250.50'],
    // Exact beyond a double's precision: formatted from the decimal string.
    ['999999999999999.99', 'SGD', 'SGD\u00a0999,999,999,999,999.99'],
    [formatMinor(1999), 'SGD', 'SGD\u00a019.99'],
    ['-4.00', 'SGD', '-SGD\u00a04.00'],
  ])('writes %s %s as %s', (amount, currency, written) => {
    expect(formatPrice(amount, currency)).toBe(written);
  });

  it.each([['12.505'], ['1e3'], [''], [Number.NaN]])('refuses the amount %s, naming it', (amount) => {
    expect(() => formatPrice(amount, 'SGD')).toThrow(
      expect.objectContaining({ code: 'validation_failed', errors: [expect.objectContaining({ path: 'amount' })] }),
    );
  });

  it('refuses a currency that is not a code, naming it', () => {
    expect(() => formatPrice('1.00', 'dollars')).toThrow(
      expect.objectContaining({
        code: 'validation_failed',
        message: '"dollars" is not a currency code',
        errors: [expect.objectContaining({ path: 'currency' })],
      }),
    );
  });
});
