/**
 * The token client against real servers: the sandbox (the spec's paths, its RFC 8414 metadata, `iss` on its
 * redirects, client_secret_basic), and small HTTP servers on 127.0.0.1 for what the sandbox cannot show (other
 * endpoint paths, no refresh token, private_key_jwt, a 429 that does not stop, a metadata document naming
 * another issuer).
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { createBusiness, createUser, registerApp } from '@paykit/test-support/sandbox-control';
import { approveOnSandbox } from '@paykit/test-support/sandbox-oauth';
import { startScriptedServer, type ScriptedAnswer, type ScriptedRequest } from '@paykit/test-support/scripted-server';
import { randomBytes, type webcrypto } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rememberedSecrets } from '../secrets.js';
import { createOAuthClient } from './oauth-client.js';
import { MemoryTokenBudget } from './token-budget.js';

const REDIRECT = 'https://platform.example/connect/callback';
const VERIFIER = 'v'.repeat(43);

let sandbox: RunningSandbox;
let app: { client_id: string; client_secret: string };
let owner: string;
let merchant: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  app = await registerApp(sandbox, { name: 'Acme', redirectUris: [REDIRECT], scopes: ['payments'] });
  merchant = (await createBusiness(sandbox, { name: 'Cafe' })).id;
  owner = (await createUser(sandbox, { email: 'o@cafe.test', name: 'O', businessId: merchant })).id;
});
afterAll(() => sandbox.close());

/** The merchant's approval in the sandbox, with PKCE: the redirect's code and iss, and the verifier kept. */
async function approval(): Promise<{ code: string; iss: string | null; codeVerifier: string }> {
  const codeVerifier = randomBytes(32).toString('base64url');
  const { code, iss } = await approveOnSandbox(sandbox, {
    userId: owner,
    clientId: app.client_id,
    redirectUri: REDIRECT,
    scope: 'payments',
    state: 's',
    businessId: merchant,
    codeVerifier,
  });
  return { code, iss, codeVerifier };
}

/** A fetch that counts what leaves, by path: still the real network. */
function countingFetch() {
  const paths: string[] = [];
  const counted: typeof fetch = (input, init) => {
    paths.push(new URL(input instanceof Request ? input.url : String(input)).pathname);
    return fetch(input, init);
  };
  return { paths, fetch: counted };
}

const tokenBody = (access: string, extra: Record<string, unknown> = {}) => ({
  token_type: 'Bearer',
  expires_in: 300,
  access_token: access,
  ...extra,
});

/** A standard authorization server on 127.0.0.1 whose metadata names `/auth` and `/token`. */
async function startStandardServer(
  token: (request: ScriptedRequest) => ScriptedAnswer,
  metadata: (issuer: string) => Record<string, unknown> = (issuer) => ({
    issuer,
    authorization_endpoint: `${issuer}/auth`,
    token_endpoint: `${issuer}/token`,
  }),
) {
  let issuer = '';
  const server = await startScriptedServer((request) => {
    if (request.url === '/.well-known/oauth-authorization-server') return { body: metadata(issuer) };
    if (request.url === '/token') return token(request);
    return { status: 404, body: { error: 'not_found' } };
  });
  issuer = server.url;
  return server;
}

describe('against the sandbox', () => {
  it('by default: the spec token endpoint, client_secret_post, tokens with their issue time', async () => {
    const { code, codeVerifier } = await approval();
    const counted = countingFetch();
    const client = createOAuthClient({
      apiBaseUrl: sandbox.url,
      clientId: app.client_id,
      clientSecret: app.client_secret,
      fetch: counted.fetch,
    });
    expect(client.issuer).toBe(sandbox.url);
    const before = Date.now();
    const tokens = await client.exchangeCode({ code, codeVerifier, redirectUri: REDIRECT });
    expect(counted.paths).toEqual(['/v1/open/oauth/token']);
    expect(tokens.issuedAt).toBeGreaterThanOrEqual(before);
    expect(tokens.issuedAt).toBeLessThanOrEqual(Date.now());
    expect(tokens.expiresAt).toBe(tokens.issuedAt! + 31_536_000_000);
    // Every secret that passed through is known to the redacting logger.
    expect(rememberedSecrets()).toEqual(
      expect.arrayContaining([app.client_secret, code, codeVerifier, tokens.accessToken, tokens.refreshToken]),
    );
  });

  it('with the issuer: reads its metadata once, sends the secret by HTTP Basic, accepts its own iss', async () => {
    const counted = countingFetch();
    const client = createOAuthClient({
      apiBaseUrl: sandbox.url,
      issuer: sandbox.url,
      clientId: app.client_id,
      clientSecret: app.client_secret,
      clientAuthentication: 'client_secret_basic',
      fetch: counted.fetch,
    });
    for (let i = 0; i < 2; i += 1) {
      const { code, iss, codeVerifier } = await approval();
      expect(iss).toBe(sandbox.url);
      await expect(
        client.exchangeCode({ code, codeVerifier, redirectUri: REDIRECT, iss: iss! }),
      ).resolves.toMatchObject({ accessToken: expect.any(String) });
    }
    expect(counted.paths).toEqual([
      '/.well-known/oauth-authorization-server',
      '/v1/open/oauth/token',
      '/v1/open/oauth/token',
    ]);
  });

  it('refuses, before any token request and before beforeRequest: no verifier, a foreign iss, a missing promised iss, a malformed verifier', async () => {
    const counted = countingFetch();
    const options = { apiBaseUrl: sandbox.url, clientId: app.client_id, clientSecret: app.client_secret };
    const client = createOAuthClient({ ...options, issuer: sandbox.url, fetch: counted.fetch });
    const { code, codeVerifier } = await approval();
    let claimed = 0;
    const beforeRequest = async () => void (claimed += 1);

    await expect(client.exchangeCode({ code, redirectUri: REDIRECT }, { beforeRequest })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'code_verifier', message: 'is required' }],
    });
    const foreign = client.exchangeCode(
      { code, codeVerifier, redirectUri: REDIRECT, iss: 'https://attacker.test' },
      { beforeRequest },
    );
    await expect(foreign).rejects.toMatchObject({ code: 'issuer_mismatch' });
    await expect(foreign).rejects.toThrow(
      `issued by https://attacker.test, not by the configured issuer ${sandbox.url}`,
    );
    // The sandbox's metadata promises iss on every response: one without it did not come from there.
    await expect(
      client.exchangeCode({ code, codeVerifier, redirectUri: REDIRECT }, { beforeRequest }),
    ).rejects.toMatchObject({ code: 'issuer_mismatch' });
    // Without discovery the promise is unknown, but a foreign iss is still refused.
    const plain = createOAuthClient({ ...options, fetch: counted.fetch });
    await expect(
      plain.exchangeCode(
        { code, codeVerifier, redirectUri: REDIRECT, iss: 'https://attacker.test' },
        { beforeRequest },
      ),
    ).rejects.toMatchObject({ code: 'issuer_mismatch' });
    // A verifier that is not RFC 7636's shape could never succeed: refused before the code is claimed.
    await expect(
      plain.exchangeCode({ code, codeVerifier: 'too-short', redirectUri: REDIRECT }, { beforeRequest }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'code_verifier', message: expect.stringContaining('43 to 128') }],
    });

    expect(claimed).toBe(0);
    expect(counted.paths.filter((path) => path.endsWith('/token'))).toEqual([]);
    // The code was never spent: it still connects.
    await expect(
      plain.exchangeCode({ code, codeVerifier, redirectUri: REDIRECT }, { beforeRequest }),
    ).resolves.toMatchObject({ accessToken: expect.any(String) });
    expect(claimed).toBe(1);
  });

  it('runs beforeRequest before the token budget: a refused replay costs no budget', async () => {
    const client = createOAuthClient({
      apiBaseUrl: sandbox.url,
      clientId: app.client_id,
      clientSecret: app.client_secret,
      // One request a minute: a second one would wait a minute.
      tokenBudget: new MemoryTokenBudget({ perMinute: 1 }),
    });
    const { code, codeVerifier } = await approval();
    for (let i = 0; i < 5; i += 1) {
      const replay = client.exchangeCode(
        { code, codeVerifier, redirectUri: REDIRECT },
        {
          beforeRequest: async () => {
            throw new Error('already tried');
          },
        },
      );
      await expect(replay).rejects.toThrow('already tried');
    }
    const started = Date.now();
    await client.exchangeCode({ code, codeVerifier, redirectUri: REDIRECT });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('keeps the upstream words of a refused exchange in the message and the cause, for the log', async () => {
    const { code } = await approval();
    const client = createOAuthClient({
      apiBaseUrl: sandbox.url,
      clientId: app.client_id,
      clientSecret: app.client_secret,
    });
    const refused = (await client
      .exchangeCode({ code, codeVerifier: VERIFIER, redirectUri: REDIRECT })
      .catch((error: unknown) => error)) as Error & { code: string; cause: { error: string } };
    expect(refused.code).toBe('unauthorized');
    expect(refused.message).toContain('invalid_grant: code_verifier does not match');
    expect(refused.cause.error).toBe('invalid_grant');
  });
});

describe('against other standard servers', () => {
  it('uses the token endpoint of the metadata (/token), and a response without refresh_token', async () => {
    const server = await startStandardServer(() => ({ body: tokenBody('only-access-token') }));
    try {
      const client = createOAuthClient({
        apiBaseUrl: 'https://api.example',
        issuer: server.url,
        clientId: 'app',
        clientSecret: 'app-secret-value',
      });
      const tokens = await client.exchangeCode({ code: 'code-1234', codeVerifier: VERIFIER, redirectUri: REDIRECT });
      expect(tokens).toEqual({
        accessToken: 'only-access-token',
        issuedAt: expect.any(Number),
        expiresAt: tokens.issuedAt! + 300_000,
      });
      expect(server.requests.map((r) => r.url)).toEqual(['/.well-known/oauth-authorization-server', '/token']);
      expect(Object.fromEntries(new URLSearchParams(server.requests[1]!.body))).toEqual({
        grant_type: 'authorization_code',
        code: 'code-1234',
        code_verifier: VERIFIER,
        redirect_uri: REDIRECT,
        client_id: 'app',
        client_secret: 'app-secret-value',
      });
    } finally {
      await server.close();
    }
  });

  it('refuses a redirect from the metadata or the token endpoint without following it (the secret stays home)', async () => {
    const elsewhere = await startScriptedServer(() => ({ body: tokenBody('stolen') }));
    const server = await startScriptedServer((request) => ({
      status: request.url.startsWith('/.well-known/') ? 301 : 307,
      headers: { location: `${elsewhere.url}${request.url}` },
      body: '',
    }));
    const receivers: unknown[] = [];
    const plainFetch = function (this: unknown, input: string | URL | Request, init?: RequestInit) {
      receivers.push(this);
      return fetch(input, init);
    };
    try {
      const viaMetadata = createOAuthClient({
        apiBaseUrl: 'https://api.example',
        issuer: server.url,
        clientId: 'app',
        clientSecret: 'app-secret-value',
        fetch: plainFetch,
      });
      await expect(
        viaMetadata.exchangeCode({ code: 'code-1234', codeVerifier: VERIFIER, redirectUri: REDIRECT }),
      ).rejects.toMatchObject({ code: 'upstream_invalid_response' });
      const direct = createOAuthClient({
        apiBaseUrl: 'https://api.example',
        endpoints: { token: `${server.url}/token` },
        clientId: 'app',
        clientSecret: 'app-secret-value',
        fetch: plainFetch,
      });
      await expect(direct.refresh('a-refresh-token')).rejects.toMatchObject({ code: 'upstream_invalid_response' });
      expect(server.requests.map((r) => r.url)).toEqual(['/.well-known/oauth-authorization-server', '/token']);
      expect(elsewhere.requests).toHaveLength(0);
      // oauth4webapi calls a custom fetch as a plain function, as workerd needs its own fetch called.
      expect(receivers).toEqual([undefined, undefined]);
    } finally {
      await Promise.all([server.close(), elsewhere.close()]);
    }
  });

  it('keeps the refresh token when a refresh response has none (RFC 6749 section 6)', async () => {
    const server = await startStandardServer(() => ({ body: tokenBody('new-access-token') }));
    try {
      const client = createOAuthClient({
        apiBaseUrl: 'https://api.example',
        endpoints: { token: `${server.url}/token` },
        clientId: 'app',
        clientSecret: 'app-secret-value',
      });
      await expect(client.refresh('the-old-refresh-token')).resolves.toMatchObject({
        accessToken: 'new-access-token',
        refreshToken: 'the-old-refresh-token',
      });
      // Explicit endpoints need no metadata.
      expect(server.requests.map((r) => r.url)).toEqual(['/token']);
    } finally {
      await server.close();
    }
  });

  it('client_secret_basic: the credentials in the Authorization header, none in the body', async () => {
    const server = await startStandardServer(() => ({ body: tokenBody('a-token-value', { refresh_token: 'r' }) }));
    try {
      const client = createOAuthClient({
        apiBaseUrl: 'https://api.example',
        issuer: server.url,
        clientId: 'my app',
        clientSecret: 's3cret:with/odd+chars',
        clientAuthentication: 'client_secret_basic',
      });
      await client.refresh('refresh-token-1');
      const sent = server.requests[1]!;
      // RFC 6749 section 2.3.1: each part form-urlencoded before the Basic encoding.
      const expected = Buffer.from('my+app:s3cret%3Awith%2Fodd%2Bchars').toString('base64');
      expect(sent.headers.authorization).toBe(`Basic ${expected}`);
      expect(Object.fromEntries(new URLSearchParams(sent.body))).toEqual({
        grant_type: 'refresh_token',
        refresh_token: 'refresh-token-1',
      });
    } finally {
      await server.close();
    }
  });

  it('private_key_jwt: a client assertion the server verifies with the public key, no secret needed', async () => {
    const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify']);
    const server = await startStandardServer(() => ({ body: tokenBody('a-token-value', { refresh_token: 'r' }) }));
    try {
      const client = createOAuthClient({
        apiBaseUrl: 'https://api.example',
        issuer: server.url,
        clientId: 'app',
        clientAuthentication: { method: 'private_key_jwt', key: keys.privateKey, kid: 'key-1' },
      });
      await client.refresh('refresh-token-1');
      const form = new URLSearchParams(server.requests[1]!.body);
      expect(form.get('client_assertion_type')).toBe('urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      expect(form.has('client_secret')).toBe(false);
      const [header, payload, signature] = form.get('client_assertion')!.split('.') as [string, string, string];
      const valid = await crypto.subtle.verify(
        { name: 'ECDSA', hash: 'SHA-256' },
        keys.publicKey,
        Buffer.from(signature, 'base64url'),
        Buffer.from(`${header}.${payload}`),
      );
      expect(valid).toBe(true);
      expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toEqual({ alg: 'ES256', kid: 'key-1' });
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
      expect(claims).toMatchObject({ iss: 'app', sub: 'app', aud: server.url });
      expect(claims.exp).toBeGreaterThan(Date.now() / 1000);
    } finally {
      await server.close();
    }
  });

  it('waits out 429 twice, and gives up with rate_limited on the third', async () => {
    const server = await startStandardServer(() => ({
      status: 429,
      headers: { 'retry-after': '0' },
      body: { error: 'slow_down' },
    }));
    try {
      const client = createOAuthClient({
        apiBaseUrl: 'https://api.example',
        issuer: server.url,
        clientId: 'app',
        clientSecret: 'app-secret',
      });
      await expect(client.refresh('refresh-token-1')).rejects.toMatchObject({ code: 'rate_limited', status: 429 });
      expect(server.requests.filter((r) => r.url === '/token')).toHaveLength(3);
    } finally {
      await server.close();
    }
  });

  it('refuses metadata that names another issuer, sends nothing, and reads it again on the next use', async () => {
    let lying = true;
    const server = await startStandardServer(
      () => ({ body: tokenBody('a-token-value', { refresh_token: 'r' }) }),
      (issuer) => ({ issuer: lying ? 'https://attacker.test' : issuer, token_endpoint: `${issuer}/token` }),
    );
    try {
      const client = createOAuthClient({
        apiBaseUrl: 'https://api.example',
        issuer: server.url,
        clientId: 'app',
        clientSecret: 'app-secret',
      });
      const refused = client.exchangeCode({ code: 'code-1234', codeVerifier: VERIFIER, redirectUri: REDIRECT });
      await expect(refused).rejects.toMatchObject({ code: 'upstream_invalid_response' });
      await expect(refused).rejects.toThrow(`issuer ${server.url} names the issuer https://attacker.test`);
      expect(server.requests.map((r) => r.url)).toEqual(['/.well-known/oauth-authorization-server']);
      lying = false;
      await expect(client.refresh('refresh-token-1')).resolves.toMatchObject({ accessToken: 'a-token-value' });
      expect(server.requests.map((r) => r.url)).toEqual([
        '/.well-known/oauth-authorization-server',
        '/.well-known/oauth-authorization-server',
        '/token',
      ]);
    } finally {
      await server.close();
    }
  });

  it('refuses metadata whose token endpoint is plain http on another host, sending nothing', async () => {
    const server = await startStandardServer(
      () => ({ body: tokenBody('a-token-value') }),
      (issuer) => ({ issuer, token_endpoint: 'http://as.example/token' }),
    );
    try {
      const client = createOAuthClient({
        apiBaseUrl: 'https://api.example',
        issuer: server.url,
        clientId: 'app',
        clientSecret: 'app-secret',
      });
      await expect(client.refresh('refresh-token-1')).rejects.toMatchObject({
        code: 'upstream_invalid_response',
        message: expect.stringContaining('token_endpoint that is not https'),
      });
    } finally {
      await server.close();
    }
  });

  it('reads OpenID discovery when asked to', async () => {
    let issuer = '';
    const server = await startScriptedServer((request) =>
      request.url === '/.well-known/openid-configuration'
        ? { body: { issuer, token_endpoint: `${issuer}/oidc/token` } }
        : request.url === '/oidc/token'
          ? { body: tokenBody('a-token-value', { refresh_token: 'r' }) }
          : { status: 404, body: {} },
    );
    issuer = server.url;
    try {
      const client = createOAuthClient({
        apiBaseUrl: 'https://api.example',
        issuer,
        discovery: 'oidc',
        clientId: 'app',
        clientSecret: 'app-secret',
      });
      await expect(client.refresh('refresh-token-1')).resolves.toMatchObject({ accessToken: 'a-token-value' });
      expect(server.requests.map((r) => r.url)).toEqual(['/.well-known/openid-configuration', '/oidc/token']);
    } finally {
      await server.close();
    }
  });
});

describe('options', () => {
  const base = { apiBaseUrl: 'https://api.example', clientId: 'app' };

  it('refuses a missing secret, except with private_key_jwt', async () => {
    expect(() => createOAuthClient(base)).toThrow(
      expect.objectContaining({
        code: 'validation_failed',
        errors: [{ path: 'clientSecret', message: expect.stringContaining('is required with client_secret_post') }],
      }),
    );
    expect(() => createOAuthClient({ ...base, clientAuthentication: 'client_secret_basic' })).toThrow(/clientSecret/);
    const keys = (await crypto.subtle.generateKey({ name: 'Ed25519' }, false, [
      'sign',
      'verify',
    ])) as webcrypto.CryptoKeyPair;
    expect(() =>
      createOAuthClient({ ...base, clientAuthentication: { method: 'private_key_jwt', key: keys.publicKey } }),
    ).toThrow(/must be a private CryptoKey/);
    const aes = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt']);
    expect(() =>
      createOAuthClient({
        ...base,
        clientAuthentication: { method: 'private_key_jwt', key: aes as webcrypto.CryptoKey },
      }),
    ).toThrow(/must be a private CryptoKey/);
    expect(
      createOAuthClient({ ...base, clientAuthentication: { method: 'private_key_jwt', key: keys.privateKey } }).issuer,
    ).toBe('https://api.example');
  });

  it('refuses a bad issuer, endpoint, refresh lead or retry count', () => {
    const secret = { ...base, clientSecret: 'app-secret' };
    expect(() => createOAuthClient({ ...secret, issuer: 'http://as.example' })).toThrow(/"issuer"/);
    expect(() => createOAuthClient({ ...secret, issuer: 'https://as.example/?tenant=1' })).toThrow(/"issuer"/);
    expect(() => createOAuthClient({ ...secret, endpoints: { token: 'http://as.example/token' } })).toThrow(
      /"endpoints.token"/,
    );
    expect(() => createOAuthClient({ ...secret, refreshAhead: 0.8 })).toThrow(/"refreshAhead"/);
    expect(() => createOAuthClient({ ...secret, refreshAhead: 0 })).toThrow(/"refreshAhead"/);
    expect(() => createOAuthClient({ ...secret, maxRateLimitRetries: -1 })).toThrow(/"maxRateLimitRetries"/);
  });

  it('unsafeAllowMissingPkce: warns once when created, then exchanges without a verifier', async () => {
    const server = await startStandardServer(() => ({ body: tokenBody('a-token-value', { refresh_token: 'r' }) }));
    const warnings: string[] = [];
    try {
      const client = createOAuthClient({
        ...base,
        issuer: server.url,
        clientSecret: 'app-secret',
        unsafeAllowMissingPkce: true,
        logger: { warn: (message) => void warnings.push(message) },
      });
      await client.exchangeCode({ code: 'code-1234', redirectUri: REDIRECT });
      await client.exchangeCode({ code: 'code-5678', redirectUri: REDIRECT });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/unsafeAllowMissingPkce.*replayed/);
      expect(new URLSearchParams(server.requests[1]!.body).has('code_verifier')).toBe(false);
    } finally {
      await server.close();
    }
  });
});
