/**
 * A certified OAuth 2.0 / OpenID Connect authorization server from npm (`oidc-provider`, OpenID Certified),
 * on 127.0.0.1 with a random port, configured as a standard deployment would be for a platform's app: one
 * confidential client (`client_secret_basic`), PKCE required, refresh tokens, short-lived JWT access tokens
 * (RFC 9068) for one resource server named by a resource indicator (RFC 8707), `iss` on every authorization
 * response (RFC 9207, on by default), RFC 7009 revocation, and the provider's development sign-in and consent
 * pages, which {@link approveAtProvider} fills in. Nothing here is paykit's: it is the "any standard OAuth
 * server" of issue 12.
 *
 * Every HTTP request is counted where the server receives it, so that a test can say that nothing reached
 * the token endpoint.
 *
 * @see https://github.com/panva/node-oidc-provider/blob/main/docs/README.md
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { errors } from 'oidc-provider';
import type { Page } from 'playwright-core';

/** Options of {@link startOidcProvider}. */
export interface OidcProviderOptions {
  /** The client's registered redirect URIs (exact match, as the provider compares them). */
  redirectUris: readonly string[];
  /** The resource indicator (RFC 8707) of the one API the provider issues access tokens for. */
  resource: string;
  /** The scopes that API defines; an access token carries those requested among them. */
  resourceScopes: readonly string[];
  /** Lifetime of an access token, in seconds: short, so that a test sees a refresh. */
  accessTokenTtlSeconds: number;
}

/** A running provider. */
export interface OidcProvider {
  /** The issuer identifier (also the origin of every endpoint). */
  readonly issuer: string;
  /** The registered confidential client. */
  readonly clientId: string;
  readonly clientSecret: string;
  /** Requests received so far, by method and path (the query left out): `requests('POST', '/token')`. */
  requests(method: string, path: string): number;
  /** Token-endpoint requests received so far (any grant, accepted or not). */
  tokenRequests(): number;
  /** Revokes a token at the RFC 7009 endpoint as the client; a refresh token takes its whole grant with it. */
  revoke(token: string, hint: 'refresh_token' | 'access_token'): Promise<void>;
  stop(): Promise<void>;
}

/** The token endpoint's path (the provider's default `routes.token`). */
const TOKEN_PATH = '/token';
/** The revocation endpoint's path (the provider's default `routes.revocation`). */
const REVOCATION_PATH = '/token/revocation';

/** Starts a provider on a free port of 127.0.0.1. */
export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcProvider> {
  const counts = new Map<string, number>();
  // The listener is set once the issuer (which holds the port) is known: the server listens first.
  let listener: RequestListener | null = null;
  const server = createServer((req, res) => {
    const key = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (listener) listener(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const clientId = 'platform-app';
  const clientSecret = randomBytes(32).toString('base64url');
  // The provider's own signing key, so that no development key (and its warning) is used.
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'test-rs256', alg: 'RS256', use: 'sig' };

  const resourceServer = {
    scope: options.resourceScopes.join(' '),
    audience: options.resource,
    accessTokenTTL: options.accessTokenTtlSeconds,
    accessTokenFormat: 'jwt',
    jwt: { sign: { alg: 'RS256' } },
  };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [...options.redirectUris],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    // HTTP Basic only (RFC 6749 section 2.3.1's must-support): the provider otherwise takes the secret in
    // the body as well whatever the client registered, and a client sending it there would pass unnoticed.
    clientAuthMethods: ['client_secret_basic'],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    // Any login name is an account: the development sign-in page takes any name and password.
    findAccount: (_ctx: unknown, sub: string) => ({ accountId: sub, claims: () => ({ sub }) }),
    pkce: { required: () => true },
    // Refresh tokens without `offline_access`: an OAuth 2.0 client (not OpenID) asks for the API's scopes only.
    issueRefreshToken: (_ctx: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed('refresh_token'),
    features: {
      devInteractions: { enabled: true },
      revocation: {
        enabled: true,
        // Only the client a token was issued to may revoke it (the docs' starting point, minus public clients).
        allowedPolicy: (_ctx: unknown, client: { clientId: string }, token: { clientId: string }) =>
          token.clientId === client.clientId,
      },
      resourceIndicators: {
        enabled: true,
        // The client names the resource at the authorization endpoint; the token requests then need not.
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== options.resource) throw new errors.InvalidTarget();
          return resourceServer;
        },
      },
    },
    ttl: {
      AccessToken: (_ctx: unknown, token: { resourceServer?: { accessTokenTTL?: number } }) =>
        token.resourceServer?.accessTokenTTL ?? options.accessTokenTtlSeconds,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 3600,
      Interaction: 600,
      RefreshToken: 3600,
      Session: 3600,
    },
    // Only the platform's backend calls the token and revocation endpoints, never a browser.
    clientBasedCORS: () => false,
  });
  listener = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    requests: (method, path) => counts.get(`${method} ${path}`) ?? 0,
    tokenRequests: () => counts.get(`POST ${TOKEN_PATH}`) ?? 0,
    async revoke(token, hint) {
      const answer = await fetch(`${issuer}${REVOCATION_PATH}`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ token, token_type_hint: hint }),
      });
      if (answer.status !== 200) throw new Error(`Revocation answered ${answer.status}: ${await answer.text()}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * On the provider's development pages: signs in as `login` (any password is taken) and consents, leaving the
 * browser on its way back to the client's redirect URI.
 */
export async function approveAtProvider(page: Page, provider: OidcProvider, login: string): Promise<void> {
  await page.waitForURL((url) => url.origin === provider.issuer && url.pathname.startsWith('/interaction/'));
  await page.locator('input[name=login]').fill(login);
  await page.locator('input[name=password]').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  // The consent page follows at another /interaction/ address; the click waits for its button.
  await page.getByRole('button', { name: 'Continue' }).click();
}
