/**
 * The sandbox's test cards, read from what a shopper types on a saved-card checkout: no card network is
 * behind them, so any number that passes the Luhn check is a card, its brand read from its prefix. One number
 * is a card that declines ({@link DECLINING_CARD}): it saves, and every charge of it fails.
 */

/**
 * A card that saves and then declines every charge: the sandbox's choice (the service publishes no test card
 * numbers), the number test suites of other payment services use for a generic decline.
 */
export const DECLINING_CARD = '4000 0000 0000 0002';

/** A test card: its brand and last four digits, all the sandbox keeps of it. */
export interface TestCard {
  brand: 'visa' | 'mastercard' | 'amex' | 'card';
  last4: string;
}

/**
 * Reads a card number typed on the checkout (spaces and dashes allowed). Undefined when it is not 13 to 19
 * digits passing the Luhn check: the page then asks again.
 */
export function readTestCard(typed: string): TestCard | undefined {
  const digits = typed.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(digits) || !luhn(digits)) return undefined;
  const brand = /^4/.test(digits)
    ? 'visa'
    : /^(5[1-5]|2[2-7])/.test(digits)
      ? 'mastercard'
      : /^3[47]/.test(digits)
        ? 'amex'
        : 'card';
  return { brand, last4: digits.slice(-4) };
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

/** Whether a saved card (brand and last four, all a record keeps) is {@link DECLINING_CARD}. */
export function savedCardDeclines(card: { brand?: string; last4?: string } | null | undefined): boolean {
  return card?.brand === 'visa' && card.last4 === DECLINING_CARD.slice(-4);
}
