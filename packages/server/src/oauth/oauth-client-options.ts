/**
 * The options of `createOAuthClient`, and their checks: a bad option is refused with `validation_failed`
 * naming it when the client is created, not at its first token request.
 */
import type * as oauth from 'oauth4webapi';
import { PaykitError } from '@paykit/core';
import {
  authorizationServer,
  type AuthorizationServerSource,
  type DiscoveryAlgorithm,
  type OAuthEndpoints,
} from './authorization-server.js';
import { clientAuthentication, type ClientAuthentication } from './client-authentication.js';
import { checkRefreshAhead } from './refresh-lead.js';
import { MemoryTokenBudget, type TokenBudget } from './token-budget.js';
import type { TokenEndpoint } from './token-request.js';

/** Options of `createOAuthClient`. */
export interface OAuthClientOptions {
  /**
   * The API's base URL. Without `issuer` it is the issuer identifier (without a trailing slash) and the token
   * endpoint is `{apiBaseUrl}/v1/open/oauth/token` (spec 4.8).
   */
  apiBaseUrl: string;
  /**
   * The authorization server's issuer identifier. When given, its metadata (RFC 8414, or OpenID discovery with
   * `discovery: 'oidc'`) is read on first use and must name this issuer; its token endpoint is used.
   */
  issuer?: string;
  /** Which metadata document `issuer` has: `oauth2` (RFC 8414, default) or `oidc`. */
  discovery?: DiscoveryAlgorithm;
  /** Endpoints given outright; they override the metadata and the spec's defaults. */
  endpoints?: OAuthEndpoints;
  clientId: string;
  /**
   * The client secret: needed by `client_secret_post` and `client_secret_basic`, not by `private_key_jwt`.
   * Server-side only; never logged, never in an error message.
   */
  clientSecret?: string;
  /** How the client authenticates to the token endpoint. Default `client_secret_post` (spec 4.8). */
  clientAuthentication?: ClientAuthentication;
  /**
   * UNSAFE: accept a code exchange without a PKCE verifier. Without PKCE a code taken from a browser history
   * or a log can be replayed, or injected into another merchant's session (RFC 9700 section 4.5). Only for an
   * authorization server that cannot do PKCE; a warning is logged once when the client is created.
   */
  unsafeAllowMissingPkce?: boolean;
  /** Where the warning of `unsafeAllowMissingPkce` goes. Default `console`. */
  logger?: { warn(message: string): void };
  /**
   * How long before expiry a token is refreshed, as a fraction of its lifetime (above 0, at most 0.5), never
   * more than 5 minutes. Default 0.1: a 5-minute token is refreshed 30 s before it expires.
   */
  refreshAhead?: number;
  /**
   * The token endpoint's request budget, shared by every instance when it is a database
   * (`stores.tokenBudget` of `createPostgresStores`). Default: in this process's memory, `maxRequestsPerMinute`.
   */
  tokenBudget?: TokenBudget;
  /** Requests a minute to the token endpoint, for the default in-memory budget. Default 90 (spec 8). */
  maxRequestsPerMinute?: number;
  /** The longest `Retry-After` worth waiting for on a 429 before failing with `rate_limited`. Default 60 s. */
  maxRetryAfterMs?: number;
  /** How many 429 answers in a row are waited out before failing with `rate_limited`. Default 2. */
  maxRateLimitRetries?: number;
  /** Time limit of each token request (and of the metadata request). Default 10 s. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** What a client works with once its options are checked. */
export interface OAuthClientSettings {
  readonly server: AuthorizationServerSource;
  readonly client: oauth.Client;
  readonly auth: oauth.ClientAuth;
  readonly refreshAhead: number;
  readonly endpoint: TokenEndpoint;
}

/**
 * Checks `options` in the order they are reported, fills in the defaults, and warns once when
 * `unsafeAllowMissingPkce` is on.
 */
export function readOAuthClientOptions(options: OAuthClientOptions): OAuthClientSettings {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const server: AuthorizationServerSource = authorizationServer({
    apiBaseUrl: options.apiBaseUrl,
    issuer: options.issuer,
    discovery: options.discovery,
    endpoints: options.endpoints,
    timeoutMs,
    fetch: options.fetch,
  });
  if (typeof options.clientId !== 'string' || options.clientId.length === 0) {
    throw new PaykitError('validation_failed', '"clientId" must be a non-empty string', {
      errors: [{ path: 'clientId', message: 'must be a non-empty string' }],
    });
  }
  const client: oauth.Client = { client_id: options.clientId };
  const auth = clientAuthentication(options.clientAuthentication, options.clientSecret);
  const refreshAhead = checkRefreshAhead(options.refreshAhead);
  const budget = options.tokenBudget ?? new MemoryTokenBudget({ perMinute: options.maxRequestsPerMinute ?? 90 });
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const maxRateLimitRetries = options.maxRateLimitRetries ?? 2;
  if (!(Number.isInteger(maxRateLimitRetries) && maxRateLimitRetries >= 0)) {
    throw new PaykitError('validation_failed', '"maxRateLimitRetries" must be a whole number of 0 or more', {
      errors: [{ path: 'maxRateLimitRetries', message: 'must be a whole number of 0 or more' }],
    });
  }
  if (options.unsafeAllowMissingPkce === true) {
    (options.logger ?? console).warn(
      'paykit: unsafeAllowMissingPkce is on: authorization codes are exchanged without PKCE, so a code taken ' +
        "from a browser history or a log can be replayed or injected into another merchant's connection",
    );
  }
  return {
    server,
    client,
    auth,
    refreshAhead,
    endpoint: {
      clientId: options.clientId,
      budget,
      maxRetryAfterMs,
      maxRateLimitRetries,
      timeoutMs,
      fetch: options.fetch,
    },
  };
}
