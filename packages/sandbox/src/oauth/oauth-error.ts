/**
 * OAuth's own errors, kept apart from paykit's `PaykitError` on purpose: RFC 6749 fixes their codes and their
 * body, `{ error, error_description }` (section 5.2 for the token endpoint, 4.1.2.1 for an authorization request),
 * and OAuth client libraries read exactly that. The token endpoint answers them; the authorization request's
 * checks throw them where the consent page shows an error instead of redirecting, and
 * `POST /_sandbox/oauth/approve` answers them as the body the client would have read.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-5.2
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-4.1.2.1
 */

/** The RFC 6749 error codes the sandbox's authorization server uses. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_scope'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'access_denied';

/** An OAuth error: its RFC 6749 `error` code, its HTTP status and a `description` for a person. */
export class OAuthError extends Error {
  override readonly name: string = 'OAuthError';

  constructor(
    /** 400 for a bad request, 401 for a client that failed to authenticate (RFC 6749 section 5.2). */
    readonly status: 400 | 401,
    /** The RFC 6749 code, sent as `error`. */
    readonly error: OAuthErrorCode,
    /** Sent as `error_description`. */
    readonly description: string,
  ) {
    super(description);
  }
}

/** The body RFC 6749 section 5.2 gives an OAuth error. */
export function oauthErrorBody(error: OAuthError): { error: OAuthErrorCode; error_description: string } {
  return { error: error.error, error_description: error.description };
}
