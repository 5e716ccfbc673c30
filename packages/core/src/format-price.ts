/**
 * How a page rendered on a server writes an amount: the sandbox's checkout, card reader and recurring billing
 * pages and the demo's shop, marketplace and orders agree because they call this one function.
 * `Intl.NumberFormat('en-SG')` in currency style with the ISO code (`SGD 12.50`, `SGD 1,234.50`, `JPY 1,250`): the
 * code rather than a symbol because `$` is ambiguous in the region the API serves (S$, US$, A$), and Intl's
 * no-break space keeps the code with its number on a narrow screen. The elements write amounts in the shopper's
 * own language instead (`@paykit/elements`' `<paykit-return>`), and keep this module out of the browser.
 */
import { DECIMAL } from './amounts.js';
import { PaykitError } from './errors.js';

/** The locale of the pages (English, Singapore: the API's home market). */
const LOCALE = 'en-SG';

const formats = new Map<string, Intl.NumberFormat>();

/**
 * `amount` (major units as the API writes it: `"12.50"`, `12.5`, `"0.00"`; `formatMinor` gives it from minor
 * units) in `currency` (ISO 4217, any case). The digits are the currency's own, or two when the amount has cents
 * the currency has not, so nothing is rounded; the number is formatted from its decimal string, exact at any
 * size. An amount or currency that is not one is a `validation_failed` PaykitError naming the value.
 *
 * @example formatPrice('12.5', 'sgd') // 'SGD\u00a012.50'
 * @example formatPrice('1250.50', 'JPY') // 'JPY\u00a01,250.50'
 */
export function formatPrice(amount: string | number, currency: string): string {
  const text = String(amount);
  // A decimal in the API's form: at most two decimals. Zero is allowed (nothing earned yet), and so is a minus.
  const match = DECIMAL.exec(text);
  if (!match || (match[3] ?? '').length > 2) {
    const reason = 'must be a decimal number with at most two decimals, such as 12.50';
    throw new PaykitError('validation_failed', `${JSON.stringify(amount)} is not an amount: it ${reason}`, {
      errors: [{ path: 'amount', message: reason }],
    });
  }
  const own = formatOf(currency, false);
  const cents = /[1-9]/.test(match[3] ?? '') && (own.resolvedOptions().maximumFractionDigits ?? 2) < 2;
  // DECIMAL matched it: a decimal string, which Intl formats exactly (TypeScript types that as a template).
  return (cents ? formatOf(currency, true) : own).format(text as Intl.StringNumericLiteral);
}

/** The currency's format with its own digits, or with exactly two; made once per currency and kind. */
function formatOf(currency: string, twoDigits: boolean): Intl.NumberFormat {
  const key = `${currency.toUpperCase()}/${twoDigits}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(LOCALE, {
        style: 'currency',
        currency,
        currencyDisplay: 'code',
        ...(twoDigits ? { minimumFractionDigits: 2, maximumFractionDigits: 2 } : {}),
      });
    } catch {
      throw new PaykitError('validation_failed', `${JSON.stringify(currency)} is not a currency code`, {
        errors: [{ path: 'currency', message: 'must be a three-letter currency code' }],
      });
    }
    formats.set(key, format);
  }
  return format;
}
