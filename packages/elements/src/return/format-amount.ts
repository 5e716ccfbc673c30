/**
 * An amount as the shopper reads money in their language: `Intl.NumberFormat` with the currency's own symbol
 * and decimals (`S$30.00` in `en-SG`, `30,00 SGD` in `fr`, `¥1,250` in `en`). The backend's decimal string is
 * only displayed, never computed with, so a `Number` is exact enough; and never rounded: digits beyond the
 * currency's are shown (`¥1,250.5`), not hidden.
 */
import type { PaymentStatus } from '../types.js';

/** `amount` in `currency`, for `lang`; the two as sent (`30.00 SGD`) when Intl does not know the currency. */
export function formatAmount(payment: Pick<PaymentStatus, 'amount' | 'currency'>, lang: string): string {
  try {
    return new Intl.NumberFormat(lang, {
      style: 'currency',
      currency: payment.currency,
      // The currency's own digits at least (its default minimum), and every digit given: never rounded.
      maximumFractionDigits: 20,
    }).format(+payment.amount);
  } catch {
    return `${payment.amount} ${payment.currency}`;
  }
}
