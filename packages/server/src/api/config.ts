/**
 * How the server reaches the Payments API: where, as whom, and how patiently.
 */
import { PaykitError, parseWebUrl } from '@paykit/core';
import { rememberSecret } from '../secrets.js';

/**
 * Supplies the credential headers of each call. An API key is one (see {@link apiKeyAuth}); an OAuth
 * connection is another, so merchants connected either way are used through the same client.
 */
export interface ApiAuth {
  /** Sets the credential headers (`X-BUSINESS-API-KEY` or `Authorization`) on an outgoing call. */
  apply(headers: Headers): void | Promise<void>;
  /**
   * Called when the API answered 401 to a call made with these credentials (spec 5.3.4: revocation).
   * The call still fails with an `unauthorized` error; it is never retried.
   */
  unauthorized?(): void | Promise<void>;
}

/** Retries of reads (GET): on network errors, timeouts, 5xx and 429, with jittered exponential backoff. */
export interface RetryPolicy {
  /** Attempts in all, the first included. Default 3. */
  attempts?: number;
  /** The first wait; each next one doubles, with full jitter. Default 200 ms. */
  baseDelayMs?: number;
  /** The most time spent waiting between attempts, over all retries of one call. Default 5 s. */
  budgetMs?: number;
}

/** Names of the list parameters, which the spec does not show (4.6): paykit's defaults, configurable. */
export interface PaginationNames {
  /** Default `cursor`. */
  cursorParam?: string;
  /** Default `per_page`. */
  pageSizeParam?: string;
}

/** Configuration of a client of the Payments API. */
export interface ApiConfig {
  /** The API's base URL: the live host, the sandbox host, or the local sandbox (`http://127.0.0.1:4010`). */
  apiBaseUrl: string;
  /** The business API key (`X-BUSINESS-API-KEY`). Give this or `auth`. */
  apiKey?: string;
  /** Other credentials, such as an OAuth connection. Give this or `apiKey`. */
  auth?: ApiAuth;
  /** The platform key (`X-PLATFORM-KEY`), sent with either credential (spec 5.1). */
  platformKey?: string;
  /** Time limit of each attempt. Default 10 s. */
  timeoutMs?: number;
  /** Retries of reads. Creates are never retried. */
  retry?: RetryPolicy;
  /** Body encoding of creates: the spec's `form` (default) or `json`. */
  bodyEncoding?: 'form' | 'json';
  /** Names of the list parameters. */
  pagination?: PaginationNames;
  /** The fetch to use (a proxy-aware one, say). Default the global `fetch`. */
  fetch?: typeof fetch;
}

/** {@link ApiConfig} with every default filled in and checked. */
export interface ResolvedApiConfig {
  baseUrl: URL;
  auth: ApiAuth;
  platformKey: string | undefined;
  timeoutMs: number;
  retry: Required<RetryPolicy>;
  bodyEncoding: 'form' | 'json';
  pagination: Required<PaginationNames>;
  fetch: typeof fetch;
}

/**
 * The credentials that are a business API key: a 401 answered to them means the key itself was refused (another
 * environment's, revoked, mistyped), which the handler tells apart from a revoked OAuth connection.
 */
const apiKeyAuths = new WeakSet<ApiAuth>();

/** True when `auth` sends a business API key (made by {@link apiKeyAuth}). */
export function isApiKeyAuth(auth: ApiAuth): boolean {
  return apiKeyAuths.has(auth);
}

/** Credentials from a business API key (spec 5.1). The key is remembered as a secret for the logs to mask. */
export function apiKeyAuth(apiKey: string): ApiAuth {
  rememberSecret(apiKey);
  const auth: ApiAuth = { apply: (headers) => headers.set('x-business-api-key', apiKey) };
  apiKeyAuths.add(auth);
  return auth;
}

/**
 * Checks a configuration and fills in the defaults; throws `validation_failed` naming the bad option. The API
 * key and the platform key are remembered as secrets, so that a handler given a client (not a configuration)
 * still masks them in its logs.
 */
export function resolveApiConfig(config: ApiConfig): ResolvedApiConfig {
  rememberSecret(config.apiKey);
  rememberSecret(config.platformKey);
  if (config.apiBaseUrl === undefined || config.apiBaseUrl === '')
    throw invalid(
      'apiBaseUrl',
      `is ${config.apiBaseUrl === '' ? 'empty' : 'missing'}: give the Payments API's base URL (such as ` +
        "process.env.PAYMENTS_API_URL; the local sandbox's is http://127.0.0.1:4010)",
    );
  const baseUrl = parseWebUrl(config.apiBaseUrl);
  if (!baseUrl) throw invalid('apiBaseUrl', 'must be an https URL (http only for localhost)');
  if (config.apiKey !== undefined && config.auth !== undefined) throw invalid('apiKey', 'give either apiKey or auth');
  if (config.apiKey !== undefined && (typeof config.apiKey !== 'string' || config.apiKey.length === 0)) {
    throw invalid('apiKey', 'must be a non-empty string (is the environment variable it is read from empty?)');
  }
  const auth = config.auth ?? (config.apiKey === undefined ? undefined : apiKeyAuth(config.apiKey));
  if (!auth)
    throw invalid(
      'apiKey',
      "is missing: give the business's API key (such as process.env.PAYMENTS_API_KEY; is that variable set " +
        'where this server starts?), or auth for other credentials',
    );
  const timeoutMs = config.timeoutMs ?? 10_000;
  if (!(timeoutMs > 0)) throw invalid('timeoutMs', 'must be a positive number of milliseconds');
  return {
    baseUrl,
    auth,
    platformKey: config.platformKey,
    timeoutMs,
    retry: { attempts: 3, baseDelayMs: 200, budgetMs: 5_000, ...config.retry },
    bodyEncoding: config.bodyEncoding ?? 'form',
    pagination: { cursorParam: 'cursor', pageSizeParam: 'per_page', ...config.pagination },
    fetch: bareFetch(config.fetch),
  };
}

/**
 * The configured fetch (or the global one) as a plain function that calls it with no `this`: workerd refuses its
 * `fetch` called as a method of anything but the global object ("Illegal invocation"), and a resolved
 * configuration is an object whose `fetch` a caller could otherwise call as `config.fetch(...)`.
 */
function bareFetch(given: typeof fetch | undefined): typeof fetch {
  if (given !== undefined && typeof given !== 'function') throw invalid('fetch', 'must be a function');
  const chosen = given ?? globalThis.fetch;
  return (input, init) => chosen(input, init);
}

function invalid(path: string, message: string): PaykitError {
  return new PaykitError('validation_failed', `"${path}" ${message}`, { errors: [{ path, message }] });
}
