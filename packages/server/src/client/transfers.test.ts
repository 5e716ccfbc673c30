/**
 * The client's transfers against the running sandbox, in the real service's shapes: an estimate, then the
 * transfer it describes, read back; both parsed by core's schemas.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { call } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentsClient, type PaymentsClient } from './payments-client.js';

let sandbox: RunningSandbox;
let client: PaymentsClient;
let beneficiaryId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  client = createPaymentsClient({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
  beneficiaryId = (
    await call(sandbox, 'POST', '/_sandbox/beneficiaries', {
      json: { business_id: sandbox.seed.businessId, holder_name: 'Ann Lee', account_number: '12345678' },
    })
  ).body.id;
  const request = await client.paymentRequests.create({ amount: 50, currency: 'SGD' });
  await call(sandbox, 'POST', `/_sandbox/payment-requests/${request.id}/pay`, { json: { outcome: 'succeeded' } });
});
afterAll(() => sandbox.close());

describe('payments client: transfers', () => {
  it('estimates, transfers what was estimated, and reads it back', async () => {
    const body = { beneficiary_id: beneficiaryId, source_currency: 'SGD', payment_amount: '12.50' };
    const estimate = await client.transfers.estimate(body);
    expect(estimate).toMatchObject({
      source_amount: 12.5,
      source_amount_fees: 0.5,
      source_currency: 'sgd',
      exchange_rate: '1',
      payment_amount: 12.5,
      payment_currency: 'sgd',
      fee_payer: 'payer',
    });
    const transfer = await client.transfers.create({ ...body, reference: 'INV-7' });
    expect(transfer).toMatchObject({
      status: 'scheduled',
      beneficiary: { id: beneficiaryId },
      source_amount: estimate.source_amount,
      payment_amount: estimate.payment_amount,
      exchange_rate: estimate.exchange_rate,
      fee: { amount: estimate.source_amount_fees, currency: 'sgd', paid_by: 'payer' },
      reference: 'INV-7',
    });
    expect(await client.transfers.get(transfer.id)).toEqual(transfer);
    expect((await client.transfers.list()).data.map((t) => t.id)).toContain(transfer.id);
  });

  it('refuses a body without an amount before sending it, naming the field', async () => {
    await expect(
      client.transfers.estimate({ beneficiary_id: beneficiaryId, source_currency: 'SGD' }),
    ).rejects.toMatchObject({ code: 'validation_failed', errors: [{ path: 'source_amount' }] });
  });
});

describe('payments client: subscription plans', () => {
  it('creates a custom-cycle plan, reads, updates and deletes it', async () => {
    const plan = await client.subscriptionPlans.create({
      name: 'Every 3 days',
      amount: '4.00',
      cycle: 'custom',
      cycle_repeat: 3,
      cycle_frequency: 'day',
    });
    expect(plan).toMatchObject({ cycle: 'custom', cycle_repeat: 3, cycle_frequency: 'day', amount: 4 });
    expect(await client.subscriptionPlans.get(plan.id)).toEqual(plan);
    const updated = await client.subscriptionPlans.update(plan.id, { name: 'Weekly', amount: 5, cycle: 'weekly' });
    expect(updated).toMatchObject({ id: plan.id, cycle: 'weekly', cycle_repeat: null, amount: 5 });
    await client.subscriptionPlans.delete(plan.id);
    await expect(client.subscriptionPlans.get(plan.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      client.subscriptionPlans.create({ name: 'x', amount: 1, cycle: 'custom', cycle_frequency: 'week' }),
    ).rejects.toMatchObject({ code: 'validation_failed', errors: [{ path: 'cycle_repeat' }] });
  });
});
