/**
 * An amount as the shopper reads money in their language: `Intl.NumberFormat` with the currency's own symbol
 * and decimals (`S$30.00` in `en-SG`, `30,00 SGD` in `fr`). The backend's decimal string is only displayed,
 * never computed with, so a `Number` is exact enough.
 */
import type { PaymentStatus } from '../types.js';

/** `amount` in `currency`, for `lang`; the two as sent (`30.00 SGD`) when Intl does not know the currency. */
export function formatAmount(payment: Pick<PaymentStatus, 'amount' | 'currency'>, lang: string): string {
  try {
    return new Intl.NumberFormat(lang, { style: 'currency', currency: payment.currency }).format(+payment.amount);
  } catch {
    return `${payment.amount} ${payment.currency}`;
  }
}
