/**
 * The checks of a code exchange, made before anything is sent: the code and the PKCE verifier are there and
 * well formed (RFC 9700 section 2.1.1, RFC 7636 section 4.1), and the response's `iss` names the issuer (RFC 9207).
 */
import * as oauth from 'oauth4webapi';
import { PaykitError, pkceValue } from '@paykit/core';

/**
 * Refuses a missing code, and a missing (unless `allowMissingPkce`) or malformed verifier, with
 * `validation_failed`.
 */
export function checkCodeAndVerifier(code: string, codeVerifier: string | undefined, allowMissingPkce: boolean): void {
  if (typeof code !== 'string' || code.length === 0) {
    throw new PaykitError('validation_failed', 'The authorization code is missing', {
      errors: [{ path: 'code', message: 'is required' }],
    });
  }
  if (codeVerifier === undefined || codeVerifier === '') {
    if (!allowMissingPkce) {
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
}

/**
 * RFC 9207: an `iss` that is not the issuer is always refused (the code came from another server: a mix-up);
 * a missing one is refused when the server's metadata promises it on every response.
 */
export function checkIssuer(
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
