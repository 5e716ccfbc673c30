/**
 * The OAuth control endpoints (users, apps, approve, revoke, scopes, secret, clock): their exact shapes and
 * their refusals, so that a test or the demo gets a clear error and never a half-made record.
 */
import { call } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../start.js';

let sandbox: RunningSandbox;
const REDIRECT = 'https://platform.example/cb';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await call(sandbox, 'POST', '/_sandbox/reset');
});

const newApp = async (extra: Record<string, unknown> = {}) =>
  call(sandbox, 'POST', '/_sandbox/apps', {
    json: { business_id: sandbox.seed.businessId, name: 'App', redirect_uris: [REDIRECT], ...extra },
  });

const approve = (clientId: string, extra: Record<string, unknown> = {}) =>
  call(sandbox, 'POST', '/_sandbox/oauth/approve', {
    json: {
      user_id: sandbox.seed.ownerUserId,
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'business:read',
      state: 'st',
      business_id: sandbox.seed.businessId,
      ...extra,
    },
  });

describe('seed', () => {
  it('has the Demo Store owner as a dashboard user, back after reset', async () => {
    expect(sandbox.seed.ownerEmail).toBe('owner@demo-store.test');
    const app = (await newApp()).body;
    expect((await approve(app.client_id)).status).toBe(200);
  });
});

describe('POST /_sandbox/users', () => {
  it('answers 201 { id }, and refuses duplicates, unknown businesses and unknown roles', async () => {
    const created = await call(sandbox, 'POST', '/_sandbox/users', {
      json: {
        email: 'admin@demo-store.test',
        name: 'Admin',
        memberships: [{ business_id: sandbox.seed.businessId, role: 'admin' }],
      },
    });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(['id']);
    const again = await call(sandbox, 'POST', '/_sandbox/users', {
      json: { email: 'ADMIN@demo-store.test', name: 'Admin', memberships: [] },
    });
    expect(again).toMatchObject({ status: 409, body: { code: 'conflict' } });
    const nowhere = await call(sandbox, 'POST', '/_sandbox/users', {
      json: { email: 'x@example.test', name: 'X', memberships: [{ business_id: 'nope', role: 'owner' }] },
    });
    expect(nowhere.status).toBe(404);
    const king = await call(sandbox, 'POST', '/_sandbox/users', {
      json: {
        email: 'y@example.test',
        name: 'Y',
        memberships: [{ business_id: sandbox.seed.businessId, role: 'king' }],
      },
    });
    expect(king.status).toBe(422);
  });
});

describe('POST /_sandbox/apps', () => {
  it('answers 201 { client_id, client_secret }; a new app has only business:read', async () => {
    const created = await newApp();
    expect(created.status).toBe(201);
    expect(Object.keys(created.body).sort()).toEqual(['client_id', 'client_secret']);
    // The secret is kept only as a hash.
    const stored = sandbox.context.oauth.apps.get(created.body.client_id)!;
    expect(JSON.stringify(stored)).not.toContain(created.body.client_secret);
    expect(stored.scopes).toEqual(['business:read']);
    const refused = await approve(created.body.client_id, { scope: 'payments:read' });
    expect(refused).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });

  it('refuses a missing redirect URI, a non-URL one, an unknown scope, an unknown business', async () => {
    expect((await newApp({ redirect_uris: [] })).status).toBe(422);
    expect((await newApp({ redirect_uris: ['not a url'] })).status).toBe(422);
    expect((await newApp({ scopes: ['everything'] })).status).toBe(422);
    expect((await newApp({ business_id: 'nope' })).status).toBe(404);
  });

  it('PUT /_sandbox/apps/{id}/scopes grants more scopes (the review of spec 5.2 rule 4)', async () => {
    const app = (await newApp()).body;
    const granted = await call(sandbox, 'PUT', `/_sandbox/apps/${app.client_id}/scopes`, {
      json: { scopes: ['business:read', 'payments'] },
    });
    expect(granted.body).toEqual({ client_id: app.client_id, scopes: ['business:read', 'payments'] });
    expect((await approve(app.client_id, { scope: 'payments:create' })).status).toBe(200);
    expect(
      (await call(sandbox, 'PUT', '/_sandbox/apps/app_nope/scopes', { json: { scopes: ['payments'] } })).status,
    ).toBe(404);
  });

  it('POST /_sandbox/apps/{id}/secret answers a new secret; DELETE /_sandbox/apps/{id} answers 204 then 404', async () => {
    const app = (await newApp()).body;
    const secret = await call(sandbox, 'POST', `/_sandbox/apps/${app.client_id}/secret`);
    expect(secret.status).toBe(200);
    expect(secret.body.client_secret).toMatch(/^cs_sandbox_/);
    expect(secret.body.client_secret).not.toBe(app.client_secret);
    expect((await call(sandbox, 'DELETE', `/_sandbox/apps/${app.client_id}`)).status).toBe(204);
    expect((await call(sandbox, 'DELETE', `/_sandbox/apps/${app.client_id}`)).status).toBe(404);
    expect((await approve(app.client_id)).body.error).toBe('invalid_client');
  });
});

describe('POST /_sandbox/oauth/approve', () => {
  it('answers 200 { redirect } with code and state; refuses what the consent page refuses', async () => {
    const app = (await newApp()).body;
    const approved = await approve(app.client_id);
    expect(Object.keys(approved.body)).toEqual(['redirect']);
    const back = new URL(approved.body.redirect);
    expect(back.origin + back.pathname).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st');
    expect(back.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect((await approve(app.client_id, { user_id: 'nope' })).status).toBe(404);
    expect((await approve(app.client_id, { redirect_uri: 'https://evil.example/cb' })).status).toBe(400);
    expect((await approve(app.client_id, { business_id: 'nope' })).status).toBe(403);
    expect((await approve(app.client_id, { scope: '' })).status).toBe(400);
    expect((await approve(app.client_id, { code_challenge_method: 'S256' })).status).toBe(400);
  });
});

describe('POST /_sandbox/connections/revoke and /_sandbox/clock', () => {
  it('revoke answers 204, also when nothing was connected; the clock refuses going back', async () => {
    const app = (await newApp()).body;
    const revoked = await call(sandbox, 'POST', '/_sandbox/connections/revoke', {
      json: { business_id: sandbox.seed.businessId, client_id: app.client_id },
    });
    expect(revoked.status).toBe(204);
    expect((await call(sandbox, 'POST', '/_sandbox/connections/revoke', { json: { business_id: 'x' } })).status).toBe(
      422,
    );
    const moved = await call(sandbox, 'POST', '/_sandbox/clock', { json: { advance_seconds: 3600 } });
    expect(new Date(moved.body.now).getTime()).toBeGreaterThan(Date.now() + 3_500_000);
    expect((await call(sandbox, 'POST', '/_sandbox/clock', { json: { advance_seconds: -5 } })).status).toBe(422);
  });
});
