/**
 * The sandbox's test cards, read from what a shopper types on a saved-card checkout: no card network is
 * behind them, so any number that passes the Luhn check is a card, its brand read from its prefix.
 */

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
