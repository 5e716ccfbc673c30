/**
 * How every demo page writes an amount: the shop, the marketplace and the orders page agree with each other
 * and with the sandbox checkout. `Intl.NumberFormat('en-SG')` in currency style with the ISO code
 * (`SGD 12.50`, `SGD 1,234.50`, `JPY 1,250`): the code rather than a symbol because `$` is ambiguous in the
 * region (S$, US$, A$), and a no-break space (Intl's) keeps the code with its number on a narrow screen.
 */
import { PaykitError } from '@paykit/core';

/** The locale of the demo's pages. */
const LOCALE = 'en-SG';

/** A decimal in the API's form: at most two decimals, no exponent. Zero is allowed (nothing earned yet). */
const DECIMAL = /^-?\d{1,15}(?:\.(\d{1,2}))?$/;

/**
 * `amount` (major units as the API writes it: `"12.50"`, `12.5`, `"0.00"`) in `currency` (ISO 4217, any case). The digits
 * are the currency's own, or two when the amount has cents the currency has not, so nothing is rounded; the
 * number is formatted from its decimal string, exact at any size. An amount or currency that is not one is
 * `validation_failed`, naming the value.
 *
 * @example formatMoney('12.5', 'sgd') // 'SGD\u00a012.50'
 */
export function formatMoney(amount: string | number, currency: string): string {
  const text = String(amount);
  const match = DECIMAL.exec(text);
  if (!match) {
    const reason = 'must be a decimal number with at most two decimals, such as 12.50';
    throw new PaykitError('validation_failed', `${JSON.stringify(amount)} is not an amount: it ${reason}`, {
      errors: [{ path: 'amount', message: reason }],
    });
  }
  const hasCents = /[1-9]/.test(match[1] ?? '');
  let format: Intl.NumberFormat;
  try {
    format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency, currencyDisplay: 'code' });
  } catch {
    throw new PaykitError('validation_failed', `${JSON.stringify(currency)} is not a currency code`, {
      errors: [{ path: 'currency', message: 'must be a three-letter currency code' }],
    });
  }
  if (hasCents && (format.resolvedOptions().maximumFractionDigits ?? 2) < 2) {
    format = new Intl.NumberFormat(LOCALE, {
      style: 'currency',
      currency,
      currencyDisplay: 'code',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
  }
  return format.format(text as Intl.StringNumericLiteral);
}
