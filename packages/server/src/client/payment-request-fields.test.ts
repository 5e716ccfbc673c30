/**
 * The real service's documented payment-request fields through both server clients, against the sandbox:
 * typed fields arrive and come back; a field our schema does not know is sent on (the real service may know
 * it) instead of being refused by our own client.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchantApi } from '../api/merchant-api.js';
import { createPaymentsClient } from './payments-client.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

describe('payment-request fields the real service documents', () => {
  it('are typed, sent as a form and echoed', async () => {
    const client = createPaymentsClient({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
    const created = await client.paymentRequests.create({
      amount: '12.50',
      currency: 'SGD',
      name: 'Harvey Friesen',
      phone: '+6591234567',
      reference_number: 'ORDER-42',
      send_email: true,
      send_sms: 'false',
      expires_after: '2 hours',
    });
    expect(created).toMatchObject({
      name: 'Harvey Friesen',
      phone: '+6591234567',
      reference_number: 'ORDER-42',
      send_email: true,
      send_sms: false,
    });
    expect(created.expiry_date).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });

  it('address and metadata go as key[inner] form fields and come back as objects', async () => {
    const client = createPaymentsClient({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
    const created = await client.paymentRequests.create({
      amount: '3.00',
      currency: 'SGD',
      address: { line1: '1 Harbour Street', city: 'Singapore', postal_code: '018956', state: 'SG', country: 'SG' },
      metadata: { order: '42' },
    });
    expect(created).toMatchObject({ address: { line1: '1 Harbour Street', postal_code: '018956' } });
    expect(created).toMatchObject({ metadata: { order: '42' } });
  });

  it('an unknown field is passed through, not refused by our client, and keeps the response intact', async () => {
    const api = createMerchantApi({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey, bodyEncoding: 'json' });
    // A field the real service might add tomorrow: our schema does not know it, so it must not stop the call.
    const body = { amount: 5, currency: 'SGD', reference_number: 'R-1', future_field: 'x' };
    const created = await api.createPaymentRequest(body);
    expect(created).toMatchObject({ amount: '5.00', reference_number: 'R-1', status: 'pending' });
  });

  it('a documented field with a wrong value is refused before anything is sent', async () => {
    const api = createMerchantApi({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
    await expect(
      api.createPaymentRequest({ amount: 5, currency: 'SGD', expiry_date: 'tomorrow' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      errors: expect.arrayContaining([expect.objectContaining({ path: 'expiry_date' })]),
    });
  });
});
