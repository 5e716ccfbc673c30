/**
 * The one error type of paykit: a stable machine `code` (safe to switch on, never reworded) and a `message`
 * written for a person. Each code's meaning is beside it in {@link ErrorCode}, its HTTP status in
 * `http-status.ts`; the shape follows oauth4webapi's coded errors (https://github.com/panva/oauth4webapi).
 */

/** What went wrong, for code to switch on. */
export type ErrorCode =
  | 'validation_failed' // a body or argument broke a rule; `errors` names each field
  | 'invalid_json' // a body was not well-formed JSON
  | 'invalid_body' // a body was not well-formed for its Content-Type (a multipart body that does not parse)
  | 'payload_too_large' // a body was over the size limit (checked before parsing)
  | 'unsupported_media_type' // a body's Content-Type is not one the route takes
  | 'duplicate_parameter' // a query or form parameter that must appear once appeared more often
  | 'cross_site_request' // a state-changing request came from an origin that is not allowed
  | 'unauthorized' // credentials missing, wrong or revoked
  | 'forbidden' // valid credentials without the permission
  | 'not_found' // no such resource for these credentials
  | 'method_not_allowed' // the route exists, not for this method
  | 'conflict' // the resource's state does not allow the operation
  | 'amount_mismatch' // the price the shopper saw is not the one the merchant's backend decided
  | 'checkout_misconfigured' // the shop's own price cannot be charged (a currency the API does not take, decimals the currency has not, not the page's currency): its log says which
  | 'event_not_confirmed' // a webhook claimed a state the API does not confirm (yet)
  | 'signature_missing' // no signature (`Hitpay-Signature`, a notification's `hmac`) on a webhook while a salt is set
  | 'signature_malformed' // a webhook signature that is not 64 hexadecimal characters
  | 'signature_mismatch' // a webhook signature the salt does not make of the bytes received
  | 'raw_body_unavailable' // a body parser (`express.json()`) ate a webhook's bytes before the check: nothing done
  | 'rate_limited' // too many requests; `retryAfterSeconds` says when to try again
  | 'upstream_error' // the Payments API answered with an error; `status` is its status
  | 'upstream_invalid_response' // the Payments API answered 2xx with something that is not the expected JSON
  | 'timeout' // a call outlived its time limit and was aborted
  | 'network_error' // a call could not reach its server
  | 'api_unreachable' // the shop's server could not reach the Payments API at `apiBaseUrl` (its log names it)
  | 'api_key_refused' // the Payments API refused the shop's `apiKey` (another environment's, revoked, mistyped)
  | 'store_unavailable' // the server's own database did not answer: nothing done, try again shortly
  | 'unsafe_url' // a URL paykit may not navigate to or send data to
  | 'state_missing' // an OAuth callback without `state`: nothing sent
  | 'state_unknown' // an OAuth callback's `state` this tab's connect button did not issue
  | 'state_expired' // an OAuth callback's `state` older than ten minutes
  | 'state_used' // an OAuth callback's `state` already handled (a reload, Back, a replay)
  | 'access_denied' // the merchant declined on the consent page
  | 'issuer_mismatch' // the callback's `iss` is not the configured server (RFC 9207 mix-up defence): code sent nowhere
  | 'code_reused' // an authorization code already exchanged or tried: not sent again
  | 'popup_blocked' // the browser refused to open the connect popup: nothing started
  | 'popup_closed' // the merchant closed the connect popup before coming back: nothing connected
  | 'navigation_blocked' // a framed button could neither take the top window nor open a tab (the frame's sandbox)
  | 'insecure_context' // plain http off localhost: no Web Crypto for PKCE, nothing started
  | 'request_timeout' // a request body did not arrive within the server's read deadline
  | 'view_refused' // the platform's `merchantView` hook does not let this caller see this merchant: no API call
  | 'refund_refused' // the platform's `merchantView` hook does not let this caller refund for this merchant
  | 'merchant_not_connected' // the platform holds no connection to this merchant: connect it first
  | 'merchant_connection_ended' // the service no longer takes the merchant's connection (expired, revoked): connect again
  | 'idempotency_key_invalid' // a route that needs an `Idempotency-Key` got none, or one that is not 8 to 128 of [A-Za-z0-9_-]
  | 'internal_error'; // a bug in paykit or in a hook; details are logged, never sent

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

/**
 * Where an error comes from: `local` when paykit decided it (a check, a limit, a refusal of what it was given),
 * `upstream` when a service it called did (the Payments API, an OAuth server; for the elements, the merchant's
 * backend), with or without an answer.
 */
export type ErrorOrigin = 'local' | 'upstream';

/** Options of {@link PaykitError}. */
export interface PaykitErrorOptions {
  /**
   * The HTTP status of the upstream answer this error was read from; it makes the error `upstream`. paykit's own
   * errors have none: an error that becomes an answer gets its status from its code (`httpStatusOf`).
   */
  status?: number;
  /** Where the error comes from, for an upstream that gave no answer to read (unreachable, timed out). */
  origin?: ErrorOrigin;
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
  /** Stable machine code: each one's meaning is on {@link ErrorCode}. */
  declare readonly code: ErrorCode;
  /** Where the error comes from: see {@link ErrorOrigin}. */
  declare readonly origin: ErrorOrigin;
  /** The HTTP status of the upstream answer this error was read from; `undefined` for a local error. */
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
    this.origin = options.origin ?? (options.status === undefined ? 'local' : 'upstream');
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
