/**
 * Money rules of the Payments API. Amounts travel as numbers in major units (`12.5` means 12.50) with at
 * most two decimals; paykit does every comparison and sum in integer minor units so that floating point
 * never decides a price (`0.1 + 0.2` is 30 minor units, exactly).
 */
import { PaykitError } from './errors.js';

/** The largest amount paykit accepts, in minor units (999,999,999.99). A paykit choice: the spec sets none. */
export const MAX_AMOUNT_MINOR = 99_999_999_999;

/** The outcome of {@link parseAmount}: minor units, or the reason the value is not an amount. */
export type AmountParseResult = { ok: true; minor: number } | { ok: false; reason: string };

/**
 * An amount in plain decimal notation: no exponent, no sign but a leading minus, no spaces, no hex; groups: the
 * sign, the whole part, the decimals. The one reading of an amount's text in paykit (`formatPrice` uses it too).
 */
export const DECIMAL = /^(-?)(\d{1,15})(?:\.(\d+))?$/;

/** {@link currencyMinorUnit}'s answers so far, by upper-case code. */
const minorUnitOf = new Map<string, number>();

/**
 * The currency's minor unit, ISO 4217's digits, as `Intl.NumberFormat` reports them (JPY 0, SGD 2, BHD and KWD 3).
 * Undefined for a code Intl refuses. What a price may show; {@link currencyDecimals} is what the API carries.
 *
 * @example currencyMinorUnit('KWD') // 3
 */
export function currencyMinorUnit(currency: string | undefined): number | undefined {
  // Making an Intl.NumberFormat costs 40 to 100 µs, more than the rest of a checkout's checks: each code's
  // answer is kept. Only well-formed codes (three letters, any case: all Intl accepts) are kept, so the map holds
  // at most 26^3 entries whatever a caller sends.
  const code = currency && /^[A-Za-z]{3}$/.test(currency) ? currency.toUpperCase() : undefined;
  const known = code === undefined ? undefined : minorUnitOf.get(code);
  if (known !== undefined) return known;
  try {
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
    if (code && digits !== undefined) minorUnitOf.set(code, digits);
    return digits;
  } catch {
    return undefined;
  }
}

/**
 * How many decimals an amount in `currency` may have: the currency's minor unit (ISO 4217) as
 * `Intl.NumberFormat` reports it (JPY 0, SGD 2, BHD and KWD 3), but at most two, the API's (it answers amounts
 * as strings with two decimals). Undefined for a code Intl refuses (not three letters).
 *
 * @example currencyDecimals('JPY') // 0
 * @example currencyDecimals('KWD') // 2 (three in ISO 4217; the API carries two)
 */
export function currencyDecimals(currency: string): number | undefined {
  const digits = currencyMinorUnit(currency);
  return digits === undefined ? undefined : Math.min(2, digits);
}

/**
 * Reads an amount given as a number or a decimal string, and says why when it is not a valid amount:
 * not finite, exponent notation, zero or negative, more than two decimals, or above {@link MAX_AMOUNT_MINOR}.
 * With `currency`, also more decimals than the currency has (see {@link currencyDecimals}): `1250.50` is no
 * amount in JPY, whose smallest unit is 1 yen, though `1250.00` is (the API writes every amount with two decimals).
 *
 * @example parseAmount('12.50') // { ok: true, minor: 1250 }
 * @example parseAmount(0.1 + 0.2) // { ok: false, reason: 'must have at most two decimal places' }
 * @example parseAmount('1250.50', 'JPY') // { ok: false, reason: 'must have no decimal places in JPY' }
 */
export function parseAmount(value: unknown, currency?: string): AmountParseResult {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { ok: false, reason: 'must be a finite number' };
    text = String(value);
  } else if (typeof value === 'string') {
    text = value;
  } else {
    return { ok: false, reason: 'must be a number' };
  }
  const match = DECIMAL.exec(text);
  if (!match) return { ok: false, reason: 'must be a decimal number such as 12.50' };
  const [, sign, whole = '', fraction = ''] = match;
  if (fraction.length > 2) return { ok: false, reason: 'must have at most two decimal places' };
  const minor = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  if (sign === '-' || minor === 0) return { ok: false, reason: 'must be greater than 0' };
  if (minor > MAX_AMOUNT_MINOR) return { ok: false, reason: 'must be at most 999999999.99' };
  const decimals = currency === undefined ? 2 : currencyDecimals(currency);
  if (decimals !== undefined && minor % 10 ** (2 - decimals) !== 0)
    return { ok: false, reason: `${decimalsRule(decimals)} in ${currency!.toUpperCase()}` };
  return { ok: true, minor };
}

/** `must have no decimal places`, `… at most 1 decimal place`. */
function decimalsRule(decimals: number): string {
  return decimals === 0
    ? 'must have no decimal places'
    : `must have at most ${decimals} decimal place${decimals === 1 ? '' : 's'}`;
}

/**
 * An amount in major units (a number or decimal string) in minor units, for code that holds an amount a schema
 * has already checked, or one it stored itself. Throws a `PaykitError` `validation_failed` (naming `field` and
 * the {@link parseAmount} reason) for anything that is not an amount, never 0 or a rounded guess. `allowZero`
 * takes 0 as 0 minor units, for totals that start at nothing (a saved card's `total_charge`).
 *
 * @example majorToMinor(12.5) // 1250
 * @example majorToMinor(0, { allowZero: true }) // 0
 * @example majorToMinor(0.1 + 0.2) // throws: amount must have at most two decimal places
 */
export function majorToMinor(value: unknown, options: { field?: string; allowZero?: boolean } = {}): number {
  if (options.allowZero && (value === 0 || value === '0' || value === '0.00')) return 0;
  const parsed = parseAmount(value);
  if (parsed.ok) return parsed.minor;
  const field = options.field ?? 'amount';
  throw new PaykitError('validation_failed', `${field} ${parsed.reason}`, {
    errors: [{ path: field, message: parsed.reason }],
  });
}

/** Minor units to the number in major units the API takes (`1250` -> `12.5`). */
export function minorToMajor(minor: number): number {
  return minor / 100;
}

/** Minor units to the two-decimal string the API answers with (`1250` -> `"12.50"`). */
export function formatMinor(minor: number): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
