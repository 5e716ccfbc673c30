/**
 * How every sandbox page writes an amount: one rule, so that the checkout, the card reader and anything added
 * later agree. `Intl.NumberFormat('en-SG')` in currency style with the ISO code: `SGD 12.50`, `SGD 1,234.50`,
 * `JPY 1,250`. The code rather than a symbol because `$` is ambiguous in the region the API serves (S$, US$,
 * A$) and the code is what the merchant typed and the API answers. Intl puts a no-break space between code and
 * number, so a narrow button never wraps `SGD` away from its amount.
 */
import { formatMinor, PaykitError } from '@paykit/core';

/** The locale of the sandbox pages (English, Singapore: the API's home market). */
const LOCALE = 'en-SG';

const formats = new Map<string, Intl.NumberFormat>();

/**
 * `amountMinor` (hundredths, as the API counts) in `currency` (an ISO 4217 code, any case) as the pages show it.
 * The digits are the currency's own (`JPY 1,250`), or two when the amount has cents the currency does not
 * have, so that the page never rounds what the shopper pays. The number is formatted from its decimal string,
 * exact at any size. A malformed currency is a `validation_failed` PaykitError (a bug: records are
 * validated when created).
 *
 * @example formatMoney(1250, 'sgd') // 'SGD\u00a012.50'
 */
export function formatMoney(amountMinor: number, currency: string): string {
  const whole = formatOf(currency, undefined);
  const digits = whole.resolvedOptions().maximumFractionDigits ?? 2;
  const format = amountMinor % 100 !== 0 && digits < 2 ? formatOf(currency, 2) : whole;
  return format.format(formatMinor(amountMinor) as Intl.StringNumericLiteral);
}

function formatOf(currency: string, fractionDigits: number | undefined): Intl.NumberFormat {
  const key = `${currency.toUpperCase()}/${fractionDigits ?? ''}`;
  let format = formats.get(key);
  if (!format) {
    try {
      format = new Intl.NumberFormat(LOCALE, {
        style: 'currency',
        currency,
        currencyDisplay: 'code',
        ...(fractionDigits === undefined
          ? {}
          : { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits }),
      });
    } catch {
      throw new PaykitError('validation_failed', `${JSON.stringify(currency)} is not a currency code`);
    }
    formats.set(key, format);
  }
  return format;
}
