/**
 * `POST /v1/open/oauth/token` (spec 4.8): the `authorization_code` and `refresh_token` grants, RFC 6749 section
 * 5.2 errors, 90 requests a minute per client (spec 8). The client authenticates in the form body
 * (`client_secret_post`, spec 4.8) or with `Authorization: Basic` (`client_secret_basic`, RFC 6749 section
 * 2.3.1, which every standard client library speaks); never both. Where the spec is silent (refresh tokens
 * rotate, a replay revokes the token family as RFC 9700 section 4.14.2 advises, what counts against the limit),
 * the sandbox README's "Decisions where the spec is silent" says what this does and why.
 */
import { createHash } from 'node:crypto';
import { getConnInfo } from '@hono/node-server/conninfo';
import {
  isPaykitError,
  parseScopeList,
  scopeAllows,
  tokenRequestSchema,
  type ErrorCode,
  type Scope,
  type TokenRequest,
} from '@paykit/core';
import { Hono, type Context } from 'hono';
import { readBody } from '../body.js';
import type { SandboxContext } from '../context.js';
import { hashSecret, secretMatches, type App } from '../oauth/oauth-state.js';
import { readBasicCredentials } from '../oauth/client-basic-auth.js';
import { OAuthError, oauthErrorBody } from '../oauth/oauth-error.js';

/** The challenge of a 401 to a client that authenticated with `Authorization: Basic` (RFC 7617 section 2). */
const BASIC_CHALLENGE = { 'www-authenticate': 'Basic realm="paykit sandbox token endpoint", charset="UTF-8"' };

/** The token route, mounted on the app outside `/v1`'s authentication. */
export function oauthTokenRoute(sandbox: SandboxContext) {
  const routes = new Hono();
  const { oauth } = sandbox;

  routes.post('/', async (c) => {
    const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
    const body = await readForm(c);
    const basic = readBasicCredentials(c.req.header('authorization'));
    const clientId =
      basic?.ok === true
        ? basic.clientId
        : body.ok && typeof body.form.client_id === 'string'
          ? body.form.client_id
          : undefined;
    const wait = sandbox.tokenRateLimit.hit(clientId ?? `ip:${remoteAddress(c)}`, oauth.now());
    if (wait > 0) {
      const { limit } = sandbox.tokenRateLimit;
      return c.json(
        {
          error: 'rate_limited',
          error_description: `More than ${limit} token requests in a minute; retry after ${wait} s`,
        },
        429,
        { ...noStore, 'retry-after': String(wait) },
      );
    }
    try {
      if (!body.ok) throw body.error;
      const tokens = grant(withBasicCredentials(body.form, basic));
      return c.json({ token_type: 'Bearer', expires_in: oauth.accessTokenTtlSeconds, ...tokens }, 200, noStore);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      // A client that tried Basic and failed is told so with the scheme's challenge (RFC 6749 section 5.2).
      const challenge = basic !== undefined && error.status === 401 ? BASIC_CHALLENGE : {};
      return c.json(oauthErrorBody(error), error.status, {
        ...noStore,
        ...challenge,
      });
    }
  });

  /**
   * The form with the Basic header's client id and secret in it, so that one schema checks both methods. Both
   * methods at once is `invalid_request` (RFC 6749 section 2.3: one method per request); a client id in the
   * body beside Basic is allowed when it names the same client (section 3.2.1 lets a client name itself).
   */
  function withBasicCredentials(
    form: Record<string, unknown>,
    basic: ReturnType<typeof readBasicCredentials>,
  ): Record<string, unknown> {
    if (basic === undefined) return form;
    if (!basic.ok) throw new OAuthError(401, 'invalid_client', basic.reason);
    if (form.client_secret !== undefined) {
      throw invalidRequest('The client authenticated twice: client_secret in the body and an Authorization header');
    }
    if (form.client_id !== undefined && form.client_id !== basic.clientId) {
      throw invalidRequest('client_id in the body differs from the one of the Authorization header');
    }
    return { ...form, client_id: basic.clientId, client_secret: basic.clientSecret };
  }

  function grant(form: Record<string, unknown>) {
    // `scope` on a refresh is RFC 6749 section 6's; core's schema of spec 4.8 does not name it.
    const { scope, ...rest } = form;
    if (scope !== undefined && form.grant_type !== 'refresh_token') {
      throw new OAuthError(400, 'invalid_request', 'scope is only accepted with grant_type=refresh_token');
    }
    const parsed = tokenRequestSchema.safeParse(rest);
    if (!parsed.success) {
      const grantType = form.grant_type;
      if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
        throw new OAuthError(
          400,
          grantType === undefined ? 'invalid_request' : 'unsupported_grant_type',
          'grant_type must be authorization_code or refresh_token',
        );
      }
      const issue = parsed.error.issues[0];
      throw new OAuthError(400, 'invalid_request', `${issue?.path.join('.')}: ${issue?.message}`);
    }
    const request = parsed.data;
    const app = authenticateClient(request);
    return request.grant_type === 'authorization_code' ? exchangeCode(app, request) : refresh(app, request, scope);
  }

  function authenticateClient(request: TokenRequest): App {
    const app = oauth.apps.get(request.client_id);
    if (!app || !secretMatches(request.client_secret, app.secretHash)) {
      throw new OAuthError(401, 'invalid_client', 'Unknown client or wrong client secret');
    }
    return app;
  }

  function exchangeCode(app: App, request: TokenRequest & { grant_type: 'authorization_code' }) {
    const code = oauth.codes.get(sha256(request.code, 'hex'));
    // Another app's code is "unknown": whether it exists is none of this client's business.
    if (!code || code.clientId !== app.clientId) {
      throw new OAuthError(400, 'invalid_grant', 'Unknown authorization code');
    }
    if (code.used) {
      const familyId = code.familyId;
      if (familyId !== null) oauth.revokeWhere((g) => g.familyId === familyId);
      throw new OAuthError(400, 'invalid_grant', 'The authorization code was already used');
    }
    if (code.expiresAt <= oauth.nowFor(code.businessId))
      throw new OAuthError(400, 'invalid_grant', 'The authorization code expired');
    if (code.redirectUri !== request.redirect_uri) {
      throw new OAuthError(400, 'invalid_grant', 'redirect_uri differs from the one of the authorization request');
    }
    if (code.codeChallenge !== undefined) {
      if (request.code_verifier === undefined) throw new OAuthError(400, 'invalid_grant', 'code_verifier is required');
      if (sha256(request.code_verifier, 'base64url') !== code.codeChallenge) {
        throw new OAuthError(400, 'invalid_grant', 'code_verifier does not match');
      }
    } else if (request.code_verifier !== undefined) {
      // RFC 7636 section 4.6 / RFC 9700 section 2.1.1: a verifier for a code issued without a challenge is an
      // attacker's injected code, not a harmless extra.
      throw new OAuthError(400, 'invalid_grant', 'code_verifier given, but the authorization request had no challenge');
    }
    // Spent before any other check can fail later: one code, one exchange.
    code.used = true;
    const issued = oauth.issueGrant({ clientId: app.clientId, businessId: code.businessId, scopes: code.scopes });
    code.familyId = issued.grant.familyId;
    return { access_token: issued.accessToken, refresh_token: issued.refreshToken, scope: code.scopes.join(' ') };
  }

  function refresh(app: App, request: TokenRequest & { grant_type: 'refresh_token' }, scope: unknown) {
    const old = oauth.grantByRefreshToken(request.refresh_token);
    if (!old || old.clientId !== app.clientId) {
      const spent = [...oauth.grants.values()].find((grant) => grant.refreshHash === hashSecret(request.refresh_token));
      if (spent?.refreshUsed && spent.clientId === app.clientId) {
        oauth.revokeWhere((grant) => grant.familyId === spent.familyId);
      }
      throw new OAuthError(400, 'invalid_grant', 'The refresh token is unknown, used, expired or revoked');
    }
    let scopes: Scope[] = old.scopes;
    if (scope !== undefined) {
      const asked = typeof scope === 'string' ? parseScopeList(scope) : undefined;
      if (!asked?.ok || asked.scopes.length === 0)
        throw new OAuthError(400, 'invalid_scope', 'scope is not a scope list');
      const beyond = asked.scopes.filter((s) => !scopeAllows(old.scopes, s));
      if (beyond.length > 0) {
        throw new OAuthError(400, 'invalid_scope', `The connection was not granted ${beyond.join(', ')}`);
      }
      scopes = asked.scopes;
    }
    old.refreshUsed = true;
    const issued = oauth.issueGrant({
      clientId: app.clientId,
      businessId: old.businessId,
      scopes,
      familyId: old.familyId,
    });
    return { access_token: issued.accessToken, refresh_token: issued.refreshToken, scope: scopes.join(' ') };
  }

  return routes;
}

/**
 * The form, or the error to answer once the request has been counted. Read by the sandbox's one body reader; its
 * refusals become RFC 6749's `invalid_request`, since an OAuth client reads only `{ error, error_description }`.
 */
async function readForm(
  c: Context,
): Promise<{ ok: true; form: Record<string, unknown> } | { ok: false; error: OAuthError }> {
  try {
    return { ok: true, form: await readBody(c.req.raw, { accept: ['form'] }) };
  } catch (error) {
    if (!isPaykitError(error)) throw error;
    return { ok: false, error: invalidRequest(FORM_REFUSALS[error.code] ?? error.message) };
  }
}

/** What the token endpoint says for each refusal of the body reader. */
const FORM_REFUSALS: Partial<Record<ErrorCode, string>> = {
  unsupported_media_type: 'The token request must be application/x-www-form-urlencoded',
  payload_too_large: 'The form is too large',
  // RFC 6749 section 3.2: parameters must not be included more than once.
  duplicate_parameter: 'A parameter appears more than once',
};

function invalidRequest(description: string): OAuthError {
  return new OAuthError(400, 'invalid_request', description);
}

function sha256(text: string, encoding: 'hex' | 'base64url'): string {
  return createHash('sha256').update(text).digest(encoding);
}

/** The caller's IP address, or `unknown` when the app is not served by node (`app.request()` in a test). */
function remoteAddress(c: Context): string {
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
