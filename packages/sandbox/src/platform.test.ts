import { startHttpRecorder, type HttpRecorder, type RecordedRequest } from '@paykit/test-support/http-recorder';
import { call } from '@paykit/test-support/sandbox-calls';
import { createBusiness, createUser, registerApp } from '@paykit/test-support/sandbox-control';
import { approveOnSandbox, exchangeCodeOnSandbox } from '@paykit/test-support/sandbox-oauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './start.js';

let sandbox: RunningSandbox;
let platformHooks: HttpRecorder;
let merchantHooks: HttpRecorder;
let merchant: { id: string; api_key: string };

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [] } });
  platformHooks = await startHttpRecorder();
  merchantHooks = await startHttpRecorder();
  merchant = await createBusiness(sandbox, { name: 'Harbour Cafe' });
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

/** An event webhook as a receiver reads it: the event from its headers, the object from its body. */
function eventOf(request: RecordedRequest) {
  return {
    type: `${String(request.headers['hitpay-event-object'])}.${String(request.headers['hitpay-event-type'])}`,
    body: JSON.parse(request.body) as Record<string, unknown>,
  };
}

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

    const toPlatform = (await platformHooks.waitFor(1)).map(eventOf);
    expect(toPlatform.map((e) => [e.type, e.body.business_id])).toEqual([['charge.created', merchant.id]]);
    const toMerchant = (await merchantHooks.waitFor(2)).map((r) => eventOf(r).type);
    expect(toMerchant.sort()).toEqual(['order.created', 'payment_request.completed']);
  });

  it('refuses a commission without a platform key, on repeated payments, or not below the amount', async () => {
    const noKey = await call(sandbox, 'POST', '/v1/payment-requests', {
      apiKey: merchant.api_key,
      json: { amount: 10, currency: 'SGD', platform_commission_amount: 1 },
    });
    expect(noKey).toMatchObject({
      status: 422,
      body: { errors: { platform_commission_amount: [expect.any(String)] } },
    });
    const repeated = await call(sandbox, 'POST', '/v1/payment-requests', {
      ...asPlatform(),
      json: { amount: 10, currency: 'SGD', platform_commission_amount: 1, allow_repeated_payments: true },
    });
    expect(repeated.status).toBe(422);
    const equal = await call(sandbox, 'POST', '/v1/payment-requests', {
      ...asPlatform(),
      json: { amount: 10, currency: 'SGD', platform_commission_amount: 10 },
    });
    expect(equal.body.errors).toEqual({ platform_commission_amount: ['must be less than amount'] });
    const wrongKey = await call(sandbox, 'POST', '/v1/payment-requests', {
      apiKey: merchant.api_key,
      headers: { 'x-platform-key': 'nope' },
      json: { amount: 10, currency: 'SGD' },
    });
    expect(wrongKey.status).toBe(401);
  });

  it('checks the commission at its edges (spec 5.4.3), in form bodies too', async () => {
    const commission = (value: string, amount = '10.00') =>
      call(sandbox, 'POST', '/v1/payment-requests', {
        ...asPlatform(),
        form: new URLSearchParams({ amount, currency: 'SGD', platform_commission_amount: value }),
      });
    for (const refused of ['0', '0.00', '-1', '0.001', '10', '10.00', '10.01', 'NaN', '1e0', 'abc']) {
      const answer = await commission(refused);
      expect(answer.status, refused).toBe(422);
      expect(Object.keys(answer.body.errors), refused).toEqual(['platform_commission_amount']);
    }
    // An empty form field is not sent, as the service reads forms: no commission, not a refused one.
    const empty = await commission('');
    expect(empty.status).toBe(200);
    expect(empty.body).not.toHaveProperty('platform_commission_amount');
    for (const [accepted, echoed] of [
      ['0.01', 0.01],
      ['9.99', 9.99],
      ['2.5', 2.5],
    ] as const) {
      const answer = await commission(accepted);
      expect(answer.status, accepted).toBe(200);
      expect(answer.body.platform_commission_amount).toBe(echoed);
    }
  });

  it('works with a Bearer token beside the platform key: OAuth-connected merchant, commission, unified events', async () => {
    const owner = await createUser(sandbox, {
      email: 'owner@harbour.test',
      name: 'Harbour Owner',
      businessId: merchant.id,
    });
    const app = await registerApp(sandbox, {
      name: 'Marketplace',
      redirectUris: ['https://platform.example/cb'],
      scopes: ['business:read', 'payments'],
    });
    const { code } = await approveOnSandbox(sandbox, {
      userId: owner.id,
      clientId: app.client_id,
      redirectUri: 'https://platform.example/cb',
      scope: 'payments',
      businessId: merchant.id,
    });
    const tokens = await exchangeCodeOnSandbox(sandbox, app, { code, redirectUri: 'https://platform.example/cb' });
    const before = {
      merchant: (await call(sandbox, 'GET', `/_sandbox/businesses/${merchant.id}/balance`)).body.available,
      platform: (await call(sandbox, 'GET', `/_sandbox/businesses/${sandbox.seed.businessId}/balance`)).body.available,
    };
    const platformBefore = platformHooks.requests.length;
    const merchantBefore = merchantHooks.requests.length;
    const created = await call(sandbox, 'POST', '/v1/payment-requests', {
      apiKey: null,
      headers: { authorization: `Bearer ${tokens.body.access_token}`, 'x-platform-key': sandbox.seed.platformKey },
      json: { amount: 20, currency: 'SGD', platform_commission_amount: 1.5 },
    });
    expect(created.status).toBe(200);
    expect(created.body.platform_commission_amount).toBe(1.5);
    await call(sandbox, 'POST', `/_sandbox/payment-requests/${created.body.id}/pay`, {
      json: { outcome: 'succeeded' },
    });
    // 20.00 - fee (0.68 + 0.50 = 1.18) - commission 1.50 = 17.32
    const after = {
      merchant: (await call(sandbox, 'GET', `/_sandbox/businesses/${merchant.id}/balance`)).body.available,
      platform: (await call(sandbox, 'GET', `/_sandbox/businesses/${sandbox.seed.businessId}/balance`)).body.available,
    };
    expect(Math.round((Number(after.merchant) - Number(before.merchant)) * 100)).toBe(1732);
    expect(Math.round((Number(after.platform) - Number(before.platform)) * 100)).toBe(150);
    const toPlatform = (await platformHooks.waitFor(platformBefore + 1)).slice(platformBefore).map(eventOf);
    expect(toPlatform.map((e) => [e.type, e.body.business_id])).toEqual([['charge.created', merchant.id]]);
    const toMerchant = (await merchantHooks.waitFor(merchantBefore + 2)).slice(merchantBefore).map(eventOf);
    expect(toMerchant.map((e) => e.type).sort()).toEqual(['order.created', 'payment_request.completed']);
  });

  it('keeps charge events with the merchant when no platform key was used', async () => {
    const platformBefore = platformHooks.requests.length;
    const merchantBefore = merchantHooks.requests.length;
    const created = await call(sandbox, 'POST', '/v1/payment-requests', {
      apiKey: merchant.api_key,
      json: { amount: 7, currency: 'SGD' },
    });
    await call(sandbox, 'POST', `/_sandbox/payment-requests/${created.body.id}/pay`, { json: { outcome: 'failed' } });
    const toMerchant = (await merchantHooks.waitFor(merchantBefore + 2))
      .slice(merchantBefore)
      .map((r) => eventOf(r).type);
    expect(toMerchant.sort()).toEqual(['charge.failed', 'payment_request.failed']);
    expect(platformHooks.requests.length).toBe(platformBefore);
  });
});
