/**
 * One request to the token endpoint (spec 4.8, RFC 6749 section 5): sent within the token budget, a 429 waited
 * out up to the limits, the answer checked against spec 2.8 and its tokens remembered for the redacting logger.
 */
import * as oauth from 'oauth4webapi';
import { z } from 'zod';
import { isLoopbackHost, PaykitError, tokenResponseSchema } from '@paykit/core';
import { readRetryAfter } from '../api/transport.js';
import { rememberSecret } from '../secrets.js';
import type { OAuthTokens } from './connection-store.js';
import type { TokenBudget } from './token-budget.js';
import { networkFailure } from './token-errors.js';

/** The token endpoint's limits as the client's options set them. */
export interface TokenEndpoint {
  readonly clientId: string;
  readonly budget: TokenBudget;
  readonly maxRetryAfterMs: number;
  readonly maxRateLimitRetries: number;
  readonly timeoutMs: number;
  readonly fetch?: typeof fetch | undefined;
}

/** One grant's request: how it is sent, how oauth4webapi reads its answer, and what a refusal becomes. */
export interface TokenRequest {
  send(): Promise<Response>;
  process(response: Response): Promise<oauth.TokenEndpointResponse>;
  failure(error: unknown): PaykitError;
  beforeSend?: (() => Promise<void>) | undefined;
}

/** The spec's token response (2.8), with the refresh token optional as RFC 6749 section 5.1 has it. */
const tokenResponse = tokenResponseSchema.extend({ refresh_token: z.string().min(1).optional() });

/** oauth4webapi's options for one request to the token endpoint of `as`. */
export function tokenRequestOptions(
  endpoint: TokenEndpoint,
  as: oauth.AuthorizationServer,
): oauth.TokenEndpointRequestOptions {
  return {
    signal: AbortSignal.timeout(endpoint.timeoutMs),
    ...(endpoint.fetch ? { [oauth.customFetch]: endpoint.fetch } : {}),
    // oauth4webapi refuses plain http; a token endpoint on this machine (the local sandbox) is the one exception.
    ...(isLoopbackHost(new URL(as.token_endpoint!).hostname) ? { [oauth.allowInsecureRequests]: true } : {}),
  };
}

/** Sends one token request, waiting out the budget and at most `maxRateLimitRetries` 429s. */
export async function sendTokenRequest(endpoint: TokenEndpoint, request: TokenRequest): Promise<OAuthTokens> {
  const { clientId, budget, maxRetryAfterMs, maxRateLimitRetries } = endpoint;
  const { send, process, failure, beforeSend } = request;
  for (let rateLimited = 0; ; rateLimited += 1) {
    await budget.acquire(clientId);
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
      await budget.pause(clientId, waitMs);
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
