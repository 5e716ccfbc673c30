/**
 * The platform's side of the OAuth 2.0 authorization-code flow (spec 4.8, RFC 6749): code exchange and refresh,
 * built on oauth4webapi, which checks the token responses. It works with the spec's server (the default: the
 * token endpoint under `apiBaseUrl`, the client secret in the form body) and with any standard one, whose
 * metadata it reads from `issuer` ({@link authorizationServer}) and whose client authentication is an option
 * ({@link ClientAuthentication}).
 *
 * Security defaults: PKCE is required (RFC 9700 section 2.1.1); an authorization response's `iss` must name the
 * configured issuer (RFC 9207); both are checked before anything is sent. Every secret that passes through is
 * remembered for the redacting logger.
 */
import * as oauth from 'oauth4webapi';
import { z } from 'zod';
import { isLoopbackHost, PaykitError, pkceValue, tokenResponseSchema } from '@paykit/core';
import { readRetryAfter } from '../api/transport.js';
import { rememberSecret } from '../secrets.js';
import {
  authorizationServer,
  type AuthorizationServerSource,
  type DiscoveryAlgorithm,
  type OAuthEndpoints,
} from './authorization-server.js';
import { clientAuthentication, type ClientAuthentication } from './client-authentication.js';
import type { OAuthTokens } from './connection-store.js';
import { checkRefreshAhead, refreshDueAt } from './refresh-lead.js';
import { MemoryTokenBudget, type TokenBudget } from './token-budget.js';

/** Options of {@link createOAuthClient}. */
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

/** Per-request options of {@link OAuthClient.refresh}. */
export interface TokenRequestOptions {
  /**
   * Runs after any wait for the budget, just before the request leaves; throwing stops it there. A refresh
   * lease is confirmed here, so that a lease never lapses while its holder's request is in flight.
   */
  beforeSend?(): Promise<void>;
}

/** What the browser brought back from the authorization server, for {@link OAuthClient.exchangeCode}. */
export interface CodeExchangeInput {
  code: string;
  /** The PKCE verifier the browser kept. Required unless `unsafeAllowMissingPkce`. */
  codeVerifier?: string;
  redirectUri: string;
  /** The `iss` of the authorization response (RFC 9207), when the server sent one. */
  iss?: string;
}

/** Per-request options of {@link OAuthClient.exchangeCode}. */
export interface CodeExchangeOptions {
  /**
   * Runs once every check of the response has passed and before the token budget is waited for, so that a
   * refusal here (a code this platform already tried) costs no budget and sends nothing.
   */
  beforeRequest?(): Promise<void>;
}

/** Exchanges codes and refreshes tokens. */
export interface OAuthClient {
  /**
   * Exchanges an authorization code for tokens. Before anything is sent to the token endpoint: refuses a
   * missing verifier (`validation_failed`, unless `unsafeAllowMissingPkce`), then an `iss` that is not the
   * issuer, or a missing one when the server promises it (`issuer_mismatch`), then runs `beforeRequest`.
   */
  exchangeCode(input: CodeExchangeInput, options?: CodeExchangeOptions): Promise<OAuthTokens>;
  /**
   * Gets a fresh access token. `unauthorized` when the refresh token is no longer valid (revocation). When the
   * server sends no new refresh token the old one is kept (RFC 6749 section 6).
   */
  refresh(refreshToken: string, options?: TokenRequestOptions): Promise<OAuthTokens>;
  /** When `tokens` should be refreshed, in milliseconds since the epoch (see `refreshAhead`). */
  refreshDueAt(tokens: Pick<OAuthTokens, 'expiresAt' | 'issuedAt'>): number;
  /** The issuer identifier an authorization response's `iss` must equal. */
  readonly issuer: string;
  /** The time limit of one token request, in milliseconds. */
  readonly timeoutMs: number;
}

/** The spec's token response (2.8), with the refresh token optional as RFC 6749 section 5.1 has it. */
const tokenResponse = tokenResponseSchema.extend({ refresh_token: z.string().min(1).optional() });

/** A client of the authorization server's token endpoint. Throws `validation_failed` naming a bad option. */
export function createOAuthClient(options: OAuthClientOptions): OAuthClient {
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

  const requestOptions = (as: oauth.AuthorizationServer): oauth.TokenEndpointRequestOptions => ({
    signal: AbortSignal.timeout(timeoutMs),
    ...(options.fetch ? { [oauth.customFetch]: options.fetch } : {}),
    // oauth4webapi refuses plain http; a token endpoint on this machine (the local sandbox) is the one exception.
    ...(isLoopbackHost(new URL(as.token_endpoint!).hostname) ? { [oauth.allowInsecureRequests]: true } : {}),
  });

  /** Sends one token request, waiting out the budget and at most `maxRateLimitRetries` 429s. */
  async function tokenRequest(
    send: () => Promise<Response>,
    process: (response: Response) => Promise<oauth.TokenEndpointResponse>,
    failure: (error: unknown) => PaykitError,
    beforeSend?: () => Promise<void>,
  ): Promise<OAuthTokens> {
    for (let rateLimited = 0; ; rateLimited += 1) {
      await budget.acquire(options.clientId);
      await beforeSend?.();
      const sentAt = Date.now();
      let response: Response;
      try {
        response = await send();
      } catch (error) {
        throw networkFailure(error);
      }
      if (response.status === 429) {
        const waitMs = (readRetryAfter(response.headers.get('retry-after')) ?? 60) * 1000;
        await budget.pause(options.clientId, waitMs);
        if (waitMs > maxRetryAfterMs || rateLimited >= maxRateLimitRetries) {
          throw new PaykitError('rate_limited', 'The token endpoint is rate limited; try again later', {
            status: 429,
            retryAfterSeconds: waitMs / 1000,
          });
        }
        continue;
      }
      let result: oauth.TokenEndpointResponse;
      try {
        result = await process(response);
      } catch (error) {
        throw failure(error);
      }
      const parsed = tokenResponse.safeParse(result);
      if (!parsed.success) {
        throw new PaykitError(
          'upstream_invalid_response',
          'The token endpoint answered without the tokens of spec 2.8 (token_type Bearer, access_token, expires_in)',
        );
      }
      rememberSecret(parsed.data.access_token);
      rememberSecret(parsed.data.refresh_token);
      // Counted from when the request left: the token cannot have been issued before, so it never looks
      // longer-lived than it is.
      return {
        accessToken: parsed.data.access_token,
        ...(parsed.data.refresh_token === undefined ? {} : { refreshToken: parsed.data.refresh_token }),
        issuedAt: sentAt,
        expiresAt: sentAt + parsed.data.expires_in * 1000,
        ...(parsed.data.scope === undefined ? {} : { scope: parsed.data.scope }),
      };
    }
  }

  return {
    async exchangeCode(input, exchangeOptions) {
      const { code, codeVerifier, redirectUri, iss } = input;
      rememberSecret(code);
      rememberSecret(codeVerifier);
      if (typeof code !== 'string' || code.length === 0) {
        throw new PaykitError('validation_failed', 'The authorization code is missing', {
          errors: [{ path: 'code', message: 'is required' }],
        });
      }
      if (codeVerifier === undefined || codeVerifier === '') {
        if (options.unsafeAllowMissingPkce !== true) {
          throw new PaykitError(
            'validation_failed',
            'The code exchange needs the PKCE code verifier of the authorization request',
            { errors: [{ path: 'code_verifier', message: 'is required' }] },
          );
        }
      } else {
        // Checked here, before the platform spends the code in its ledger: a malformed verifier (RFC 7636 4.1)
        // could never succeed, so it must not cost the merchant their one try.
        const format = pkceValue.safeParse(codeVerifier);
        if (!format.success) {
          const message = format.error.issues[0]?.message ?? 'is not a PKCE code verifier';
          throw new PaykitError('validation_failed', `The PKCE code verifier ${message}`, {
            errors: [{ path: 'code_verifier', message }],
          });
        }
      }
      const as = await server.metadata();
      const callback = checkIssuer(as, client, code, iss);
      await exchangeOptions?.beforeRequest?.();
      return tokenRequest(
        () =>
          oauth.authorizationCodeGrantRequest(
            as,
            client,
            auth,
            callback,
            redirectUri,
            codeVerifier || oauth.nopkce,
            requestOptions(as),
          ),
        (response) => oauth.processAuthorizationCodeResponse(as, client, response),
        exchangeFailure,
      );
    },
    async refresh(refreshToken, refreshOptions) {
      rememberSecret(refreshToken);
      const as = await server.metadata();
      const tokens = await tokenRequest(
        () => oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, requestOptions(as)),
        (response) => oauth.processRefreshTokenResponse(as, client, response),
        refreshFailure,
        refreshOptions?.beforeSend,
      );
      // RFC 6749 section 6: without a new refresh token, the one just used stays valid.
      return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
    },
    refreshDueAt: (tokens) => refreshDueAt(tokens, refreshAhead),
    issuer: server.issuer,
    timeoutMs,
  };
}

/**
 * RFC 9207: an `iss` that is not the issuer is always refused (the code came from another server: a mix-up);
 * a missing one is refused when the server's metadata promises it on every response.
 */
function checkIssuer(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  code: string,
  iss: string | undefined,
): URLSearchParams {
  const parameters = new URLSearchParams({ code });
  if (iss !== undefined) parameters.set('iss', iss);
  try {
    // The browser checked `state` against its own record before sending the code here.
    return oauth.validateAuthResponse(as, client, parameters, oauth.skipStateCheck);
  } catch (error) {
    if (iss === undefined) {
      throw new PaykitError(
        'issuer_mismatch',
        `The authorization response has no "iss", but the issuer ${as.issuer} sends it on every response (RFC 9207)`,
        { cause: error },
      );
    }
    if (iss !== as.issuer) {
      throw new PaykitError(
        'issuer_mismatch',
        `The authorization response was issued by ${iss}, not by the configured issuer ${as.issuer}`,
        { cause: error },
      );
    }
    throw new PaykitError('validation_failed', 'The authorization response is not one a code can come with', {
      cause: error,
    });
  }
}

/** A refused refresh: `invalid_grant` is revocation (the merchant must connect again). */
function refreshFailure(error: unknown): PaykitError {
  return tokenFailure(error, 'The authorization is no longer valid', '; connect the merchant again');
}

/**
 * A refused code exchange. The callback route answers the browser in the shop's own words; the upstream's
 * words stay in this message and its cause, for the log.
 */
function exchangeFailure(error: unknown): PaykitError {
  return tokenFailure(error, 'The token endpoint refused the authorization code', '');
}

/** An OAuth error answer, in words a platform developer can act on; the secret and the code stay out. */
function tokenFailure(error: unknown, invalidGrant: string, advice: string): PaykitError {
  if (error instanceof oauth.ResponseBodyError) {
    const described = `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
    if (error.error === 'invalid_grant') {
      return new PaykitError('unauthorized', `${invalidGrant} (${described})${advice}`, {
        status: error.status,
        cause: error,
      });
    }
    if (error.error === 'invalid_client') {
      return new PaykitError('unauthorized', `The token endpoint refused the client credentials (${described})`, {
        status: error.status,
        cause: error,
      });
    }
    return new PaykitError('upstream_error', `The token endpoint refused the request (${described})`, {
      status: error.status,
      cause: error,
    });
  }
  return new PaykitError(
    'upstream_invalid_response',
    'The token endpoint answered with something that is not a token response',
    { cause: error },
  );
}

function networkFailure(error: unknown): PaykitError {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return new PaykitError('timeout', 'The token endpoint did not answer in time', { cause: error });
  }
  return new PaykitError('network_error', 'Could not reach the token endpoint', { cause: error });
}
