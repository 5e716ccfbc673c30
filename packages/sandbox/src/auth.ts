/**
 * Who is calling a `/v1` route (spec 5.1): `X-BUSINESS-API-KEY` (full access to its business) or
 * `Authorization: Bearer` (the connected business, within the token's scopes); `X-PLATFORM-KEY` optionally
 * beside either names the platform acting for that business. A Bearer header wins over an API key header
 * sent with it ("replaces the API key header", spec 5.1): a bad token is 401 even beside a good key.
 */
import { OPERATION_SCOPES, PaykitError, scopesAllowOperation } from '@paykit/core';
import { BearerTokenError } from './errors.js';
import type { OAuthState } from './oauth/oauth-state.js';
import { requirementOf } from './oauth/operation-of.js';
import type { Business, SandboxState } from './state.js';

/** The authenticated caller of a `/v1` route. */
export interface Caller {
  /** The business the call acts on. */
  business: Business;
  /** The platform whose key came with the call, if any. */
  platform: Business | null;
  /** The scopes of a Bearer token; `null` for an API key, which grants everything. */
  scopes: readonly string[] | null;
}

/** Resolves the caller from the headers, or throws 401 `{ message }` as the spec says (7). */
export function authenticate(request: Request, state: SandboxState, oauth: OAuthState): Caller {
  const authorization = request.headers.get('authorization');
  let caller: Omit<Caller, 'platform'>;
  if (authorization !== null) {
    const token = /^Bearer ([\x21-\x7e]+)$/i.exec(authorization)?.[1];
    const grant = token ? oauth.grantByAccessToken(token) : undefined;
    const business = grant && state.businesses.get(grant.businessId);
    if (!grant || !business || !oauth.apps.has(grant.clientId)) {
      // RFC 6750 section 3.1; one answer for unknown, expired and revoked, so that a token's history stays private.
      throw new BearerTokenError('unauthorized', 'Unauthorized: the access token is invalid, expired or revoked', {
        error: 'invalid_token',
      });
    }
    caller = { business, scopes: grant.scopes };
  } else {
    const apiKey = request.headers.get('x-business-api-key');
    const business = apiKey ? state.businessByApiKey(apiKey) : undefined;
    if (!business) throw new PaykitError('unauthorized', 'Unauthorized: missing or invalid X-BUSINESS-API-KEY');
    caller = { business, scopes: null };
  }
  const platformKey = request.headers.get('x-platform-key');
  let platform: Business | null = null;
  if (platformKey !== null) {
    platform = state.businessByPlatformKey(platformKey) ?? null;
    if (!platform) throw new PaykitError('unauthorized', 'Unauthorized: invalid X-PLATFORM-KEY');
  }
  return { ...caller, platform };
}

/**
 * Throws 403 naming the missing scope when a Bearer caller may not perform this `/v1` request. A route that
 * no scope grants (or that the sandbox does not know) is refused too: fail closed.
 */
export function authorize(caller: Caller, method: string, path: string): void {
  if (caller.scopes === null) return;
  const need = requirementOf(method, path);
  if (need === undefined) {
    throw new BearerTokenError(
      'forbidden',
      `No OAuth scope grants ${method} /v1${path}; call it with the business API key`,
      { error: 'insufficient_scope' },
    );
  }
  const scope = OPERATION_SCOPES[need.operation];
  if (scopesAllowOperation(caller.scopes, need.operation) || scope === null) return;
  throw new BearerTokenError('forbidden', `This token lacks the scope ${scope}`, {
    error: 'insufficient_scope',
    scope,
  });
}
