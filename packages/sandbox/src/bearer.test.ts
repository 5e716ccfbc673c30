/**
 * Bearer tokens on `/v1` (spec 5.1, 5.2): they act on the connected business, each operation checks its scope,
 * routes no scope grants are refused (fail closed), and refusals carry RFC 6750's `WWW-Authenticate`.
 */
import { call } from '@paykit/test-support/sandbox-calls';
import { createBusiness, createUser, registerApp } from '@paykit/test-support/sandbox-control';
import { exchangeCodeOnSandbox } from '@paykit/test-support/sandbox-oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './start.js';

let sandbox: RunningSandbox;
const REDIRECT = 'https://platform.example/connect/callback';
/** A merchant connected to the seeded business's app. */
let merchant: { id: string; api_key: string };
let ownerId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  merchant = await createBusiness(sandbox, { name: 'Harbour Cafe' });
  ownerId = (
    await createUser(sandbox, { email: 'owner@harbour-cafe.test', name: 'Harbour Owner', businessId: merchant.id })
  ).id;
});
afterAll(() => sandbox.close());

/** A token of an app of the seeded business (the platform), connected to the merchant with `scope`. */
async function tokenFor(scope: string): Promise<Record<string, string>> {
  const app = await registerApp(sandbox, {
    name: 'Platform',
    redirectUris: [REDIRECT],
    scopes: ['business:read', 'payments', 'commerce:read', 'customer'],
  });
  const approved = await call(sandbox, 'POST', '/_sandbox/oauth/approve', {
    json: { user_id: ownerId, client_id: app.client_id, redirect_uri: REDIRECT, scope, business_id: merchant.id },
  });
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  const tokens = await exchangeCodeOnSandbox(sandbox, app, {
    code: new URL(approved.body.redirect).searchParams.get('code')!,
    redirectUri: REDIRECT,
  });
  return { authorization: `Bearer ${tokens.body.access_token}` };
}

const as = (headers: Record<string, string>) => ({ apiKey: null, headers });

describe('Bearer tokens act on the connected business', () => {
  it("see the merchant's business and records, not the app owner's", async () => {
    const headers = await tokenFor('payments');
    const info = await call(sandbox, 'GET', '/v1/info', as(headers));
    expect(info.body).toEqual({
      id: merchant.id,
      name: 'Harbour Cafe',
      country: 'sg',
      currency: 'sgd',
      payments_enabled: true,
    });
    const platformOwn = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 3, currency: 'SGD' } });
    expect((await call(sandbox, 'GET', `/v1/payment-requests/${platformOwn.body.id}`, as(headers))).status).toBe(404);
    const created = await call(sandbox, 'POST', '/v1/payment-requests', {
      ...as(headers),
      json: { amount: 4, currency: 'SGD' },
    });
    const mine = await call(sandbox, 'GET', `/v1/payment-requests/${created.body.id}`, { apiKey: merchant.api_key });
    expect(mine.status).toBe(200);
  });

  it('GET /v1/info answers the API key too', async () => {
    const info = await call(sandbox, 'GET', '/v1/info');
    expect(info.body).toMatchObject({ id: sandbox.seed.businessId, name: 'Demo Store', payments_enabled: true });
  });
});

describe('scope checks', () => {
  it('refuse each family without its scope, naming the scope, with WWW-Authenticate insufficient_scope', async () => {
    const headers = await tokenFor('payments:read commerce:read');
    const cases: [string, string, string, unknown?][] = [
      ['POST', '/v1/payment-requests', 'payments:create', { amount: 1, currency: 'SGD' }],
      ['DELETE', '/v1/payment-requests/00000000-0000-4000-8000-000000000000', 'payments:cancel'],
      ['POST', '/v1/refunds', 'payments:refund', {}],
      ['POST', '/v1/refund', 'payments:refund', {}],
      ['DELETE', '/v1/products/x', 'commerce:delete'],
      ['POST', '/v1/products', 'commerce:create', {}],
      ['GET', '/v1/customers', 'customer:read'],
    ];
    for (const [method, path, scope, json] of cases) {
      const refused = await call(sandbox, method, path, { ...as(headers), ...(json ? { json } : {}) });
      expect(refused.status, `${method} ${path}`).toBe(403);
      expect(refused.body).toEqual({ message: `This token lacks the scope ${scope}`, code: 'forbidden' });
      expect(refused.headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="${scope}"`);
    }
    expect((await call(sandbox, 'GET', '/v1/products', as(headers))).status).toBe(200);
    expect((await call(sandbox, 'GET', '/v1/charges', as(headers))).status).toBe(200);
  });

  it('let the family scope cover its members (payments covers payments:create)', async () => {
    const headers = await tokenFor('payments');
    const created = await call(sandbox, 'POST', '/v1/payment-requests', {
      ...as(headers),
      json: { amount: 2, currency: 'SGD' },
    });
    expect(created.status).toBe(200);
    expect((await call(sandbox, 'DELETE', `/v1/payment-requests/${created.body.id}`, as(headers))).status).toBe(200);
  });

  it('fail closed: routes no scope grants, unknown routes, HEAD and odd spellings', async () => {
    const headers = await tokenFor('payments customer');
    const transfers = await call(sandbox, 'GET', '/v1/transfers', as(headers));
    expect(transfers).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect(transfers.body.message).toBe('No OAuth scope grants GET /v1/transfers; call it with the business API key');
    expect((await call(sandbox, 'GET', '/v1/transfers')).status).toBe(200);
    expect((await call(sandbox, 'GET', '/v1/no-such-thing', as(headers))).status).toBe(403);
    expect((await call(sandbox, 'GET', '/v1/account-status', as(headers))).status).toBe(403);
    expect((await call(sandbox, 'GET', '/v1/terminals', as(headers))).status).toBe(200);

    const reader = await tokenFor('business:read');
    expect((await call(sandbox, 'GET', '/v1/account-status', as(reader))).status).toBe(200);
    expect((await call(sandbox, 'HEAD', '/v1/payment-requests', as(reader))).status).toBe(403);
    for (const path of [
      '/v1/payment-requests/',
      '/v1//payment-requests',
      '/v1/Payment-Requests',
      '/v1/payment%2Drequests',
    ]) {
      const answer = await call(sandbox, 'POST', path, { ...as(reader), json: { amount: 1, currency: 'SGD' } });
      expect(answer.status, path).not.toBe(200);
    }
  });
});

describe('refused tokens', () => {
  it('answer 401 with WWW-Authenticate invalid_token, whatever is wrong; a Bearer header wins over an API key', async () => {
    const good = await tokenFor('payments:read');
    for (const authorization of ['Bearer nope', 'Bearer', 'Basic dXNlcjpwYXNz', `${good.authorization} extra`, '']) {
      const answer = await call(sandbox, 'GET', '/v1/info', as({ authorization }));
      expect(answer.status, authorization).toBe(401);
      expect(answer.body.code).toBe('unauthorized');
      expect(answer.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
    // A bad token beside a good API key is still refused: no silent fallback to another identity.
    const both = await call(sandbox, 'GET', '/v1/info', { headers: { authorization: 'Bearer nope' } });
    expect(both.status).toBe(401);
    // A good token beside someone's API key acts as the token says.
    const tokenWins = await call(sandbox, 'GET', '/v1/info', { headers: good });
    expect(tokenWins.body.id).toBe(merchant.id);
    // The lower-case scheme is accepted (RFC 7235: the scheme is case-insensitive).
    const lower = await call(
      sandbox,
      'GET',
      '/v1/info',
      as({ authorization: good.authorization!.replace('Bearer', 'bearer') }),
    );
    expect(lower.status).toBe(200);
  });

  it('an API key is never accepted as a Bearer token, nor a token as an API key', async () => {
    expect((await call(sandbox, 'GET', '/v1/info', as({ authorization: `Bearer ${merchant.api_key}` }))).status).toBe(
      401,
    );
    const token = (await tokenFor('payments')).authorization!.slice('Bearer '.length);
    expect((await call(sandbox, 'GET', '/v1/info', { apiKey: token })).status).toBe(401);
  });
});
