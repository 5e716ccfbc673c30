import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpRecorder, type HttpRecorder } from '../../../test/support/http-recorder.js';
import { call } from '../../../test/support/sandbox-calls.js';
import { startSandbox, type RunningSandbox } from './start.js';

let sandbox: RunningSandbox;
let platformHooks: HttpRecorder;
let merchantHooks: HttpRecorder;
let merchant: { id: string; api_key: string };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [] } });
  platformHooks = await startHttpRecorder();
  merchantHooks = await startHttpRecorder();
  merchant = (
    await call(sandbox, 'POST', '/_sandbox/businesses', {
      json: { name: 'Harbour Cafe', country: 'SG', currency: 'SGD' },
    })
  ).body;
  await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
    json: { business_id: sandbox.seed.businessId, url: platformHooks.url },
  });
  await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
    json: { business_id: merchant.id, url: merchantHooks.url },
  });
});
afterAll(async () => {
  await sandbox.close();
  await platformHooks.close();
  await merchantHooks.close();
});

const asPlatform = () => ({ apiKey: merchant.api_key, headers: { 'x-platform-key': sandbox.seed.platformKey } });

describe('platform key and commission (spec 5.4)', () => {
  it('echoes the commission, splits the money, and sends charge events to the platform with business_id', async () => {
    const created = await call(sandbox, 'POST', '/v1/payment-requests', {
      ...asPlatform(),
      json: { amount: 100, currency: 'SGD', platform_commission_amount: 5 },
    });
    expect(created.status).toBe(200);
    expect(created.body.platform_commission_amount).toBe(5);
    await call(sandbox, 'POST', `/_sandbox/payment-requests/${created.body.id}/pay`, {
      json: { outcome: 'succeeded' },
    });
    // 100.00 - fee (3.4% + 0.50 = 3.90) - commission 5.00
    expect((await call(sandbox, 'GET', `/_sandbox/businesses/${merchant.id}/balance`)).body.available).toBe('91.10');
    expect((await call(sandbox, 'GET', `/_sandbox/businesses/${sandbox.seed.businessId}/balance`)).body.available).toBe(
      '5.00',
    );

    const toPlatform = (await platformHooks.waitFor(2)).map((r) => JSON.parse(r.body));
    expect(toPlatform.map((e) => e.type)).toEqual(['charge.created', 'charge.updated']);
    expect(toPlatform.every((e) => e.business_id === merchant.id)).toBe(true);
    const toMerchant = (await merchantHooks.waitFor(1)).map((r) => JSON.parse(r.body).type);
    expect(toMerchant).toEqual(['payment_request.completed']);
  });

  it('refuses a commission without a platform key, on repeated payments, or not below the amount', async () => {
    const noKey = await call(sandbox, 'POST', '/v1/payment-requests', {
      apiKey: merchant.api_key,
      json: { amount: 10, currency: 'SGD', platform_commission_amount: 1 },
    });
    expect(noKey).toMatchObject({ status: 422, body: { errors: [{ path: 'platform_commission_amount' }] } });
    const repeated = await call(sandbox, 'POST', '/v1/payment-requests', {
      ...asPlatform(),
      json: { amount: 10, currency: 'SGD', platform_commission_amount: 1, allow_repeated_payments: true },
    });
    expect(repeated.status).toBe(422);
    const equal = await call(sandbox, 'POST', '/v1/payment-requests', {
      ...asPlatform(),
      json: { amount: 10, currency: 'SGD', platform_commission_amount: 10 },
    });
    expect(equal.body.errors).toEqual([{ path: 'platform_commission_amount', message: 'must be less than amount' }]);
    const wrongKey = await call(sandbox, 'POST', '/v1/payment-requests', {
      apiKey: merchant.api_key,
      headers: { 'x-platform-key': 'nope' },
      json: { amount: 10, currency: 'SGD' },
    });
    expect(wrongKey.status).toBe(401);
  });
});
