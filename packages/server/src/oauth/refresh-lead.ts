/**
 * When to refresh an access token: a fraction of its lifetime before it expires, so that no call goes out
 * with a token about to lapse, yet a short-lived token is used for most of its life instead of being refreshed
 * before every call (a fixed 5-minute lead refreshed a 5-minute token on each call).
 */
import { PaykitError } from '@paykit/core';
import type { OAuthTokens } from './connection-store.js';

/**
 * The default fraction: 10 %. A 5-minute token is refreshed 30 s before it expires, which still covers a
 * token request's 10 s time limit and ordinary clock drift; a token of an hour or more gets the full
 * {@link MAX_REFRESH_LEAD_MS}.
 */
export const DEFAULT_REFRESH_AHEAD = 0.1;

/** The lead never exceeds this: a year-long token needs no more margin than an hour-long one. */
export const MAX_REFRESH_LEAD_MS = 5 * 60_000;

/**
 * Checks a `refreshAhead` option: a fraction of the lifetime above 0 and at most one half (a larger lead
 * would refresh a token before it had been used for half its life). Throws `validation_failed`.
 */
export function checkRefreshAhead(fraction: number | undefined): number {
  if (fraction === undefined) return DEFAULT_REFRESH_AHEAD;
  if (typeof fraction !== 'number' || !(fraction > 0 && fraction <= 0.5)) {
    const message = 'must be a fraction of the token lifetime above 0 and at most 0.5';
    throw new PaykitError('validation_failed', `"refreshAhead" ${message}`, {
      errors: [{ path: 'refreshAhead', message }],
    });
  }
  return fraction;
}

/**
 * The moment (milliseconds since the epoch) from which `tokens` should be refreshed: `fraction` of the lifetime
 * before expiry, at most {@link MAX_REFRESH_LEAD_MS}. Tokens without `issuedAt` (a merchant's own token store
 * may not keep it) get the fixed lead of {@link MAX_REFRESH_LEAD_MS}; the tokens their refresh stores have it.
 */
export function refreshDueAt(tokens: Pick<OAuthTokens, 'expiresAt' | 'issuedAt'>, fraction: number): number {
  if (tokens.issuedAt === undefined) return tokens.expiresAt - MAX_REFRESH_LEAD_MS;
  const lifetime = Math.max(0, tokens.expiresAt - tokens.issuedAt);
  return tokens.expiresAt - Math.min(lifetime * fraction, MAX_REFRESH_LEAD_MS);
}
