/**
 * `POST {prefix}/oauth/callback`: the last step of "Connect with Payments". The return page checked `state`
 * against what the connect button kept, and sends the code with its PKCE verifier; the platform exchanges it
 * with its client secret, reads the business profile, and keeps the connection.
 */
import { parseOrThrow } from '@paykit/core';
import * as z from 'zod';
import type { Platform } from '../../platform/platform.js';
import { asUpstreamFailure } from '../error-response.js';
import { json, readJsonObject } from '../http.js';
import type { PaykitHandlerOptions } from '../options.js';

const callbackBodySchema = z.strictObject({
  code: z.string().min(1, 'is required').max(512),
  code_verifier: z
    .string()
    .regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be a PKCE verifier')
    .optional(),
  redirect_uri: z.string().min(1, 'is required').max(2048),
});

/** The route. */
export function oauthCallbackRoute(platform: Platform, options: PaykitHandlerOptions, maxBodyBytes: number) {
  return async (request: Request): Promise<Response> => {
    const body = parseOrThrow(callbackBodySchema, await readJsonObject(request, maxBodyBytes), 'The callback');
    let connected;
    try {
      connected = await platform.connectWithCode({
        code: body.code,
        redirectUri: body.redirect_uri,
        ...(body.code_verifier ? { codeVerifier: body.code_verifier } : {}),
      });
    } catch (error) {
      // A refused code (used, expired, wrong verifier) is the person's to retry; say so without details.
      throw asUpstreamFailure(error, 'The payment service did not accept the connection. Please connect again.', [
        'validation_failed',
        'unauthorized',
      ]);
    }
    await options.onConnected?.(connected, { request });
    const { id, name, country, currency, payments_enabled } = connected.business;
    return json({ business: { id, name, country, currency, payments_enabled } });
  };
}
