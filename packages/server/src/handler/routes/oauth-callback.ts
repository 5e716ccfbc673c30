/**
 * `POST {prefix}/oauth/callback`: the last step of "Connect with Payments". The return page checked `state`
 * against what the connect button kept, and sends the code with its PKCE verifier and the authorization
 * response's `iss`; the platform exchanges it with its client credentials, reads the business profile, and
 * keeps the connection.
 *
 * The browser gets the shop's own codes and words: 422 for a malformed body, 400 `code_reused` and
 * `issuer_mismatch` (nothing was sent), and 502 `upstream_error` for any refusal by the authorization server or
 * the API. Their wording (`invalid_grant: code_verifier does not match`) would tell whoever holds a code
 * whether it is used, unknown or paired with the wrong verifier: it goes to the shop's log as the cause.
 */
import { isLoopbackHost, parseOrThrow, PaykitError, type ErrorCode, type OAuthCallbackAnswer } from '@paykit/core';
import * as z from 'zod';
import type { Platform } from '../../platform/platform.js';
import { connectedBusinessAnswer } from '../answers.js';
import { asUpstreamFailure } from '../error-response.js';
import type { Answer, Exchange } from '../exchange.js';
import { hookContext, json, readJsonObject, type BodyLimits } from '../http.js';
import type { PaykitHandlerOptions } from '../options.js';

/** An issuer identifier (RFC 8414 section 2): an https URL, or http on this machine (the local sandbox). */
const issuerSchema = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value);
      if (url.username || url.password || url.search || url.hash) return false;
      return url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
    } catch {
      return false;
    }
  }, 'must be an https URL (http only for localhost)');

const callbackBodySchema = z.strictObject({
  code: z.string().min(1, 'is required').max(512),
  code_verifier: z
    .string()
    .regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be a PKCE verifier')
    .optional(),
  redirect_uri: z.string().min(1, 'is required').max(2048),
  iss: issuerSchema.optional(),
});

/**
 * The platform's own refusals, made before anything was sent (a redirect URI that is not the app's, a missing
 * verifier, a code already tried), and its own bugs (`internal_error`, the generic 500): as they are.
 */
const PASSED_ON: readonly ErrorCode[] = ['validation_failed', 'code_reused', 'internal_error'];

/** The shop's words for every refusal of the authorization server or the API. */
const REFUSED = 'The payment service did not accept the connection. Please connect again.';

/** The route. */
export function oauthCallbackRoute(platform: Platform, options: PaykitHandlerOptions, limits: BodyLimits) {
  return async (exchange: Exchange): Promise<Answer> => {
    const body = parseOrThrow(callbackBodySchema, await readJsonObject(exchange, limits), 'The callback');
    let connected;
    try {
      connected = await platform.connectWithCode({
        code: body.code,
        redirectUri: body.redirect_uri,
        ...(body.code_verifier ? { codeVerifier: body.code_verifier } : {}),
        ...(body.iss === undefined ? {} : { iss: body.iss }),
      });
    } catch (error) {
      throw callbackFailure(error);
    }
    await options.onConnected?.(connected, hookContext(exchange));
    return json({ business: connectedBusinessAnswer(connected.business) } satisfies OAuthCallbackAnswer);
  };
}

/**
 * What the browser is told. An upstream failure (a 422 of the API) is the upstream's, whatever its code: only the
 * platform's own refusals (local errors) are passed on.
 */
function callbackFailure(error: unknown): unknown {
  if (error instanceof PaykitError) {
    if (PASSED_ON.includes(error.code) && error.origin === 'local') return error;
    if (error.code === 'issuer_mismatch') {
      // Which issuers were compared is for the shop's log; the person only needs to start again.
      return new PaykitError(
        'issuer_mismatch',
        'This connection did not come from the payment service this shop uses. Please connect again.',
        { cause: error },
      );
    }
    if (error.code === 'rate_limited') {
      // Too many attempts (the ledger full, or the token endpoint's limit): in the shop's words, with the wait.
      return new PaykitError('rate_limited', 'Too many connection attempts right now. Please try again later.', {
        cause: error,
        ...(error.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: error.retryAfterSeconds }),
      });
    }
  }
  // Everything else the authorization server or the API refused (invalid_grant, invalid_client, a 401 of
  // GET /v1/info) is the shop's 502; timeouts and unreachable servers keep their codes, in the shop's words.
  return asUpstreamFailure(error, REFUSED);
}
