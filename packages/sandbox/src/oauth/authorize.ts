/**
 * The authorization request of spec 4.9, as both the consent page and `POST /_sandbox/oauth/approve` check it.
 * RFC 6749 section 4.1.2.1: until `client_id` and `redirect_uri` are known good, errors are shown on a page
 * (never redirected, or the sandbox would be an open redirector); after that, they go back to `redirect_uri`.
 * Every redirect back carries `iss`, the sandbox's issuer (RFC 9207 section 2), codes and errors alike, so that
 * a client talking to several authorization servers can tell which one answered (the mix-up defence).
 *
 * @see https://www.rfc-editor.org/rfc/rfc9207#section-2
 */
import { authorizeParamsSchema, PaykitError, parseScopeList, scopeAllows, type AuthorizeParams } from '@paykit/core';
import { OAuthError, type OAuthErrorCode } from './oauth-error.js';
import type { App, OAuthState, User } from './oauth-state.js';

/** The parameters of an authorization request (spec 4.9). */
export const AUTHORIZE_PARAMS: readonly string[] = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
];

/** A request that may be answered by redirecting to its `redirect_uri`. */
export interface CheckedRequest {
  app: App;
  params: AuthorizeParams;
}

/** An error to send back to the client at `redirect_uri` (`error`, `error_description`, `state`). */
export class RedirectError extends Error {
  constructor(
    readonly redirectUri: string,
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly state: string | undefined,
  ) {
    super(description);
  }

  /** Where the browser goes; `issuer` is the sandbox's (RFC 9207). */
  location(issuer: string): string {
    return withQuery(this.redirectUri, {
      error: this.error,
      error_description: this.description,
      ...(this.state === undefined ? {} : { state: this.state }),
      iss: issuer,
    });
  }
}

/**
 * Checks an authorization request. Throws {@link OAuthError} while `client_id` or `redirect_uri` is not known good
 * (show a page: redirecting to an unchecked URI would make the sandbox an open redirector), then `RedirectError`
 * (send back).
 */
export function checkAuthorizeRequest(oauth: OAuthState, query: Record<string, string>): CheckedRequest {
  const app = query.client_id ? oauth.apps.get(query.client_id) : undefined;
  if (!app) throw new OAuthError(400, 'invalid_client', 'Unknown client_id: this app does not exist');
  if (!query.redirect_uri || !app.redirectUris.includes(query.redirect_uri)) {
    throw new OAuthError(400, 'invalid_request', 'redirect_uri is not one of the redirect URIs registered on this app');
  }
  const state = query.state;
  const fail = (error: OAuthErrorCode, description: string) =>
    new RedirectError(query.redirect_uri!, error, description, state);
  if (query.response_type !== 'code') throw fail('unsupported_response_type', 'response_type must be code');
  const scopes = parseScopeList(query.scope ?? '');
  if (!scopes.ok) throw fail('invalid_scope', `"${scopes.unknown}" is not a scope`);
  // An app granted `payments` may ask for any `payments:*` (spec 5.2).
  const notGranted = scopes.scopes.filter((scope) => !scopeAllows(app.scopes, scope));
  if (notGranted.length > 0) throw fail('invalid_scope', `The app has not been granted ${notGranted.join(', ')}`);
  // Unknown parameters are ignored (RFC 6749 section 3.1); the known ones are checked strictly.
  const known = Object.fromEntries(Object.entries(query).filter(([name]) => AUTHORIZE_PARAMS.includes(name)));
  const parsed = authorizeParamsSchema.safeParse(known);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw fail('invalid_request', `${issue?.path.join('.') || 'request'}: ${issue?.message ?? 'is invalid'}`);
  }
  return { app, params: parsed.data };
}

/** The businesses in which `user` may approve (Owner or Admin). */
export function approvableBusinesses(user: User): string[] {
  return user.memberships.filter((m) => m.role === 'owner' || m.role === 'admin').map((m) => m.businessId);
}

/** Approval by `user` for `businessId`: the code goes back to the client, with `issuer` as `iss` (RFC 9207). */
export function approve(
  oauth: OAuthState,
  request: CheckedRequest,
  user: User,
  businessId: string,
  issuer: string,
): string {
  if (!approvableBusinesses(user).includes(businessId)) {
    throw new PaykitError('forbidden', 'Only an Owner or Admin of the business may connect apps to it');
  }
  const code = oauth.issueCode({
    clientId: request.app.clientId,
    businessId,
    redirectUri: request.params.redirect_uri,
    scopes: request.params.scope,
    codeChallenge: request.params.code_challenge,
  });
  return withQuery(request.params.redirect_uri, {
    code,
    ...(request.params.state === undefined ? {} : { state: request.params.state }),
    iss: issuer,
  });
}

/** Denial: `error=access_denied`, the state (spec 4.9) and `iss` (RFC 9207). */
export function deny(request: CheckedRequest, issuer: string): string {
  return new RedirectError(
    request.params.redirect_uri,
    'access_denied',
    'The merchant did not connect the app',
    request.params.state,
  ).location(issuer);
}

function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}
