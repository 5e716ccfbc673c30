import { call } from '@paykit/test-support/sandbox-calls';
import { addMember, createBusiness, registerApp } from '@paykit/test-support/sandbox-control';
import { approveOnSandbox, exchangeCodeOnSandbox } from '@paykit/test-support/sandbox-oauth';
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../start.js';
import { REDIRECT, useRegisteredApp, type RegisteredApp } from '../../test-support/registered-app.js';
import { SEED_USER } from './oauth-state.js';

let sandbox: RunningSandbox;
let app: RegisteredApp;
useRegisteredApp((fixture) => ({ sandbox, app } = fixture), { oauth: { tokenRequestsPerMinute: 90 } });

const verifier = () => randomBytes(32).toString('base64url');
const challengeOf = (v: string) => createHash('sha256').update(v).digest('base64url');

async function approveCode(extra: Record<string, string> = {}, scope = 'payments business:read'): Promise<string> {
  const answer = await call(sandbox, 'POST', '/_sandbox/oauth/approve', {
    json: {
      user_id: SEED_USER.id,
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      scope,
      state: 'st-1',
      business_id: sandbox.seed.businessId,
      ...extra,
    },
  });
  expect(answer.status).toBe(200);
  const url = new URL(answer.body.redirect as string);
  expect(url.searchParams.get('state')).toBe('st-1');
  return url.searchParams.get('code')!;
}

async function token(form: Record<string, string>) {
  return call(sandbox, 'POST', '/v1/open/oauth/token', {
    apiKey: null,
    form: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, ...form }),
  });
}

describe('authorization code flow', () => {
  it('exchanges a PKCE code once for tokens that act on the business within their scopes', async () => {
    const v = verifier();
    const code = await approveCode({ code_challenge: challengeOf(v), code_challenge_method: 'S256' });
    const tokens = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: v });
    expect(tokens.status).toBe(200);
    expect(tokens.headers.get('cache-control')).toBe('no-store');
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', expires_in: 31536000, scope: 'payments business:read' });
    const bearer = { authorization: `Bearer ${tokens.body.access_token}` };
    const info = await call(sandbox, 'GET', '/v1/info', { apiKey: null, headers: bearer });
    expect(info.body).toMatchObject({ id: sandbox.seed.businessId, name: 'Demo Store', payments_enabled: true });
    const created = await call(sandbox, 'POST', '/v1/payment-requests', {
      apiKey: null,
      headers: bearer,
      json: { amount: 5, currency: 'SGD' },
    });
    expect(created.status).toBe(200);

    const replay = await token({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: v });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // A replayed code revokes what it issued (RFC 6749 section 4.1.2).
    expect((await call(sandbox, 'GET', '/v1/info', { apiKey: null, headers: bearer })).status).toBe(401);
  });

  it('refuses a wrong, a missing verifier, another redirect_uri and an expired code', async () => {
    const v = verifier();
    const pkce = { code_challenge: challengeOf(v), code_challenge_method: 'S256' };
    const wrong = await token({
      grant_type: 'authorization_code',
      code: await approveCode(pkce),
      redirect_uri: REDIRECT,
      code_verifier: verifier(),
    });
    expect(wrong.body).toMatchObject({ error: 'invalid_grant', error_description: 'code_verifier does not match' });
    const missing = await token({
      grant_type: 'authorization_code',
      code: await approveCode(pkce),
      redirect_uri: REDIRECT,
    });
    expect(missing.body.error_description).toBe('code_verifier is required');
    const elsewhere = await token({
      grant_type: 'authorization_code',
      code: await approveCode(),
      redirect_uri: 'https://platform.example/other',
    });
    expect(elsewhere.body.error).toBe('invalid_grant');
    const late = await approveCode();
    await call(sandbox, 'POST', '/_sandbox/clock', { json: { advance_seconds: 61 } });
    expect(
      (await token({ grant_type: 'authorization_code', code: late, redirect_uri: REDIRECT })).body.error_description,
    ).toBe('The authorization code expired');
  });

  it('answers invalid_client for a wrong secret and unsupported_grant_type for others', async () => {
    const code = await approveCode();
    const bad = await call(sandbox, 'POST', '/v1/open/oauth/token', {
      apiKey: null,
      form: new URLSearchParams({
        grant_type: 'authorization_code',
        client_id: app.client_id,
        client_secret: 'nope',
        code,
        redirect_uri: REDIRECT,
      }),
    });
    expect(bad).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect((await token({ grant_type: 'password' })).body.error).toBe('unsupported_grant_type');
    const json = await call(sandbox, 'POST', '/v1/open/oauth/token', {
      apiKey: null,
      json: { grant_type: 'refresh_token' },
    });
    expect(json.body.error).toBe('invalid_request');
  });

  it('refreshes with rotation: the old refresh token stops working, the old access token lives on', async () => {
    const first = (await token({ grant_type: 'authorization_code', code: await approveCode(), redirect_uri: REDIRECT }))
      .body;
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(second.status).toBe(200);
    expect(second.body.access_token).not.toBe(first.access_token);
    const bearer = (t: string) => ({ apiKey: null, headers: { authorization: `Bearer ${t}` } });
    // A call in flight during the refresh must not meet a 401 (which spec 5.3.4 reads as revocation).
    expect((await call(sandbox, 'GET', '/v1/info', bearer(first.access_token))).status).toBe(200);
    expect((await call(sandbox, 'GET', '/v1/info', bearer(second.body.access_token))).status).toBe(200);
    // Shown again, the spent refresh token is refused (and, being a replay, ends the family: token-endpoint.test.ts).
    expect((await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token })).body.error).toBe(
      'invalid_grant',
    );
  });

  it('limits the token endpoint to 90 requests a minute per client, then 429 with Retry-After', async () => {
    for (let i = 0; i < 90; i += 1)
      expect((await token({ grant_type: 'refresh_token', refresh_token: 'x' })).status).toBe(400);
    const limited = await token({ grant_type: 'refresh_token', refresh_token: 'x' });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('authorization request checks', () => {
  it('rejects a scope the app was not granted, an unknown scope, and plain PKCE', async () => {
    const notGranted = await call(sandbox, 'POST', '/_sandbox/oauth/approve', {
      json: {
        user_id: SEED_USER.id,
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        scope: 'commerce:delete',
        business_id: sandbox.seed.businessId,
      },
    });
    expect(notGranted).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
    expect(notGranted.body.error_description).toContain('commerce:delete');
    const plain = await call(sandbox, 'POST', '/_sandbox/oauth/approve', {
      json: {
        user_id: SEED_USER.id,
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        scope: 'payments',
        business_id: sandbox.seed.businessId,
        code_challenge: challengeOf(verifier()),
        code_challenge_method: 'plain',
      },
    });
    expect(plain).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });

  it('shows an error page, never a redirect, for an unknown client or redirect_uri', async () => {
    const page = await fetch(
      `${sandbox.url}/oauth/authorize?client_id=${app.client_id}&redirect_uri=https://evil.example/cb&response_type=code&scope=payments`,
      {
        redirect: 'manual',
      },
    );
    expect(page.status).toBe(400);
    expect(await page.text()).toContain('redirect_uri is not one of the redirect URIs');
  });

  it('lets only Owners and Admins approve', async () => {
    const member = await addMember(sandbox);
    const refused = await call(sandbox, 'POST', '/_sandbox/oauth/approve', {
      json: {
        user_id: member.id,
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        scope: 'payments',
        business_id: sandbox.seed.businessId,
      },
    });
    expect(refused).toMatchObject({ status: 403, body: { code: 'forbidden' } });
  });
});

describe('the consent page, as a person uses it', () => {
  /** A tiny browser: follows nothing by itself, keeps the session cookie. */
  async function browse(url: string, init: RequestInit & { cookie?: string } = {}) {
    const response = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.cookie ? { cookie: init.cookie } : {}), ...(init.headers as object) },
    });
    return {
      response,
      text: await response.text(),
      cookie: response.headers.get('set-cookie')?.split(';')[0] ?? init.cookie,
    };
  }
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

  it('signs in, picks among several businesses, approves; and denies with access_denied', async () => {
    const second = await createBusiness(sandbox, { name: 'Harbour Cafe' });
    await call(sandbox, 'POST', '/_sandbox/users', {
      json: {
        email: 'multi@example.test',
        name: 'Multi',
        memberships: [
          { business_id: sandbox.seed.businessId, role: 'admin' },
          { business_id: second.id, role: 'owner' },
        ],
      },
    });
    const authorize = `/oauth/authorize?${new URLSearchParams({ client_id: app.client_id, redirect_uri: REDIRECT, response_type: 'code', scope: 'payments:read', state: 'xyz' })}`;
    const first = await browse(sandbox.url + authorize);
    expect(first.response.status).toBe(303);
    expect(first.response.headers.get('location')).toMatch(/^\/dashboard\/sign-in\?next=/);
    const signedIn = await browse(
      `${sandbox.url}/dashboard/sign-in`,
      form({ email: 'multi@example.test', next: authorize }),
    );
    expect(signedIn.response.headers.get('location')).toBe(authorize);
    const consent = await browse(sandbox.url + authorize, { cookie: signedIn.cookie! });
    expect(consent.response.status).toBe(200);
    expect(consent.response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(consent.text).toContain('Acme Platform');
    expect(consent.text).toContain('Harbour Cafe');
    expect(consent.text).toContain('View payments and payment requests');
    const csrf = /name="csrf" value="([^"]+)"/.exec(consent.text)![1]!;
    const fields = {
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'payments:read',
      state: 'xyz',
      csrf,
    };

    const forged = await browse(`${sandbox.url}/oauth/authorize`, {
      ...form({ ...fields, csrf: 'forged', business_id: second.id, decision: 'approve' }),
      cookie: signedIn.cookie!,
    });
    expect(forged.response.status).toBe(403);

    const approved = await browse(`${sandbox.url}/oauth/authorize`, {
      ...form({ ...fields, business_id: second.id, decision: 'approve' }),
      cookie: signedIn.cookie!,
    });
    const back = new URL(approved.response.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('xyz');
    // RFC 9207: the sandbox names itself on the redirect, so a client can refuse a mix-up.
    expect(back.searchParams.get('iss')).toBe(sandbox.url);
    const tokens = await token({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: REDIRECT,
    });
    const info = await call(sandbox, 'GET', '/v1/info', {
      apiKey: null,
      headers: { authorization: `Bearer ${tokens.body.access_token}` },
    });
    expect(tokens.status, back.href).toBe(200);
    expect(info.body, JSON.stringify(info.body)).toMatchObject({ name: 'Harbour Cafe' });

    const denied = await browse(`${sandbox.url}/oauth/authorize`, {
      ...form({ ...fields, business_id: second.id, decision: 'deny' }),
      cookie: signedIn.cookie!,
    });
    const deniedUrl = new URL(denied.response.headers.get('location')!);
    expect(deniedUrl.searchParams.get('error')).toBe('access_denied');
    expect(deniedUrl.searchParams.get('state')).toBe('xyz');
    expect(deniedUrl.searchParams.get('iss')).toBe(sandbox.url);
  });
});

describe('Bearer tokens', () => {
  async function bearerFor(scope: string) {
    const app2 = await registerApp(sandbox, {
      name: 'Reader',
      redirectUris: [REDIRECT],
      scopes: ['business:read', 'payments:read'],
    });
    const { code } = await approveOnSandbox(sandbox, {
      userId: SEED_USER.id,
      clientId: app2.client_id,
      redirectUri: REDIRECT,
      scope,
      businessId: sandbox.seed.businessId,
    });
    const tokens = await exchangeCodeOnSandbox(sandbox, app2, { code, redirectUri: REDIRECT });
    return { app: app2, headers: { authorization: `Bearer ${tokens.body.access_token}` } };
  }

  it('answer 403 naming the missing scope, and pass /v1/info with any scope', async () => {
    const { headers } = await bearerFor('payments:read');
    const refused = await call(sandbox, 'POST', '/v1/payment-requests', {
      apiKey: null,
      headers,
      json: { amount: 1, currency: 'SGD' },
    });
    expect(refused).toMatchObject({
      status: 403,
      body: { message: 'This token lacks the scope payments:create', code: 'forbidden' },
    });
    expect((await call(sandbox, 'GET', '/v1/payment-requests', { apiKey: null, headers })).status).toBe(200);
    const info = await bearerFor('business:read');
    expect((await call(sandbox, 'GET', '/v1/info', { apiKey: null, headers: info.headers })).status).toBe(200);
  });

  it('stop working at once on revocation, secret regeneration and app deletion; and on expiry', async () => {
    const revoked = await bearerFor('payments:read');
    await call(sandbox, 'POST', '/_sandbox/connections/revoke', {
      json: { business_id: sandbox.seed.businessId, client_id: revoked.app.client_id },
    });
    expect((await call(sandbox, 'GET', '/v1/info', { apiKey: null, headers: revoked.headers })).status).toBe(401);

    const regenerated = await bearerFor('payments:read');
    const secret = await call(sandbox, 'POST', `/_sandbox/apps/${regenerated.app.client_id}/secret`);
    expect(secret.body.client_secret).not.toBe(regenerated.app.client_secret);
    expect((await call(sandbox, 'GET', '/v1/info', { apiKey: null, headers: regenerated.headers })).status).toBe(401);

    const deleted = await bearerFor('payments:read');
    expect((await call(sandbox, 'DELETE', `/_sandbox/apps/${deleted.app.client_id}`)).status).toBe(204);
    expect((await call(sandbox, 'GET', '/v1/info', { apiKey: null, headers: deleted.headers })).status).toBe(401);

    const expiring = await bearerFor('payments:read');
    await call(sandbox, 'POST', '/_sandbox/clock', { json: { advance_seconds: 31536001 } });
    expect((await call(sandbox, 'GET', '/v1/info', { apiKey: null, headers: expiring.headers })).status).toBe(401);
  });
});
