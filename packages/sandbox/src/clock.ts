/**
 * The date-time formats the spec gives for each field. The sandbox writes each field in its documented form.
 */

/** `2026-11-22T10:00:00`: ISO 8601 without offset (payment requests, refunds' `created_at`, saved cards). */
export function isoWithoutOffset(date: Date): string {
  return date.toISOString().slice(0, 19);
}

/** `2026-11-22T10:00:00.123000Z`: ISO 8601 in UTC with microseconds and a `Z` (refunds' `refunded_at`, staff). */
export function isoUtcMicros(date: Date): string {
  return `${date.toISOString().slice(0, 23)}000Z`;
}

/** `2026-11-22T10:00:00+00:00`: ISO 8601 with a numeric offset (beneficiaries, balance transactions). */
export function isoWithOffset(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`;
}
