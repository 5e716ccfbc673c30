/**
 * `POST /v1/open/oauth/token` (spec 4.8): the `authorization_code` and `refresh_token` grants, client
 * credentials in the form body, RFC 6749 section 5.2 errors, 90 requests a minute per client (spec 8).
 *
 * Decisions where the spec is silent: refresh tokens rotate (the old one stops working once used, RFC 9700
 * section 4.14); a replayed code also revokes the tokens issued from it (RFC 6749 section 4.1.2).
 */
import { createHash } from 'node:crypto';
import { decodeForm, tokenRequestSchema, type TokenRequest } from '@paykit/core';
import { Hono, type Context } from 'hono';
import type { SandboxContext } from '../context.js';
import { secretMatches, type App } from '../oauth/oauth-state.js';

class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401,
    readonly error: string,
    description: string,
  ) {
    super(description);
  }
}

/** The token route, mounted on the app outside `/v1`'s authentication. */
export function oauthTokenRoute(sandbox: SandboxContext) {
  const routes = new Hono();
  const { oauth } = sandbox;

  routes.post('/', async (c) => {
    const noStore = { 'cache-control': 'no-store', pragma: 'no-cache' };
    try {
      const form = await readForm(c);
      const wait = sandbox.tokenRateLimit.hit(typeof form.client_id === 'string' ? form.client_id : 'anonymous');
      if (wait > 0) {
        return c.json({ error: 'rate_limited', error_description: 'More than 90 token requests in a minute' }, 429, {
          ...noStore,
          'retry-after': String(wait),
        });
      }
      const parsed = tokenRequestSchema.safeParse(form);
      if (!parsed.success) {
        const grantType = form.grant_type;
        if (grantType !== 'authorization_code' && grantType !== 'refresh_token') {
          throw new OAuthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
        }
        const issue = parsed.error.issues[0];
        throw new OAuthError(400, 'invalid_request', `${issue?.path.join('.')}: ${issue?.message}`);
      }
      const request = parsed.data;
      const app = authenticateClient(request);
      const tokens = request.grant_type === 'authorization_code' ? exchangeCode(app, request) : refresh(app, request);
      return c.json({ token_type: 'Bearer', expires_in: oauth.accessTokenTtlSeconds, ...tokens }, 200, noStore);
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      return c.json({ error: error.error, error_description: error.message }, error.status, noStore);
    }
  });

  function authenticateClient(request: TokenRequest): App {
    const app = oauth.apps.get(request.client_id);
    if (!app || !secretMatches(request.client_secret, app.secretHash)) {
      throw new OAuthError(401, 'invalid_client', 'Unknown client or wrong client secret');
    }
    return app;
  }

  function exchangeCode(app: App, request: TokenRequest & { grant_type: 'authorization_code' }) {
    const code = oauth.codes.get(createHash('sha256').update(request.code).digest('hex'));
    if (!code || code.clientId !== app.clientId)
      throw new OAuthError(400, 'invalid_grant', 'Unknown authorization code');
    if (code.used) {
      for (const id of code.tokenIds) {
        const grant = oauth.grants.get(id);
        if (grant) grant.revoked = true;
      }
      throw new OAuthError(400, 'invalid_grant', 'The authorization code was already used');
    }
    if (code.expiresAt <= oauth.now()) throw new OAuthError(400, 'invalid_grant', 'The authorization code expired');
    if (code.redirectUri !== request.redirect_uri) {
      throw new OAuthError(400, 'invalid_grant', 'redirect_uri differs from the one of the authorization request');
    }
    if (code.codeChallenge !== undefined) {
      if (request.code_verifier === undefined) throw new OAuthError(400, 'invalid_grant', 'code_verifier is required');
      const challenge = createHash('sha256').update(request.code_verifier).digest('base64url');
      if (challenge !== code.codeChallenge) throw new OAuthError(400, 'invalid_grant', 'code_verifier does not match');
    }
    code.used = true;
    const issued = oauth.issueGrant({ clientId: app.clientId, businessId: code.businessId, scopes: code.scopes });
    code.tokenIds.push(issued.grant.id);
    return { access_token: issued.accessToken, refresh_token: issued.refreshToken, scope: code.scopes.join(' ') };
  }

  function refresh(app: App, request: TokenRequest & { grant_type: 'refresh_token' }) {
    const grant = oauth.grantByRefreshToken(request.refresh_token);
    if (!grant || grant.clientId !== app.clientId) {
      throw new OAuthError(400, 'invalid_grant', 'The refresh token is unknown, used or revoked');
    }
    grant.revoked = true;
    const issued = oauth.issueGrant({ clientId: app.clientId, businessId: grant.businessId, scopes: grant.scopes });
    return { access_token: issued.accessToken, refresh_token: issued.refreshToken, scope: grant.scopes.join(' ') };
  }

  return routes;
}

async function readForm(c: Context): Promise<Record<string, unknown>> {
  const type = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') {
    throw new OAuthError(400, 'invalid_request', 'The token request must be application/x-www-form-urlencoded');
  }
  try {
    return decodeForm(new URLSearchParams(await c.req.text()));
  } catch {
    throw new OAuthError(400, 'invalid_request', 'A parameter appears more than once');
  }
}
