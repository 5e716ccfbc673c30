import { call } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

describe('control API', () => {
  it('creates businesses whose keys work, with a platform key only for platforms', async () => {
    const plain = await call(sandbox, 'POST', '/_sandbox/businesses', {
      json: { name: 'Shop', country: 'SG', currency: 'SGD' },
    });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ platform_key: null });
    expect(plain.body.api_key).toMatch(/^sk_sandbox_/);
    const platform = await call(sandbox, 'POST', '/_sandbox/businesses', {
      json: { name: 'Platform', country: 'SG', currency: 'SGD', platform: true },
    });
    expect(platform.body.platform_key).toMatch(/^pk_sandbox_/);
    const listed = await call(sandbox, 'GET', '/v1/payment-requests', { apiKey: plain.body.api_key });
    expect(listed.status).toBe(200);
  });

  it('validates its bodies', async () => {
    const bad = await call(sandbox, 'POST', '/_sandbox/businesses', {
      json: { name: '', country: 'SGP', currency: 'SGD' },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['name', 'country']);
    const endpoint = await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
      json: { business_id: 'nope', url: 'https://hooks.test/x' },
    });
    expect(endpoint.status).toBe(404);
    const pay = await call(sandbox, 'POST', '/_sandbox/payment-requests/nope/pay', { json: { outcome: 'maybe' } });
    expect(pay.status).toBe(422);
  });

  it('pays through the control API once, then refuses with 409', async () => {
    const { body } = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 3, currency: 'SGD' } });
    const paid = await call(sandbox, 'POST', `/_sandbox/payment-requests/${body.id}/pay`, {
      json: { outcome: 'succeeded' },
    });
    expect([paid.status, paid.body.status]).toEqual([200, 'completed']);
    const again = await call(sandbox, 'POST', `/_sandbox/payment-requests/${body.id}/pay`, {
      json: { outcome: 'failed' },
    });
    expect([again.status, again.body.message]).toEqual([409, 'The payment request is already completed']);
  });

  it('resets to the seeded business only', async () => {
    const created = await call(sandbox, 'POST', '/_sandbox/businesses', {
      json: { name: 'Gone', country: 'SG', currency: 'SGD' },
    });
    expect((await call(sandbox, 'POST', '/_sandbox/reset')).status).toBe(204);
    expect((await call(sandbox, 'GET', '/v1/payment-requests', { apiKey: created.body.api_key })).status).toBe(401);
    expect((await call(sandbox, 'GET', '/v1/payment-requests')).body.data).toEqual([]);
  });
});
