/**
 * The one place where a failure becomes an HTTP answer. Bodies are `{ message, code, errors? }` (core's
 * `errorBody`), with the status core's `httpStatusOf` gives the code (the sandbox answers by the same table);
 * anything that is not a {@link PaykitError} is a bug: it is logged and answered with a generic 500.
 */
import { errorBody, httpStatusOf, PaykitError, type ErrorCode } from '@paykit/core';
import { apiFailureOf, type ApiFailure } from '../api/transport.js';
import type { Answer } from './exchange.js';
import { json } from './http.js';
import type { Logger } from './logger.js';

/** Turns any thrown value into a JSON error answer. */
export function errorResponse(error: unknown, logger: Logger): Answer {
  if (error instanceof PaykitError && error.code !== 'internal_error') {
    const status = httpStatusOf(error.code);
    // The browser gets the shop's words; what actually happened upstream (the cause) goes to the shop's log.
    const api =
      error.code === 'api_unreachable' || error.code === 'api_key_refused' ? apiFailureOf(error.cause) : undefined;
    // The API's failures and the shop's unchargeable prices are written by the handler's refusal notices.
    if (!api && status >= 500 && error.code !== 'checkout_misconfigured') {
      const message = `paykit: ${error.code}: ${error.message}`;
      if (error.cause === undefined) logger.warn(message);
      else logger.warn(message, error.cause);
    }
    const headers: Record<string, string> = {};
    if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfterSeconds));
    return json(errorBody(error), status, headers);
  }
  // A bug, or an `internal_error` (a stored connection no key opens, a missing option): its words are for the
  // shop's log, never for the browser.
  logger.error('paykit: unexpected error in the handler', error);
  return json({ message: 'Something went wrong on the shop’s server. Please try again.', code: 'internal_error' }, 500);
}

/**
 * The one log line of an unreachable API or a refused API key: what failed, where, and the setting to change (by
 * its option name: the key itself never, and the redacting logger masks it if a message quoted it).
 */
export function apiFailureLine(api: ApiFailure): string {
  return api.kind === 'unreachable'
    ? `paykit: api_unreachable: the Payments API could not be reached at ${api.origin} (${api.call}: ` +
        `${api.reason ?? 'no connection'}). Check apiBaseUrl (its origin is ${api.origin}) and that the API, or the ` +
        'local sandbox, is running and reachable from this server.'
    : `paykit: api_key_refused: the Payments API at ${api.origin} refused the API key (401 to ${api.call}). Check ` +
        `apiKey: it must be a business API key of the environment at ${api.origin} (a live key fails on the ` +
        'sandbox and the other way round; a regenerated key replaces the old one at once).';
}

/**
 * Re-labels a failure of the Payments API as the merchant backend's own upstream failure: the browser must
 * not see the API's 401 (the shop's credentials) as its own, nor the API's wording. `keep` lists codes that
 * mean the same thing to the browser (such as `not_found` for a reference that is not this shop's).
 */
export function asUpstreamFailure(error: unknown, message: string, keep: readonly ErrorCode[] = []): unknown {
  // The shop's own store being down (reading a merchant's credentials) is not the API's failure: it stays a 503.
  if (!(error instanceof PaykitError) || keep.includes(error.code) || error.code === 'store_unavailable') return error;
  // The API itself out of reach, or its refusal of the shop's key: codes of their own, so that the developer (the
  // development build of the elements, the log) is told which setting to check, not 'try again'.
  const api = apiFailureOf(error);
  if (api)
    return new PaykitError(api.kind === 'unreachable' ? 'api_unreachable' : 'api_key_refused', message, {
      cause: error,
    });
  if (error.code === 'timeout' || error.code === 'network_error')
    return new PaykitError(error.code, message, { cause: error });
  return new PaykitError('upstream_error', message, { cause: error });
}
