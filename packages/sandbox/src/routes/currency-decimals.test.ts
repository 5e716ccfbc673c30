/**
 * Money as the currency has it: the sandbox refuses a payment request whose amount has more decimals than its
 * currency (ISO 4217's minor unit, as `Intl.NumberFormat` reports it: JPY none, SGD two; at most two, the API's),
 * naming the currency, over real HTTP; what the currency can have is taken, `1250.00` yen included.
 */
import { call } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());
beforeEach(() => call(sandbox, 'POST', '/_sandbox/reset'));

const list = async () => (await call(sandbox, 'GET', '/v1/payment-requests')).body.data as unknown[];

describe('POST /v1/payment-requests: decimals by currency', () => {
  it.each([
    ['JPY', 'amount=1250.50&currency=JPY', 'must have no decimal places in JPY'],
    ['jpy, as JSON', { amount: 1250.5, currency: 'jpy' }, 'must have no decimal places in JPY'],
    ['KRW', 'amount=9900.1&currency=KRW', 'must have no decimal places in KRW'],
    ['KWD (three in ISO 4217, two in the API)', 'amount=12.345&currency=KWD', 'must have at most two decimal places'],
  ])('refuses an amount in %s that the currency cannot have, naming it, and creates nothing', async (_, body, why) => {
    const { status, body: answer } = await call(sandbox, 'POST', '/v1/payment-requests', {
      ...(typeof body === 'string' ? { form: body } : { json: body }),
    });
    expect(status).toBe(422);
    expect(answer.code).toBe('validation_failed');
    expect(answer.errors).toEqual({ amount: [why] });
    expect(await list()).toHaveLength(0);
  });

  it('refuses a commission with decimals the currency does not have', async () => {
    const { status, body } = await call(sandbox, 'POST', '/v1/payment-requests', {
      headers: { 'x-platform-key': sandbox.seed.platformKey },
      json: { amount: 1250, currency: 'JPY', platform_commission_amount: 12.5 },
    });
    expect(status).toBe(422);
    expect(body.errors).toEqual({ platform_commission_amount: ['must have no decimal places in JPY'] });
  });

  it.each([
    ['1250', 'JPY', '1250.00'],
    ['1250.00', 'JPY', '1250.00'],
    ['12.5', 'SGD', '12.50'],
    ['1.5', 'BHD', '1.50'],
  ])('takes %s %s, answered as %s', async (amount, currency, answered) => {
    const { status, body } = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount, currency } });
    expect(status).toBe(200);
    expect(body).toMatchObject({ amount: answered, currency: currency.toLowerCase() });
  });
});
