/**
 * The one place where a failure becomes an HTTP answer. Bodies are `{ message, code, errors? }` (DESIGN.md), with
 * the status core's `httpStatusOf` gives the code (the sandbox answers by the same table); anything that is not a
 * {@link PaykitError} is a bug: it is logged and answered with a generic 500.
 */
import { errorBody, httpStatusOf, PaykitError, type ErrorCode } from '@paykit/core';
import { json } from './http.js';
import type { Logger } from './logger.js';

/** Turns any thrown value into a JSON error answer. */
export function errorResponse(error: unknown, logger: Logger): Response {
  if (error instanceof PaykitError && error.code !== 'internal_error') {
    const status = httpStatusOf(error.code);
    // The browser gets the shop's words; what actually happened upstream (the cause) goes to the shop's log.
    if (status >= 500) {
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
 * Re-labels a failure of the Payments API as the merchant backend's own upstream failure: the browser must
 * not see the API's 401 (the shop's credentials) as its own, nor the API's wording. `keep` lists codes that
 * mean the same thing to the browser (such as `not_found` for a reference that is not this shop's).
 */
export function asUpstreamFailure(error: unknown, message: string, keep: readonly ErrorCode[] = []): unknown {
  // The shop's own store being down (reading a merchant's credentials) is not the API's failure: it stays a 503.
  if (!(error instanceof PaykitError) || keep.includes(error.code) || error.code === 'store_unavailable') return error;
  if (error.code === 'timeout' || error.code === 'network_error')
    return new PaykitError(error.code, message, { cause: error });
  return new PaykitError('upstream_error', message, { cause: error });
}
