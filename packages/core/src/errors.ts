/**
 * The one error type of paykit. Every failure a caller can act on carries a stable
 * machine `code` (safe to switch on, never reworded) and a `message` written for a person.
 *
 * Codes, and what each one means:
 *
 * | code | meaning |
 * |---|---|
 * | `validation_failed` | a request body or argument broke a rule; `errors` names each field |
 * | `invalid_json` | a body was not well-formed JSON |
 * | `invalid_body` | a body was not well-formed for its `Content-Type` (a multipart/form-data body that does not parse) |
 * | `payload_too_large` | a body was over the size limit (checked before parsing) |
 * | `unsupported_media_type` | a body came with a `Content-Type` the route does not take |
 * | `duplicate_parameter` | a query or form parameter that must appear once appeared more often |
 * | `cross_site_request` | a state-changing request came from an origin that is not allowed |
 * | `unauthorized` | credentials were missing, wrong or revoked (HTTP 401) |
 * | `forbidden` | credentials were valid but lack the permission (HTTP 403) |
 * | `not_found` | the resource does not exist for these credentials |
 * | `method_not_allowed` | the route exists but not for this HTTP method |
 * | `conflict` | the resource is not in a state that allows the operation |
 * | `amount_mismatch` | the price the shopper saw differs from the price the merchant's backend decided |
 * | `event_not_confirmed` | a webhook claimed a state that the API does not confirm (yet) |
 * | `signature_missing` | a webhook came without its signature (`Hitpay-Signature`, or a notification's `hmac`) while a salt is configured (HTTP 401) |
 * | `signature_malformed` | a webhook's signature is not 64 hexadecimal characters (HTTP 401) |
 * | `signature_mismatch` | a webhook's signature is not what the configured salt makes of the bytes received: another salt, or a body changed on the way (HTTP 401) |
 * | `raw_body_unavailable` | a webhook's exact bytes were gone before paykit could check them (a body parser such as `express.json()` ran first): nothing was done (HTTP 500) |
 * | `rate_limited` | too many requests; `retryAfterSeconds` says when to try again |
 * | `upstream_error` | the Payments API answered with an error; `status` is its HTTP status |
 * | `upstream_invalid_response` | the Payments API answered 2xx with something that is not the expected JSON |
 * | `timeout` | a call took longer than its time limit and was aborted |
 * | `network_error` | a call could not reach its server at all |
 * | `api_unreachable` | the shop's server answered, but it could not reach the Payments API at its configured `apiBaseUrl` (HTTP 502; the server's log names the address) |
 * | `api_key_refused` | the shop's server answered, but the Payments API refused its API key (`apiKey`: another environment's, revoked, mistyped) (HTTP 502) |
 * | `store_unavailable` | the server's own database (connections, idempotency, webhook claims) could not be reached: nothing was done, try again shortly (HTTP 503) |
 * | `unsafe_url` | a URL was not one paykit may navigate to or send data to |
 * | `state_missing` | an OAuth callback came without `state`: nothing is sent anywhere |
 * | `state_unknown` | an OAuth callback's `state` was not issued by this browser tab's connect button |
 * | `state_expired` | an OAuth callback's `state` is older than ten minutes |
 * | `state_used` | an OAuth callback's `state` was already handled (a reload, Back, or a replay) |
 * | `access_denied` | the merchant declined the connection on the consent page |
 * | `issuer_mismatch` | an OAuth callback's `iss` is not the configured authorization server (RFC 9207 mix-up defence): the code is sent nowhere |
 * | `code_reused` | an authorization code this platform already exchanged or tried: it is not sent to the authorization server again |
 * | `popup_blocked` | the browser refused to open the connect popup (a popup blocker, a sandboxed frame): nothing was started there |
 * | `insecure_context` | the page is not a secure context (plain http on an address other than localhost), so the browser gives it no Web Crypto (`crypto.subtle`), which connecting needs (PKCE): nothing was started |
 * | `popup_closed` | the merchant closed the connect popup before the authorization server sent them back: nothing was connected |
 * | `navigation_blocked` | a button inside a frame could neither take the top window to the checkout (or the authorization page) nor open it in a new tab: the frame's sandbox refuses both, or the browser refused the new tab after the backend's answer (the next click opens it) |
 * | `request_timeout` | a request body did not arrive within the server's read deadline (HTTP 408) |
 * | `internal_error` | a bug in paykit or in a hook; details are logged, never sent |
 */
export type ErrorCode =
  | 'validation_failed'
  | 'invalid_json'
  | 'invalid_body'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'duplicate_parameter'
  | 'cross_site_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'amount_mismatch'
  | 'event_not_confirmed'
  | 'signature_missing'
  | 'signature_malformed'
  | 'signature_mismatch'
  | 'raw_body_unavailable'
  | 'rate_limited'
  | 'upstream_error'
  | 'upstream_invalid_response'
  | 'timeout'
  | 'network_error'
  | 'api_unreachable'
  | 'api_key_refused'
  | 'store_unavailable'
  | 'unsafe_url'
  | 'state_missing'
  | 'state_unknown'
  | 'state_expired'
  | 'state_used'
  | 'access_denied'
  | 'issuer_mismatch'
  | 'code_reused'
  | 'popup_blocked'
  | 'popup_closed'
  | 'navigation_blocked'
  | 'insecure_context'
  | 'request_timeout'
  | 'internal_error';

/** One broken rule of one field. `path` is dotted (`payment_methods.2`); `(body)` means the whole body. */
export interface FieldError {
  readonly path: string;
  readonly message: string;
}

/** The JSON body of every paykit HTTP error, and what {@link errorBody} returns. */
export interface ErrorBody {
  message: string;
  code: string;
  errors?: FieldError[];
}

/** Options of {@link PaykitError}. */
export interface PaykitErrorOptions {
  /**
   * The HTTP status this error came with (an answer that was read). An error that becomes an answer gets its
   * status from its code (`httpStatusOf` in `@paykit/core`), not from here.
   */
  status?: number;
  /** Field errors, for `validation_failed`. */
  errors?: readonly FieldError[];
  /** Seconds to wait before trying again, for `rate_limited` (from `Retry-After`). */
  retryAfterSeconds?: number;
  /** The underlying error. Never sent over the network. */
  cause?: unknown;
}

/**
 * The base class of every error paykit throws on purpose.
 *
 * @example
 * ```ts
 * try { await api.createPaymentRequest(body) }
 * catch (e) { if (e instanceof PaykitError && e.code === 'validation_failed') showFieldErrors(e.errors) }
 * ```
 */
export class PaykitError extends Error {
  // `declare`: the constructor sets each of these; field declarations would only repeat the names in the bundle
  // every shopper downloads (the browser build of the elements), and Safari 15.4 needs class fields lowered.
  declare readonly name: string;
  /** Stable machine code: see the table on {@link ErrorCode}. */
  declare readonly code: ErrorCode;
  /** HTTP status this error came with or maps to, when there is one. */
  declare readonly status: number | undefined;
  /** Field errors, for `validation_failed`. */
  declare readonly errors: readonly FieldError[] | undefined;
  /** Seconds to wait before trying again, for `rate_limited`. */
  declare readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: PaykitErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PaykitError';
    this.code = code;
    this.status = options.status;
    this.errors = options.errors;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * The error as an HTTP body: `{ message, code, errors? }`. Never includes `cause`. A function rather than the
 * class's `toJSON`: a method ships in every browser bundle that has the class (the elements), a function only
 * where it is called (the server's handler).
 */
export function errorBody(error: PaykitError): ErrorBody {
  const body: ErrorBody = { message: error.message, code: error.code };
  if (error.errors?.length) body.errors = [...error.errors];
  return body;
}

/** True when `value` is a {@link PaykitError}, optionally with the given code. */
export function isPaykitError(value: unknown, code?: ErrorCode): value is PaykitError {
  return value instanceof PaykitError && (code === undefined || value.code === code);
}
