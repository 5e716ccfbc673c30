/**
 * The names a shopper reads for the API's payment method codes (spec 2.7 names `paynow_online`,
 * `wifi_card_reader`, FPX, QRIS, GCash, GrabPay and cards). The checkout shows these, never the raw code; the
 * code stays the form's value, so what is posted and recorded is unchanged.
 */

/** A payment method as the checkout shows it: its name and one line on how it is paid. */
export interface PaymentMethodLabel {
  name: string;
  hint: string;
}

const LABELS: Readonly<Record<string, PaymentMethodLabel>> = {
  paynow_online: { name: 'PayNow', hint: 'Scan a QR code with your banking app' },
  card: { name: 'Card', hint: 'Visa, Mastercard, American Express' },
  wifi_card_reader: { name: 'Card reader', hint: 'Tap or insert your card at the counter' },
  fpx: { name: 'FPX', hint: 'Online banking (Malaysia)' },
  qris: { name: 'QRIS', hint: 'Scan with any QRIS app (Indonesia)' },
  gcash: { name: 'GCash', hint: 'Pay from your GCash wallet' },
  grabpay: { name: 'GrabPay', hint: 'Pay from your GrabPay wallet' },
  grabpay_direct: { name: 'GrabPay', hint: 'Pay from your GrabPay wallet' },
  shopback: { name: 'ShopBack PayLater', hint: 'Pay later in instalments' },
  atome: { name: 'Atome', hint: 'Pay later in instalments' },
};

/**
 * The label of a method code. A code this table does not know (the spec says other methods depend on the
 * account) is written as words, `some_wallet` -> "Some wallet", rather than shown raw.
 */
export function paymentMethodLabel(code: string): PaymentMethodLabel {
  const known = Object.hasOwn(LABELS, code) ? LABELS[code] : undefined;
  if (known) return known;
  const words = code.replace(/_/g, ' ').trim();
  return { name: words.charAt(0).toUpperCase() + words.slice(1), hint: '' };
}
