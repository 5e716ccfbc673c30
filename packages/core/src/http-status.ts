/**
 * The one table from an error's {@link ErrorCode} to the HTTP status it is answered with, shared by the server's
 * handler and the sandbox so that a code means the same status wherever paykit answers. It is exported from
 * `@paykit/core` only, not from `@paykit/core/browser`: the elements never answer HTTP requests, and a table in
 * the script-tag bundle would be bytes every shopper downloads for nothing.
 */
import type { ErrorCode } from './errors.js';

/**
 * Every code's status. A `Record` over the whole union, so that a new code cannot be added to {@link ErrorCode}
 * without choosing its status here. Codes that only the browser raises (`state_*`, `unsafe_url`,
 * `access_denied`, `popup_*`, `navigation_blocked`) never become an answer today; they have the status they would mean if one did.
 */
/** The statuses paykit answers errors with: literal numbers, which typed routers (Hono's) take as they are. */
export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 408 | 409 | 413 | 415 | 422 | 429 | 500 | 502 | 503 | 504;

const STATUS_BY_CODE: Readonly<Record<ErrorCode, ErrorStatus>> = {
  validation_failed: 422,
  invalid_json: 400,
  invalid_body: 400,
  duplicate_parameter: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  cross_site_request: 403,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  amount_mismatch: 409,
  checkout_misconfigured: 500,
  event_not_confirmed: 409,
  signature_missing: 401,
  signature_malformed: 401,
  signature_mismatch: 401,
  raw_body_unavailable: 500,
  rate_limited: 429,
  upstream_error: 502,
  upstream_invalid_response: 502,
  timeout: 504,
  network_error: 502,
  api_unreachable: 502,
  api_key_refused: 502,
  store_unavailable: 503,
  unsafe_url: 400,
  state_missing: 400,
  state_unknown: 400,
  state_expired: 400,
  state_used: 400,
  access_denied: 403,
  issuer_mismatch: 400,
  code_reused: 400,
  popup_blocked: 400,
  insecure_context: 400,
  popup_closed: 400,
  navigation_blocked: 400,
  request_timeout: 408,
  view_refused: 403,
  refund_refused: 403,
  merchant_not_connected: 409,
  merchant_connection_ended: 409,
  idempotency_key_invalid: 400,
  internal_error: 500,
};

/**
 * The HTTP status an error with this `code` is answered with (`validation_failed` is 422, `not_found` 404, ...).
 * The status follows from the code alone: code that throws a `PaykitError` names what went wrong, never a
 * number, and the one place that turns the error into a response asks this function.
 *
 * @example
 * ```ts
 * catch (error) {
 *   if (error instanceof PaykitError) return Response.json(errorBody(error), { status: httpStatusOf(error.code) });
 * }
 * ```
 */
export function httpStatusOf(code: ErrorCode): ErrorStatus {
  return STATUS_BY_CODE[code];
}
