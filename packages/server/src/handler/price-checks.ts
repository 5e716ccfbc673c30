/**
 * The price of a checkout, checked before the API is called: the price the merchant's `createPaymentRequest`
 * decided must be one the API can charge, and the price the page showed must be that price. The two failures are
 * told apart (issue 35 item 3): a shown price that is not the decided one is `amount_mismatch` (409), which the
 * shopper reads as "the price has changed"; a decided price no shopper could pay (a currency that is not one, an
 * amount with decimals its currency has not, not the currency the page shows) is the shop's configuration,
 * `checkout_misconfigured` (500): the shopper reads that the shop cannot take the payment now, and the shop's
 * log (through the refusal notices) says which value of the hook to fix.
 */
import { PaykitError, parseAmount, type PaymentRequestCreateInput, type ShopperChoice } from '@paykit/core';

/** What the shopper reads when the shop's own price cannot be charged. */
export const MISCONFIGURED_WORDS = 'This shop cannot take this payment right now. Please try again later.';

/** The currencies of ISO 4217 as this runtime's Intl lists them (every runtime paykit runs on has the list). */
let isoCurrencies: ReadonlySet<string> | undefined;

function isCurrency(code: string): boolean {
  isoCurrencies ??= new Set(Intl.supportedValuesOf('currency'));
  return isoCurrencies.has(code.toUpperCase());
}

/**
 * A `checkout_misconfigured` error in the shopper's words, whose cause holds the developer's: `detail` names the
 * hook, the value and the fix.
 */
export function misconfigured(detail: string, cause?: unknown): PaykitError {
  return new PaykitError('checkout_misconfigured', MISCONFIGURED_WORDS, {
    cause: new PaykitError('validation_failed', detail, cause === undefined ? {} : { cause }),
  });
}

/** Throws `checkout_misconfigured` unless `decided` is a price the API can charge. */
export function assertChargeable(decided: PaymentRequestCreateInput): void {
  const currency: unknown = decided.currency;
  if (typeof currency !== 'string' || !isCurrency(currency)) {
    throw misconfigured(
      `createPaymentRequest decided the currency ${JSON.stringify(currency)}, which is not an ISO 4217 currency ` +
        'code: return the three-letter code of the price, such as SGD.',
    );
  }
  const amount = parseAmount(decided.amount, currency);
  if (!amount.ok) {
    throw misconfigured(
      `createPaymentRequest decided the amount ${JSON.stringify(decided.amount)} ${currency.toUpperCase()}, ` +
        `which ${amount.reason}: return the price as the currency has it (a decimal string such as '12.50').`,
    );
  }
}

/**
 * Throws unless the price the shopper was shown (when the page sent one) is `decided`: `validation_failed` for a
 * shown amount that is no amount or a shown currency that is none (no page of the shop sends that: the caller's
 * mistake, not the shop's), `checkout_misconfigured` for another currency (the page and the hook disagree on what
 * the shop sells in), `amount_mismatch` for another amount.
 */
export function assertShownPrice(choice: ShopperChoice, decided: PaymentRequestCreateInput): void {
  const currency = String(decided.currency).toUpperCase();
  if (choice.currency !== undefined && !isCurrency(choice.currency)) {
    const reason = 'must be an ISO 4217 currency code, such as SGD';
    throw new PaykitError('validation_failed', `The checkout request is invalid: currency ${reason}`, {
      errors: [{ path: 'currency', message: reason }],
    });
  }
  if (choice.currency !== undefined && choice.currency.toUpperCase() !== currency) {
    throw misconfigured(
      `the page showed a price in ${choice.currency.toUpperCase()} and createPaymentRequest decided ${currency}: ` +
        "if the page shows that currency, set the pay button's currency to the hook's or correct the hook's (a " +
        'typo such as SDG for SGD?); if it does not, someone sent another currency than the page. Nothing was created.',
    );
  }
  if (choice.amount === undefined) return;
  // With the currency shown: 1250.50 is no price in JPY (the page would have rounded it, the API refuses it).
  const shown = parseAmount(choice.amount, choice.currency);
  if (!shown.ok) {
    throw new PaykitError('validation_failed', `The checkout request is invalid: amount: ${shown.reason}`, {
      errors: [{ path: 'amount', message: shown.reason }],
    });
  }
  const charged = parseAmount(decided.amount);
  if (!charged.ok || charged.minor !== shown.minor) {
    throw new PaykitError(
      'amount_mismatch',
      'The price has changed since the page was loaded. Please reload the page to see the current price.',
    );
  }
}

/** The fields of a payment request whose value the hook decides alone: the API refusing one is the shop's. */
const DECIDED_FIELDS = new Set(['amount', 'currency', 'platform_commission_amount']);

/**
 * Whether an error of creating the payment request is the API (or the client's schema before it) refusing a price
 * field the hook decided, rather than something the shopper entered (an email): only the first is the shop's.
 */
export function refusesDecidedPrice(error: unknown): error is PaykitError {
  return (
    error instanceof PaykitError &&
    error.code === 'validation_failed' &&
    error.errors !== undefined &&
    error.errors.length > 0 &&
    error.errors.every((field) => DECIDED_FIELDS.has(field.path.split('.')[0] ?? ''))
  );
}
