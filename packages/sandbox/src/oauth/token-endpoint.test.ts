/**
 * The token endpoint's edges (spec 4.8, RFC 6749 sections 5.2 and 6, RFC 7636): grants bound to their client,
 * the refresh-token family, scope narrowing, the rate limit's keys and window, and the configurable lifetime.
 */
import { call } from '@paykit/test-support/sandbox-calls';
import { registerApp } from '@paykit/test-support/sandbox-control';
import { approveOnSandbox, exchangeCodeOnSandbox } from '@paykit/test-support/sandbox-oauth';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../start.js';
import { SEED_USER } from './oauth-state.js';

let sandbox: RunningSandbox;
const REDIRECT = 'https://platform.example/connect/callback';
type Client = { client_id: string; client_secret: string };
let app: Client;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await call(sandbox, 'POST', '/_sandbox/reset');
  app = await newApp('Acme Platform');
});

async function newApp(name: string, scopes = ['business:read', 'payments']): Promise<Client> {
  const created = await call(sandbox, 'POST', '/_sandbox/apps', {
    json: { business_id: sandbox.seed.businessId, name, redirect_uris: [REDIRECT], scopes },
  });
  expect(created.status).toBe(201);
  return created.body;
}

async function approveCode(client: Client = app, extra: Record<string, string> = {}): Promise<string> {
  const answer = await call(sandbox, 'POST', '/_sandbox/oauth/approve', {
    json: {
      user_id: SEED_USER.id,
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      scope: 'payments business:read',
      state: 's',
      business_id: sandbox.seed.businessId,
      ...extra,
    },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return new URL(answer.body.redirect).searchParams.get('code')!;
}

const token = (form: Record<string, string>, client: Client = app) =>
  call(sandbox, 'POST', '/v1/open/oauth/token', {
    apiKey: null,
    form: new URLSearchParams({ client_id: client.client_id, client_secret: client.client_secret, ...form }),
  });

const exchange = async (client: Client = app) =>
  (await token({ grant_type: 'authorization_code', code: await approveCode(client), redirect_uri: REDIRECT }, client))
    .body;

const infoWith = async (accessToken: string) =>
  (await call(sandbox, 'GET', '/v1/info', { apiKey: null, headers: { authorization: `Bearer ${accessToken}` } }))
    .status;

describe('grants are bound to their client', () => {
  it("refuses another app's code and another app's refresh token as invalid_grant", async () => {
    const other = await newApp('Other Platform');
    const code = await approveCode(app);
    const stolen = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, other);
    expect(stolen).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // The owner can still use it: a failed theft does not burn the code.
    const mine = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(mine.status).toBe(200);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: mine.body.refresh_token }, other);
    expect(refreshed).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('refuses a code_verifier for a code issued without a challenge (code injection, RFC 9700 2.1.1)', async () => {
    const code = await approveCode();
    const injected = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: randomBytes(32).toString('base64url'),
    });
    expect(injected).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('accepts the RFC 7636 appendix B verifier for its challenge', async () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(challenge).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    const code = await approveCode(app, { code_challenge: challenge, code_challenge_method: 'S256' });
    const tokens = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(tokens.status).toBe(200);
  });
});

describe('the refresh-token family', () => {
  it('a replayed code revokes the tokens refreshed from it too', async () => {
    const code = await approveCode();
    const first = (await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })).body;
    const second = (await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).body;
    expect(await infoWith(second.access_token)).toBe(200);
    const replay = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
    expect(replay.body).toMatchObject({
      error: 'invalid_grant',
      error_description: 'The authorization code was already used',
    });
    expect(await infoWith(first.access_token)).toBe(401);
    expect(await infoWith(second.access_token)).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token })).body.error).toBe(
      'invalid_grant',
    );
  });

  it('revocation kills every generation at once, old access tokens included', async () => {
    const first = await exchange();
    const second = (await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).body;
    const other = await exchange(await newApp('Unrelated'));
    await call(sandbox, 'POST', '/_sandbox/connections/revoke', {
      json: { business_id: sandbox.seed.businessId, client_id: app.client_id },
    });
    expect(await infoWith(first.access_token)).toBe(401);
    expect(await infoWith(second.access_token)).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token })).body.error).toBe(
      'invalid_grant',
    );
    // Another app's connection to the same business is untouched.
    expect(await infoWith(other.access_token)).toBe(200);
  });

  it('a spent refresh token shown again revokes the family, the newest tokens included (RFC 9700 4.14.2)', async () => {
    const first = await exchange();
    const second = (await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).body;
    expect(await infoWith(second.access_token)).toBe(200);
    const replay = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await infoWith(second.access_token)).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token: second.refresh_token })).body.error).toBe(
      'invalid_grant',
    );
  });

  it('a refresh token outlives its access token: an expired access token is renewed', async () => {
    const first = await exchange();
    await call(sandbox, 'POST', '/_sandbox/clock', { json: { advance_seconds: 31_536_000 } });
    expect(await infoWith(first.access_token)).toBe(401);
    const renewed = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(renewed.status).toBe(200);
    expect(await infoWith(renewed.body.access_token)).toBe(200);
  });

  it('after secret regeneration the old secret is invalid_client and the new one cannot revive old tokens', async () => {
    const first = await exchange();
    const fresh = (await call(sandbox, 'POST', `/_sandbox/apps/${app.client_id}/secret`)).body.client_secret;
    const old = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(old).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const revived = await token(
      { grant_type: 'refresh_token', refresh_token: first.refresh_token },
      { client_id: app.client_id, client_secret: fresh },
    );
    expect(revived).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('a deleted app is an unknown client', async () => {
    const first = await exchange();
    await call(sandbox, 'DELETE', `/_sandbox/apps/${app.client_id}`);
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).body.error).toBe(
      'invalid_client',
    );
  });
});

describe('scope on refresh (RFC 6749 section 6)', () => {
  it('narrows the scopes, and refuses more than was granted with invalid_scope', async () => {
    const first = await exchange();
    const narrow = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      scope: 'payments:read',
    });
    expect(narrow.body).toMatchObject({ scope: 'payments:read' });
    const created = await call(sandbox, 'POST', '/v1/payment-requests', {
      apiKey: null,
      headers: { authorization: `Bearer ${narrow.body.access_token}` },
      json: { amount: 1, currency: 'SGD' },
    });
    expect(created.body.message).toBe('This token lacks the scope payments:create');
    const wider = await token({
      grant_type: 'refresh_token',
      refresh_token: narrow.body.refresh_token,
      scope: 'payments commerce:read',
    });
    expect(wider).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(wider.body.error_description).toContain('commerce:read');
    const bogus = await token({ grant_type: 'refresh_token', refresh_token: narrow.body.refresh_token, scope: 'all' });
    expect(bogus.body.error).toBe('invalid_scope');
    const onCode = await token({
      grant_type: 'authorization_code',
      code: await approveCode(),
      redirect_uri: REDIRECT,
      scope: 'payments',
    });
    expect(onCode.body.error).toBe('invalid_request');
  });
});

describe('request shape', () => {
  it('answers RFC 6749 5.2 errors: missing grant_type, duplicates, unknown client, every one no-store', async () => {
    const missing = await call(sandbox, 'POST', '/v1/open/oauth/token', { apiKey: null, form: 'client_id=x' });
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(missing.headers.get('cache-control')).toBe('no-store');
    const duplicated = await call(sandbox, 'POST', '/v1/open/oauth/token', {
      apiKey: null,
      form: `grant_type=refresh_token&refresh_token=a&refresh_token=b&client_id=${app.client_id}&client_secret=${app.client_secret}`,
    });
    expect(duplicated.body).toEqual({
      error: 'invalid_request',
      error_description: 'A parameter appears more than once',
    });
    const unknown = await token(
      { grant_type: 'refresh_token', refresh_token: 'x' },
      { client_id: 'app_nope', client_secret: 'x' },
    );
    expect(unknown).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(JSON.stringify(unknown.body)).not.toContain('app_nope');
  });
});

describe('rate limit (spec 8: 90 a minute)', () => {
  it('counts per client: another client is not slowed down; the window reopens a minute later', async () => {
    const other = await newApp('Other');
    for (let i = 0; i < 90; i += 1) await token({ grant_type: 'refresh_token', refresh_token: 'x' });
    const limited = await token({ grant_type: 'refresh_token', refresh_token: 'x' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: 'rate_limited' });
    expect(limited.headers.get('cache-control')).toBe('no-store');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect((await token({ grant_type: 'refresh_token', refresh_token: 'x' }, other)).status).toBe(400);
    await call(sandbox, 'POST', '/_sandbox/clock', { json: { advance_seconds: 61 } });
    expect((await token({ grant_type: 'refresh_token', refresh_token: 'x' })).status).toBe(400);
  });

  it('counts requests without a client_id (JSON bodies, empty forms) per IP address', async () => {
    for (let i = 0; i < 90; i += 1) {
      const answer = await call(sandbox, 'POST', '/v1/open/oauth/token', { apiKey: null, json: { grant_type: 'x' } });
      expect(answer.status).toBe(400);
    }
    const limited = await call(sandbox, 'POST', '/v1/open/oauth/token', { apiKey: null, form: '' });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toMatch(/^\d+$/);
    // A named client has its own budget.
    expect((await token({ grant_type: 'refresh_token', refresh_token: 'x' })).status).toBe(400);
  });
});

describe('access-token lifetime', () => {
  it('is configurable in startSandbox, and expires_in says it', async () => {
    const short = await startSandbox({ port: 0, oauth: { accessTokenTtlSeconds: 60 } });
    try {
      const client = await registerApp(short, { name: 'Short', redirectUris: [REDIRECT] });
      const { code } = await approveOnSandbox(short, {
        userId: SEED_USER.id,
        clientId: client.client_id,
        redirectUri: REDIRECT,
        scope: 'business:read',
        businessId: short.seed.businessId,
      });
      const tokens = await exchangeCodeOnSandbox(short, client, { code, redirectUri: REDIRECT });
      expect(tokens.body).toMatchObject({ expires_in: 60, scope: 'business:read' });
      const info = () =>
        call(short, 'GET', '/v1/info', {
          apiKey: null,
          headers: { authorization: `Bearer ${tokens.body.access_token}` },
        });
      expect((await info()).status).toBe(200);
      await call(short, 'POST', '/_sandbox/clock', { json: { advance_seconds: 60 } });
      expect((await info()).status).toBe(401);
    } finally {
      await short.close();
    }
  });
});
