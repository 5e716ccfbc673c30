/**
 * The sandbox as a standard OAuth 2.0 authorization server, for clients that know only the RFCs: its metadata
 * document (RFC 8414), `iss` on every authorization response (RFC 9207) and `client_secret_basic` at the token
 * endpoint (RFC 6749 section 2.3.1).
 */
import { call } from '@paykit/test-support/sandbox-calls';
import { describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../start.js';
import { REDIRECT, useRegisteredApp, type RegisteredApp } from '../../test-support/registered-app.js';
import { readBasicCredentials } from './client-basic-auth.js';
import { SEED_USER } from './oauth-state.js';

let sandbox: RunningSandbox;
let app: RegisteredApp;
useRegisteredApp((fixture) => ({ sandbox, app } = fixture));

/** A code, as the consent page's Connect gives it; returns the whole redirect. */
async function approved(state = 's-1'): Promise<URL> {
  const answer = await call(sandbox, 'POST', '/_sandbox/oauth/approve', {
    json: {
      user_id: SEED_USER.id,
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      scope: 'payments business:read',
      state,
      business_id: sandbox.seed.businessId,
    },
  });
  expect(answer.status).toBe(200);
  return new URL(answer.body.redirect as string);
}

/** RFC 6749 section 2.3.1: each part form-urlencoded (a space is `+`), then `id:secret` in base64. */
const basic = (id: string, secret: string) => {
  const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
};

const tokenRequest = (form: Record<string, string>, headers: Record<string, string> = {}) =>
  call(sandbox, 'POST', '/v1/open/oauth/token', { apiKey: null, form: new URLSearchParams(form), headers });

describe('the metadata document (RFC 8414)', () => {
  it('names the sandbox as issuer, its two endpoints and what it supports, readable from any origin', async () => {
    const answer = await call(sandbox, 'GET', '/.well-known/oauth-authorization-server', {
      apiKey: null,
      headers: { origin: 'https://platform.example' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('cache-control')).toMatch(/max-age=\d+/);
    // RFC 8414 section 3.3: the issuer is the URL the document was fetched for, exactly (no trailing slash).
    expect(answer.body.issuer).toBe(sandbox.url);
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(answer.body).toMatchObject({
      authorization_endpoint: `${sandbox.url}/oauth/authorize`,
      token_endpoint: `${sandbox.url}/v1/open/oauth/token`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      authorization_response_iss_parameter_supported: true,
    });
    expect(answer.body.scopes_supported).toEqual(
      expect.arrayContaining(['business:read', 'payments', 'payments:read']),
    );
  });

  it('advertises endpoints that work: the authorize page and the token endpoint it names', async () => {
    const metadata = (await call(sandbox, 'GET', '/.well-known/oauth-authorization-server', { apiKey: null })).body;
    const page = await fetch(`${metadata.authorization_endpoint}?client_id=${app.client_id}`, { redirect: 'manual' });
    // An incomplete request to the real page: its own error page, not a 404.
    expect(page.status).toBe(400);
    const code = (await approved()).searchParams.get('code')!;
    const tokens = await fetch(metadata.token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: app.client_id,
        client_secret: app.client_secret,
      }),
    });
    expect(tokens.status).toBe(200);
  });

  it('is not an OpenID provider, and does not say it is', async () => {
    const oidc = await call(sandbox, 'GET', '/.well-known/openid-configuration', { apiKey: null });
    expect(oidc.status).toBe(404);
  });
});

describe('iss on every authorization response (RFC 9207 section 2)', () => {
  it('comes with a code, and with an error sent back to the client', async () => {
    expect((await approved()).searchParams.get('iss')).toBe(sandbox.url);
    // An error after client_id and redirect_uri are known good goes back to the client: with iss too.
    const refused = await fetch(
      `${sandbox.url}/oauth/authorize?${new URLSearchParams({
        client_id: app.client_id,
        redirect_uri: REDIRECT,
        response_type: 'token',
        scope: 'payments',
        state: 'st',
      })}`,
      { redirect: 'manual' },
    );
    expect(refused.status).toBe(303);
    const back = new URL(refused.headers.get('location')!);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      error: 'unsupported_response_type',
      state: 'st',
      iss: sandbox.url,
    });
  });
});

describe('client_secret_basic at the token endpoint (RFC 6749 section 2.3.1)', () => {
  it('exchanges a code and refreshes with the client in an Authorization: Basic header', async () => {
    const code = (await approved()).searchParams.get('code')!;
    const tokens = await tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      { authorization: basic(app.client_id, app.client_secret) },
    );
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'payments business:read' });
    // A client id in the body beside Basic is the client naming itself (section 3.2.1): fine when it agrees.
    const refreshed = await tokenRequest(
      { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: app.client_id },
      { authorization: basic(app.client_id, app.client_secret) },
    );
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
  });

  it('reads the id and secret as form-urlencoded values: "+", ":", "%" and spaces come back whole', () => {
    // The sandbox's own ids and secrets are URL-safe; a client library encodes every pair all the same.
    expect(readBasicCredentials(basic('app:1+2', 'se cret%:+/='))).toEqual({
      ok: true,
      clientId: 'app:1+2',
      clientSecret: 'se cret%:+/=',
    });
    // Not form-encoded: a bare "+" means a space.
    expect(readBasicCredentials(`Basic ${Buffer.from('a+b:c+d').toString('base64')}`)).toEqual({
      ok: true,
      clientId: 'a b',
      clientSecret: 'c d',
    });
    for (const header of ['Bearer abc', 'Basic', `Basic ${Buffer.from(':secret').toString('base64')}`, 'Basic %%%']) {
      expect(readBasicCredentials(header)).toMatchObject({ ok: false });
    }
    expect(readBasicCredentials(`Basic ${Buffer.from('id:%E0%A4%A').toString('base64')}`)).toMatchObject({ ok: false });
  });

  it('answers a wrong Basic secret with 401 and WWW-Authenticate: Basic, and a malformed header likewise', async () => {
    const code = (await approved()).searchParams.get('code')!;
    const wrong = await tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      { authorization: basic(app.client_id, 'not-the-secret') },
    );
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Basic realm="/);
    expect(wrong.headers.get('cache-control')).toBe('no-store');
    const malformed = await tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      { authorization: `Basic ${Buffer.from('no-colon-here').toString('base64')}` },
    );
    expect(malformed).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(malformed.headers.get('www-authenticate')).toMatch(/^Basic /);
    // A wrong secret in the body is still a plain 401: the client did not use Basic, so no Basic challenge.
    const posted = await tokenRequest({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: app.client_id,
      client_secret: 'not-the-secret',
    });
    expect(posted).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(posted.headers.get('www-authenticate')).toBe(null);
    // None of these spent the code.
    const good = await tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT },
      { authorization: basic(app.client_id, app.client_secret) },
    );
    expect(good.status).toBe(200);
  });

  it('refuses both methods at once, and a body client_id that names another client, as invalid_request', async () => {
    const code = (await approved()).searchParams.get('code')!;
    const both = await tokenRequest(
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: app.client_id,
        client_secret: app.client_secret,
      },
      { authorization: basic(app.client_id, app.client_secret) },
    );
    expect(both).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const other = await tokenRequest(
      { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: 'app_someone_else' },
      { authorization: basic(app.client_id, app.client_secret) },
    );
    expect(other).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
  });
});
