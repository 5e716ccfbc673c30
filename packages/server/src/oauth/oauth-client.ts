/**
 * The platform's side of the OAuth 2.0 authorization-code flow (spec 4.8): code exchange with PKCE and
 * refresh, built on oauth4webapi, which checks the token responses. Client credentials go in the form body
 * (`client_secret_post`), as the spec's token endpoint takes them.
 */
import * as oauth from 'oauth4webapi';
import { isLoopbackHost, PaykitError, parseWebUrl, tokenResponseSchema } from '@paykit/core';
import { readRetryAfter } from '../api/transport.js';
import type { OAuthTokens } from './connection-store.js';
import { MemoryTokenBudget, type TokenBudget } from './token-budget.js';

/** Options of {@link createOAuthClient}. */
export interface OAuthClientOptions {
  /** The API's base URL; the token endpoint is `{apiBaseUrl}/v1/open/oauth/token`. */
  apiBaseUrl: string;
  clientId: string;
  /** The client secret. Server-side only; never logged, never in an error message. */
  clientSecret: string;
  /**
   * The token endpoint's request budget, shared by every instance when it is a database
   * (`stores.tokenBudget` of `createPostgresStores`). Default: in this process's memory, `maxRequestsPerMinute`.
   */
  tokenBudget?: TokenBudget;
  /** Requests a minute to the token endpoint, for the default in-memory budget. Default 90 (spec 8). */
  maxRequestsPerMinute?: number;
  /** The longest `Retry-After` worth waiting for on a 429 before failing with `rate_limited`. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Time limit of each token request. Default 10 s. */
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

/** Exchanges codes and refreshes tokens. */
export interface OAuthClient {
  /** Exchanges an authorization code (with the PKCE verifier the browser kept) for tokens. */
  exchangeCode(input: { code: string; codeVerifier?: string; redirectUri: string }): Promise<OAuthTokens>;
  /** Gets a fresh access token. `unauthorized` when the refresh token is no longer valid (revocation). */
  refresh(refreshToken: string, options?: TokenRequestOptions): Promise<OAuthTokens>;
  /** The time limit of one token request, in milliseconds. */
  readonly timeoutMs: number;
}

/** A client of the token endpoint. */
export function createOAuthClient(options: OAuthClientOptions): OAuthClient {
  const base = parseWebUrl(options.apiBaseUrl);
  if (!base) throw new PaykitError('validation_failed', '"apiBaseUrl" must be an https URL (http only for localhost)');
  const tokenEndpoint = new URL(`${base.pathname.replace(/\/$/, '')}/v1/open/oauth/token`, base);
  const as: oauth.AuthorizationServer = { issuer: base.origin, token_endpoint: tokenEndpoint.href };
  const client: oauth.Client = { client_id: options.clientId };
  const auth = oauth.ClientSecretPost(options.clientSecret);
  const budget = options.tokenBudget ?? new MemoryTokenBudget({ perMinute: options.maxRequestsPerMinute ?? 90 });
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const requestOptions = (): oauth.TokenEndpointRequestOptions => ({
    signal: AbortSignal.timeout(timeoutMs),
    ...(options.fetch ? { [oauth.customFetch]: options.fetch } : {}),
    // oauth4webapi refuses plain http; the local sandbox is the one place where it is right.
    ...(isLoopbackHost(base.hostname) ? { [oauth.allowInsecureRequests]: true } : {}),
  });

  /** Sends one token request, waiting out the rate limit, and returns the checked tokens. */
  async function tokenRequest(
    send: () => Promise<Response>,
    process: (response: Response) => Promise<oauth.TokenEndpointResponse>,
    beforeSend?: () => Promise<void>,
  ): Promise<OAuthTokens> {
    for (;;) {
      await budget.acquire(options.clientId);
      await beforeSend?.();
      let response: Response;
      try {
        response = await send();
      } catch (error) {
        throw networkFailure(error);
      }
      if (response.status === 429) {
        const waitMs = (readRetryAfter(response.headers.get('retry-after')) ?? 60) * 1000;
        await budget.pause(options.clientId, waitMs);
        if (waitMs > maxRetryAfterMs) {
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
        throw tokenFailure(error);
      }
      const parsed = tokenResponseSchema.safeParse(result);
      if (!parsed.success) {
        throw new PaykitError(
          'upstream_invalid_response',
          'The token endpoint answered without the tokens of spec 2.8',
        );
      }
      return {
        accessToken: parsed.data.access_token,
        refreshToken: parsed.data.refresh_token,
        expiresAt: Date.now() + parsed.data.expires_in * 1000,
        ...(parsed.data.scope === undefined ? {} : { scope: parsed.data.scope }),
      };
    }
  }

  return {
    exchangeCode: ({ code, codeVerifier, redirectUri }) => {
      // The browser checked `state` against its own record before sending the code here.
      const callback = oauth.validateAuthResponse(as, client, new URLSearchParams({ code }), oauth.skipStateCheck);
      return tokenRequest(
        () =>
          oauth.authorizationCodeGrantRequest(
            as,
            client,
            auth,
            callback,
            redirectUri,
            codeVerifier ?? oauth.nopkce,
            requestOptions(),
          ),
        (response) => oauth.processAuthorizationCodeResponse(as, client, response),
      );
    },
    refresh: (refreshToken, refreshOptions) =>
      tokenRequest(
        () => oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, requestOptions()),
        (response) => oauth.processRefreshTokenResponse(as, client, response),
        refreshOptions?.beforeSend,
      ),
    timeoutMs,
  };
}

/** An OAuth error answer, in words a platform developer can act on; the secret and the code stay out. */
function tokenFailure(error: unknown): PaykitError {
  if (error instanceof oauth.ResponseBodyError) {
    const described = `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
    if (error.error === 'invalid_grant') {
      return new PaykitError(
        'unauthorized',
        `The authorization is no longer valid (${described}); connect the merchant again`,
        {
          status: error.status,
          cause: error,
        },
      );
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
    {
      cause: error,
    },
  );
}

function networkFailure(error: unknown): PaykitError {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return new PaykitError('timeout', 'The token endpoint did not answer in time', { cause: error });
  }
  return new PaykitError('network_error', 'Could not reach the token endpoint', { cause: error });
}
