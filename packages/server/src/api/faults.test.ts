/**
 * The client and the handler under the sandbox's injected faults: reads retried within their budget, creates
 * never duplicated, every failure a typed error the shopper can read.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { call } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPaykitHandler } from '../handler/create-handler.js';
import { createMerchantApi, type MerchantApi } from './merchant-api.js';

let sandbox: RunningSandbox;
let api: MerchantApi;
let existing: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  api = createMerchantApi({
    apiBaseUrl: sandbox.url,
    apiKey: sandbox.seed.apiKey,
    timeoutMs: 500,
    retry: { baseDelayMs: 10 },
  });
  existing = (await api.createPaymentRequest({ amount: 3, currency: 'SGD' })).id;
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await call(sandbox, 'DELETE', '/_sandbox/faults');
});

const arm = (fault: Record<string, unknown>) => call(sandbox, 'POST', '/_sandbox/faults', { json: fault });
const count = () => sandbox.context.state.paymentRequests.size;

describe('under injected faults', () => {
  it('a read survives a 503, a dropped connection and a slow answer within its attempts', async () => {
    await arm({ path: '/v1/payment-requests/', method: 'GET', kind: 'status', status: 503 });
    await arm({ path: '/v1/payment-requests/', method: 'GET', kind: 'drop' });
    expect((await api.getPaymentRequest(existing)).id).toBe(existing);
    await arm({ path: '/v1/payment-requests/', method: 'GET', kind: 'slow', delay_ms: 100 });
    expect((await api.getPaymentRequest(existing)).id).toBe(existing);
  });

  it('a read gives up with a typed error when the faults outlast its attempts', async () => {
    await arm({ path: '/v1/payment-requests/', kind: 'timeout', delay_ms: 2_000, times: 3 });
    await expect(api.getPaymentRequest(existing)).rejects.toMatchObject({ code: 'timeout' });
    // A 2xx that is not the expected JSON will not improve by asking again: not retried.
    for (const kind of ['truncated', 'html']) {
      await arm({ path: '/v1/payment-requests/', kind, times: 2 });
      await expect(api.getPaymentRequest(existing)).rejects.toMatchObject({ code: 'upstream_invalid_response' });
      expect(sandbox.context.faults.armed.at(-1)?.remaining).toBe(1);
      await call(sandbox, 'DELETE', '/_sandbox/faults');
    }
    await arm({ path: '/v1/payment-requests/', kind: 'rate_limit', retry_after: 30 });
    await expect(api.getPaymentRequest(existing)).rejects.toMatchObject({
      code: 'rate_limited',
      retryAfterSeconds: 30,
    });
  });

  it('a create is never sent twice, whatever the fault', async () => {
    for (const kind of ['status', 'drop', 'timeout', 'truncated', 'rate_limit']) {
      const before = count();
      await arm({ path: '/v1/payment-requests', method: 'POST', kind, delay_ms: 1_000 });
      await expect(api.createPaymentRequest({ amount: 1, currency: 'SGD' })).rejects.toBeDefined();
      // The fault answered instead of the route: nothing was created, and nothing was retried.
      expect(count(), kind).toBe(before);
      expect(sandbox.context.faults.armed.every((f) => f.remaining === 0)).toBe(true);
    }
  });

  it('the handler answers the shopper with its own readable error, and logs nothing secret', async () => {
    const logged: string[] = [];
    const handler = createPaykitHandler({
      api,
      createPaymentRequest: () => ({ amount: '9.00', currency: 'SGD' }),
      logger: { warn: (m) => void logged.push(m), error: (m) => void logged.push(m) },
    });
    await arm({ path: '/v1/payment-requests', method: 'POST', kind: 'status', status: 500 });
    const answer = await handler(
      new Request('http://shop.test/paykit/payment-requests', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    expect(answer.status).toBe(502);
    expect(await answer.json()).toEqual({
      code: 'upstream_error',
      message: 'The payment service could not start the checkout. Please try again.',
    });
    expect(logged.join('\n')).not.toContain(sandbox.seed.apiKey);
  });
});
