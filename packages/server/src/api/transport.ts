/**
 * One call to the Payments API: credentials, time limit, retries of reads, and strict reading of the answer.
 * Every failure becomes a {@link PaykitError} with a stable code; nothing secret goes into its message.
 */
import {
  encodeForm,
  errorBodySchema,
  PaykitError,
  pathSegmentProblem,
  toFieldErrors,
  type ErrorCode,
  type PaykitErrorOptions,
} from '@paykit/core';
import type * as z from 'zod';
import { isApiKeyAuth, type ResolvedApiConfig } from './config.js';
import { isCloudflareWorkers } from '../runtime.js';
import { sleep } from '../sleep.js';

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call (on top of its time limit). */
  signal?: AbortSignal;
}

/** What to call. */
export interface Operation<S extends z.ZodType> {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /**
   * Path segments after the base URL; each is URL-encoded, and one that is empty, `.`, `..` or holds a slash is
   * refused (`validation_failed`), so an id can never change the route.
   */
  path: readonly string[];
  query?: Record<string, string | number | undefined>;
  /** A body to send; form-encoded or JSON as configured (or as `encoding` says). */
  body?: Record<string, unknown>;
  encoding?: 'form' | 'json';
  /**
   * Whether a failed call may be sent again: `safe` for reads, `never` for creates and other writes (the API
   * has no idempotency keys). Default: `safe` for GET only. The operation table's `retry` column gives it.
   */
  retry?: 'safe' | 'never';
  /** How to read a 2xx answer. */
  schema: S;
}

/**
 * What the handler needs to tell an unreachable API or a refused API key from any other failure, by error: the
 * API's origin (the configured `apiBaseUrl`'s), the call, and for an unreachable API the system's reason
 * (`ECONNREFUSED`, `ENOTFOUND`). Carried by the error ({@link ApiCallError}), whose code stays the one a
 * client's callers always saw (`network_error`, `unauthorized`): only the handler re-labels them (see
 * `asUpstreamFailure`).
 */
export interface ApiFailure {
  readonly kind: 'unreachable' | 'key_refused';
  /** The origin of `apiBaseUrl`. */
  readonly origin: string;
  /** `GET /v1/info` and the like. */
  readonly call: string;
  /** Why the connection failed (`ECONNREFUSED`), when the runtime says. */
  readonly reason?: string | undefined;
}

/** A transport error that says how the API failed: unreachable, or refusing the API key. */
export class ApiCallError extends PaykitError {
  declare readonly failure: ApiFailure;

  constructor(code: ErrorCode, message: string, options: PaykitErrorOptions, failure: ApiFailure) {
    super(code, message, options);
    this.failure = failure;
  }
}

/** The {@link ApiFailure} of an error the transport threw, if it was an unreachable API or a refused API key. */
export function apiFailureOf(error: unknown): ApiFailure | undefined {
  return error instanceof ApiCallError ? error.failure : undefined;
}

/** The system's code of a failed fetch (undici puts it on `cause`), such as `ECONNREFUSED`. */
export function systemReason(error: unknown): string | undefined {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 4; at = at.cause, depth += 1) {
    const code = 'code' in at ? at.code : undefined;
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
  }
  return undefined;
}

/** Statuses the API answers with, and the code each becomes. */
const CODE_BY_STATUS: Record<number, ErrorCode> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'validation_failed',
  429: 'rate_limited',
};

/** Calls the API once (or, for reads, a few times) and returns the parsed answer. */
export async function callApi<S extends z.ZodType>(
  config: ResolvedApiConfig,
  operation: Operation<S>,
  options: CallOptions = {},
): Promise<z.output<S>> {
  const url = new URL(config.baseUrl);
  url.pathname = `${url.pathname.replace(/\/$/, '')}/${operation.path.map(pathSegment).join('/')}`;
  for (const [name, value] of Object.entries(operation.query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  const retries = (operation.retry ?? (operation.method === 'GET' ? 'safe' : 'never')) === 'safe';
  let waited = 0;
  for (let attempt = 1; ; attempt += 1) {
    // Outside the retries: a failure of the credentials themselves (a refresh that another instance held past
    // twice its lease, a store that is down) already waited as long as it should.
    const headers = await credentialHeaders(config);
    try {
      return await attemptOnce(config, operation, url, options, headers);
    } catch (error) {
      if (!retries || !(error instanceof PaykitError) || !isTransient(error) || attempt >= config.retry.attempts)
        throw error;
      const backoff = Math.random() * config.retry.baseDelayMs * 2 ** (attempt - 1);
      const delay = Math.max(backoff, (error.retryAfterSeconds ?? 0) * 1000);
      if (waited + delay > config.retry.budgetMs) throw error;
      waited += delay;
      await sleep(delay, options.signal);
    }
  }
}

/**
 * One segment of the path, URL-encoded. Every call's path passes here: a segment that is empty, `.`, `..` or holds
 * a slash would change the route (`GET /v1/payment-requests/..` is `GET /v1/`), so it is refused before a URL
 * is built. `expandPath` refuses such a parameter first, naming it; this holds for any other caller.
 */
function pathSegment(segment: string, index: number, path: readonly string[]): string {
  const problem = pathSegmentProblem(segment);
  if (problem === undefined) return encodeURIComponent(segment);
  const message = `segment ${index + 1} of the path ${problem}`;
  throw new PaykitError('validation_failed', `The API call to /${path.join('/')} was not sent: its ${message}`, {
    errors: [{ path: 'path', message }],
  });
}

/** A call's headers, with the credentials of `config.auth` (which may refresh a token, or throw). */
async function credentialHeaders(config: ResolvedApiConfig): Promise<Headers> {
  const headers = new Headers({ accept: 'application/json', 'x-requested-with': 'XMLHttpRequest' });
  await config.auth.apply(headers);
  if (config.platformKey) headers.set('x-platform-key', config.platformKey);
  return headers;
}

async function attemptOnce<S extends z.ZodType>(
  config: ResolvedApiConfig,
  operation: Operation<S>,
  url: URL,
  options: CallOptions,
  headers: Headers,
): Promise<z.output<S>> {
  let body: string | undefined;
  if (operation.body) {
    if ((operation.encoding ?? config.bodyEncoding) === 'json') {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(operation.body);
    } else {
      headers.set('content-type', 'application/x-www-form-urlencoded');
      body = encodeForm(operation.body).toString();
    }
  }
  // One controller, aborted by a plain timer or by the caller's signal: Node 20 makes AbortSignal.timeout and
  // AbortSignal.any costly (each signal is a transferable object; `any` follows its sources through weak refs).
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, config.timeoutMs);
  timer.unref?.();
  const outer = options.signal;
  const what = `${operation.method} /${operation.path.join('/')}`;
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  // Called bare, never as `config.fetch(...)`: workerd refuses its fetch called with any `this` but the global.
  const send = config.fetch;
  let response: Response;
  let text: string;
  try {
    // Redirects are never followed: following one would carry the API key header to wherever it points.
    response = await send(url, {
      method: operation.method,
      headers,
      body,
      signal: controller.signal,
      redirect: REDIRECT,
    });
    if (isRedirect(response)) {
      await response.body?.cancel().catch(() => undefined);
      throw redirected(response, url, what);
    }
    text = await response.text();
  } catch (error) {
    if (error instanceof PaykitError) throw error;
    if (!timedOut && !outer?.aborted && REDIRECT === 'error' && saysRedirect(error)) {
      throw redirected(await locate(send, url, operation.method, controller.signal), url, what);
    }
    if (timedOut) {
      throw new PaykitError('timeout', `The Payments API did not answer ${what} within ${config.timeoutMs} ms`, {
        cause: error,
        origin: 'upstream',
      });
    }
    if (outer?.aborted) throw outer.reason;
    const reason = systemReason(error);
    throw new ApiCallError(
      'network_error',
      `Could not reach the Payments API at ${url.origin} for ${what}${reason ? ` (${reason})` : ''}`,
      { cause: error, origin: 'upstream' },
      { kind: 'unreachable', origin: url.origin, call: what, reason },
    );
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', forward);
  }
  if (!response.ok) {
    throw await failure(config, response, text, what, url);
  }
  let json: unknown;
  try {
    // 204 No Content (a delete) has no body to parse.
    json = response.status === 204 && text === '' ? undefined : JSON.parse(text);
  } catch (error) {
    throw new PaykitError(
      'upstream_invalid_response',
      `The Payments API answered ${what} with ${response.status} but a body that is not JSON (${describe(response, text)})`,
      { status: response.status, cause: error },
    );
  }
  const parsed = operation.schema.safeParse(json);
  if (!parsed.success) {
    const errors = toFieldErrors(parsed.error);
    const first = errors[0];
    throw new PaykitError(
      'upstream_invalid_response',
      `The Payments API answered ${what} with an unexpected body: ${first?.path}: ${first?.message}`,
      { status: response.status, errors },
    );
  }
  return parsed.data;
}

async function failure(
  config: ResolvedApiConfig,
  response: Response,
  text: string,
  what: string,
  url: URL,
): Promise<PaykitError> {
  let apiBody: z.output<typeof errorBodySchema> | undefined;
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    if (parsed.success) apiBody = parsed.data;
  } catch {
    // not JSON: described below
  }
  const status = response.status;
  const code: ErrorCode = CODE_BY_STATUS[status] ?? 'upstream_error';
  const message = apiBody?.message ?? `The Payments API answered ${what} with ${status} (${describe(response, text)})`;
  const retryAfterSeconds =
    status === 429 || status === 503 ? readRetryAfter(response.headers.get('retry-after')) : undefined;
  if (status === 401) await config.auth.unauthorized?.();
  const options: PaykitErrorOptions = {
    status,
    ...(apiBody?.errors ? { errors: apiBody.errors } : {}),
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
  // A refused API key is said as such by the handler, naming the option to fix.
  return status === 401 && isApiKeyAuth(config.auth)
    ? new ApiCallError(code, message, options, { kind: 'key_refused', origin: url.origin, call: what })
    : new PaykitError(code, message, options);
}

/**
 * How calls meet a redirect. `'error'` wherever the runtime takes it: the Fetch standard clones the request (a tee
 * of its body stream) for any other mode, in case it is sent again, which costs the handler's create call about
 * 50 to 70 µs of CPU per request on Node 20 (`bench/cpu-per-request.ts`). workerd refuses `'error'`: there a 3xx is
 * answered `'manual'` and refused by the transport itself.
 */
const REDIRECT: 'error' | 'manual' = isCloudflareWorkers() ? 'manual' : 'error';

/**
 * How each runtime words a redirect refused under `redirect: 'error'`: undici on the cause ("unexpected redirect"),
 * Bun ("UnexpectedRedirect") and Deno ("Encountered redirect") on the error. The words, not "redirect" alone, which
 * a host name in a DNS failure may contain.
 */
const REFUSED_REDIRECT = /unexpected ?redirect|encountered redirect/i;

/** True when a fetch refused a redirect under `redirect: 'error'` (its error or a cause says {@link REFUSED_REDIRECT}). */
function saysRedirect(error: unknown): boolean {
  for (let at: unknown = error, depth = 0; at instanceof Error && depth < 3; at = at.cause, depth += 1) {
    if (REFUSED_REDIRECT.test(at.message)) return true;
  }
  return false;
}

/**
 * The redirect a call under `'error'` met, for its refusal to say where it pointed: asked once more with
 * `'manual'`, without the credentials or the body, so that nothing of the call is sent twice. Undefined when that
 * answer is no redirect (or no answer): the refusal then names no Location.
 */
async function locate(
  send: typeof fetch,
  url: URL,
  method: string,
  signal: AbortSignal,
): Promise<Response | undefined> {
  try {
    const answer = await send(url, { method, redirect: 'manual', signal });
    await answer.body?.cancel().catch(() => undefined);
    return isRedirect(answer) ? answer : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A 3xx answer (or a browser's opaque redirect, whose status reads 0). The API never redirects a call: a redirect
 * means a wrong `apiBaseUrl` (http to https, a moved host) or something in between, and it will not change by
 * asking again.
 */
function isRedirect(response: Response): boolean {
  return response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);
}

/**
 * The refusal of a redirect: where it pointed (its origin and path, never its query) for the log. `response` is the
 * 3xx, or undefined when the runtime refused it before anyone could read it.
 */
function redirected(response: Response | undefined, requested: URL, what: string): PaykitError {
  const location = response?.headers.get('location') ?? null;
  let target = 'no Location';
  if (location !== null) {
    try {
      const url = new URL(location, response?.url || requested);
      target = `to ${url.origin}${url.pathname}`;
    } catch {
      target = 'an unreadable Location';
    }
  }
  const status = response === undefined ? undefined : response.status || 'opaque';
  return new PaykitError(
    'upstream_invalid_response',
    `The Payments API answered ${what} with a redirect (${status === undefined ? '' : `${status}, `}${target}); ` +
      'redirects are not followed, so that the credentials go nowhere else: check that apiBaseUrl is the API itself',
    response ? { status: response.status } : {},
  );
}

/** Network errors, timeouts, 5xx and 429 may pass; anything else will fail the same way again. */
function isTransient(error: PaykitError): boolean {
  if (error.code === 'network_error' || error.code === 'timeout' || error.code === 'rate_limited') return true;
  return error.code === 'upstream_error' && (error.status ?? 0) >= 500;
}

/** `Retry-After` as seconds (delta-seconds or an HTTP date), capped at one hour. */
export function readRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.min(Math.max(seconds, 0), 3600) : undefined;
}

function describe(response: Response, text: string): string {
  const type = response.headers.get('content-type') ?? 'no content type';
  return text.length === 0 ? `empty, ${type}` : `${type}, ${text.length} bytes`;
}
