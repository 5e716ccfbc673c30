/**
 * Money and dates as the merchant views show them. An amount is the server's decimal string in its currency's
 * digits (merchant-view-routes.ts, `MerchantMoney`): shown with `Intl.NumberFormat` and the answer's currency, never
 * computed with (a refund's new totals come from the server's answer).
 */
import type { MerchantMoney } from '@paykit/core/browser';
import { formatAmount } from '../return/format-amount.js';

/** `money` for `lang`: `S$30.00`, `30,00 $SG`; the two as sent when Intl does not know the currency. */
export function formatMoney(money: MerchantMoney, lang: string): string {
  return formatAmount(money, lang);
}

/**
 * An ISO 8601 instant as a date and time (`dateOnly`: a `YYYY-MM-DD` day, such as a payout's arrival, read in UTC so
 * that it is the same day everywhere); the text as sent when it is not a date.
 */
export function formatDate(iso: string, lang: string, dateOnly = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(
      lang,
      dateOnly ? { dateStyle: 'medium', timeZone: 'UTC' } : { dateStyle: 'medium', timeStyle: 'short' },
    ).format(date);
  } catch {
    return iso;
  }
}
