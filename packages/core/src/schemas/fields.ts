/**
 * Field schemas shared by the resource schemas. Request fields are strict and give readable messages
 * ("must be greater than 0"); response fields are lenient, because the API may add or reshape fields.
 */
import * as z from 'zod';
import { formatMinor, minorToMajor, parseAmount } from '../amounts.js';
import { parseWebUrl } from '../safe-url.js';

/** The message for a required field that is missing, or the given one when the field has the wrong type. */
const requiredOr = (message: string) => (issue: { input: unknown }) =>
  issue.input === undefined ? 'is required' : message;

/**
 * An amount in major units, given as a number or a decimal string (form bodies carry strings).
 * Output: the number the API takes (`"12.50"` -> `12.5`). Rules: see {@link parseAmount}.
 */
export const amount = z
  .union([z.number(), z.string()], { error: requiredOr('must be a number') })
  .transform((value, ctx) => {
    const parsed = parseAmount(value);
    if (parsed.ok) return minorToMajor(parsed.minor);
    ctx.issues.push({ code: 'custom', message: parsed.reason, input: value });
    return z.NEVER;
  });

/** A three-letter currency code in any case, normalised to upper case as the API's request fields take it. */
export const requestCurrency = z
  .string({ error: requiredOr('must be a string') })
  .regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code such as SGD')
  .transform((code) => code.toUpperCase());

/** A currency code as records carry it, normalised to lower case. */
export const recordCurrency = z.string().transform((code) => code.toLowerCase());

/** An email address. */
export const email = z
  .email({ error: requiredOr('must be an email address') })
  .max(254, 'must be at most 254 characters');

/** An absolute `https:` URL, or `http:` on a loopback host (the local sandbox). */
export const webUrl = z
  .string({ error: requiredOr('must be a URL') })
  .refine((value) => parseWebUrl(value) !== undefined, 'must be an https URL (http only for localhost)');

/** A boolean, also given as `true`/`false`/`1`/`0` text (form bodies carry text). */
export const booleanish = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).transform((v) => v === 'true' || v === '1'),
]);

/** An amount as the API answers with it: a two-decimal string, or a number; normalised to the string form. */
export const responseAmount = z.union([z.string(), z.number()]).transform((value, ctx) => {
  const parsed = parseAmount(value);
  if (parsed.ok) return formatMinor(parsed.minor);
  if (value === 0 || value === '0' || value === '0.00') return '0.00';
  ctx.issues.push({ code: 'custom', message: `is not an amount (${parsed.reason})`, input: value });
  return z.NEVER;
});

/** A date-time as the API answers with it. Kept as text: the formats differ by field (see the spec). */
export const dateTime = z.string();

/** `2026-11-22T10:00:00` (optionally with fractions): ISO 8601 without offset (payment requests, refunds' `created_at`). */
export const localDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?$/, 'must be an ISO 8601 date-time without offset');

/** `2026-11-22T10:00:00+08:00`: ISO 8601 with a numeric offset (beneficiaries, balance transactions). */
export const offsetDateTime = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}:?\d{2}$/,
    'must be an ISO 8601 date-time with a numeric offset',
  );

/** `2026-11-22T10:00:00.123456Z`: UTC with microseconds and `Z` (refunds' `refunded_at`, staff `invited_at`). */
export const utcMicrosDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/, 'must be a UTC date-time with microseconds and Z');

/** `2026-11-22`: a calendar date. */
export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date such as 2026-11-22');

/** A number as records carry money: major units, given as a number or a numeric string. */
export const recordMoney = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform((text, ctx) => {
      // 310 digits are a valid numeral and Infinity as a number: refuse it rather than carry Infinity on.
      const value = Number(text);
      if (Number.isFinite(value)) return value;
      ctx.issues.push({ code: 'custom', message: 'must be a finite number', input: text });
      return z.NEVER;
    }),
]);

/** A non-empty identifier from the API (UUIDs in the spec; not enforced on responses). */
export const id = z.string().min(1);

/** An identifier given to paykit to look something up: non-empty and bounded. It is URL-encoded before use. */
export const resourceId = z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

/** A whole number in `[min, max]`, also given as text (form bodies carry text). */
export const wholeNumber = (min: number, max: number) =>
  z
    .union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number').transform(Number)], {
      error: 'must be a whole number',
    })
    .pipe(
      z.number().int('must be a whole number').min(min, `must be at least ${min}`).max(max, `must be at most ${max}`),
    );
