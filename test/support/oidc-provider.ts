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
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { errors } from 'oidc-provider';
import { expect } from 'vitest';
import type { Tab } from './engine-browser.js';

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
  /**
   * Answers requests before the provider does while set (`undefined` ends it): `answer` returns true when it
   * answered. The request is counted all the same. What a browser's request interception did, in every engine
   * (WebKit's WebDriver has none): the mix-up test steers the authorization request to another server here.
   */
  intercept(answer: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined): void;
  stop(): Promise<void>;
}

/** The token endpoint's path (the provider's default `routes.token`). */
const TOKEN_PATH = '/token';
/** The revocation endpoint's path (the provider's default `routes.revocation`). */
const REVOCATION_PATH = '/token/revocation';

/**
 * The web font the development pages' style sheet imports from the internet: the tests' browsers reach
 * 127.0.0.1 only, and a font that never loads would hold a page's load event (and WebDriver's navigation) in a
 * browser that waits for the network to give up. Cut from the pages as they are served, in every engine.
 */
const WEB_FONT = /@import url\(https:\/\/fonts\.googleapis\.com\/[^)]*\);/g;

/** Sends the provider's HTML pages without {@link WEB_FONT} (with their length corrected). */
function withoutWebFont(res: ServerResponse): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if ((typeof chunk === 'string' || Buffer.isBuffer(chunk)) && /html/.test(String(res.getHeader('content-type')))) {
      const html = chunk.toString().replace(WEB_FONT, '');
      if (!res.headersSent) res.setHeader('content-length', Buffer.byteLength(html));
      return end(html, ...rest);
    }
    return end(chunk, ...rest);
  }) as ServerResponse['end'];
}

/** Starts a provider on a free port of 127.0.0.1. */
export async function startOidcProvider(options: OidcProviderOptions): Promise<OidcProvider> {
  const counts = new Map<string, number>();
  // The listener is set once the issuer (which holds the port) is known: the server listens first.
  let listener: RequestListener | null = null;
  let intercepted: ((req: IncomingMessage, res: ServerResponse) => boolean) | undefined;
  const server = createServer((req, res) => {
    const key = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    if (intercepted?.(req, res)) return;
    // Browsers ask for it on every page; the provider's 404 would be a console error in every test.
    if (req.url === '/favicon.ico') return void res.writeHead(204).end();
    withoutWebFont(res);
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
    intercept(answer) {
      intercepted = answer;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * On the provider's development pages, in `tab` (a page or a popup, in any engine): signs in as `login` (any
 * password is taken) and consents, leaving the browser on its way back to the client's redirect URI. The pages'
 * fields have no labels: their values are set as a form filler sets them.
 */
export async function approveAtProvider(tab: Tab, provider: OidcProvider, login: string): Promise<void> {
  const atInteraction = (url: URL) => url.origin === provider.issuer && url.pathname.startsWith('/interaction/');
  await tab.waitForUrl(atInteraction, 15_000);
  // Read while the page may still be loading (or, in one engine, between documents): not there yet is "no".
  const has = (name: string) => tab.has(name).catch(() => false);
  await expect.poll(() => has('Sign-in'), { timeout: 15_000 }).toBe(true);
  await tab.run(`() => {
    document.querySelector('input[name=login]').value = ${JSON.stringify(login)};
    document.querySelector('input[name=password]').value = 'any password';
  }`);
  await tab.click('Sign-in');
  // The consent page follows at another /interaction/ address.
  await expect.poll(() => has('Continue'), { timeout: 15_000 }).toBe(true);
  await tab.click('Continue');
}
