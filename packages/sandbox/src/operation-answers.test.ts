/**
 * Every operation of `@paykit/core`'s table that the sandbox serves answers, over real HTTP, what the row's
 * response schema reads: the run-time half of the serializers' compile-time tie to core (`wire.ts`). One
 * scenario makes a real answer for each operation (a paid payment request, a refund, a payout, a saved card,
 * a transfer, ...), and each answer is parsed with `operations[id].response`. A list is also checked for the
 * shape its row's `pagination` names: spec 2.6's cursor meta (`per_page` a string), the real service's cursor
 * list, or its page-numbered list (`per_page` a number in both).
 */
import { OPERATION_IDS, operations, type OperationId } from '@paykit/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Answer, submitPageForm } from '@paykit/test-support/sandbox-calls';
import { startSandbox, type RunningSandbox } from './start.js';

let sandbox: RunningSandbox;
const answers = new Map<OperationId, Answer>();

/** Calls the sandbox as operation `id` and keeps the answer for the checks below. */
async function as(id: OperationId, path: string, options: Parameters<typeof call>[3] = {}): Promise<Answer> {
  const answer = await call(sandbox, operations[id].method, path, options);
  expect(answer.status, `${id}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  answers.set(id, answer);
  return answer;
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [] } });
  const business = sandbox.seed.businessId;
  const control = (path: string, json: unknown) => call(sandbox, 'POST', `/_sandbox/${path}`, { json });

  await as('info.get', '/v1/info');
  const paid = await as('paymentRequests.create', '/v1/payment-requests', {
    json: { amount: 100, currency: 'SGD', name: 'Ann Lee', reference_number: 'ORDER-1', metadata: { cart: '7' } },
  });
  await control(`payment-requests/${paid.body.id}/pay`, { outcome: 'succeeded' });
  const pending = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 5, currency: 'SGD' } });
  await as('paymentRequests.update', `/v1/payment-requests/${pending.body.id}`, {
    json: { amount: 6, currency: 'SGD', purpose: 'Changed' },
  });
  await as('paymentRequests.get', `/v1/payment-requests/${paid.body.id}`);
  await as('paymentRequests.list', '/v1/payment-requests');
  await as('paymentRequests.cancel', `/v1/payment-requests/${pending.body.id}`);

  const charges = await as('charges.list', '/v1/charges');
  const chargeId = charges.body.data[0].id as string;
  await as('charges.get', `/v1/charges/${chargeId}`);
  const refund = await as('refunds.create', '/v1/refunds', { json: { amount: 1, payment_id: chargeId } });
  await as('refunds.get', `/v1/refunds/${refund.body.id}`);
  const orders = await as('orders.list', '/v1/orders');
  await as('orders.get', `/v1/orders/${orders.body.data[0].id}`);

  const beneficiary = await control('beneficiaries', {
    business_id: business,
    holder_name: 'Ann Lee',
    account_number: '12345678',
  });
  await as('beneficiaries.get', `/v1/beneficiaries/${beneficiary.body.id}`);
  const transferBody = { beneficiary_id: beneficiary.body.id, source_currency: 'SGD', source_amount: 10 };
  await as('transfers.estimate', '/v1/transfers/estimate', { json: transferBody });
  const transfer = await as('transfers.create', '/v1/transfers', { json: { ...transferBody, remark: 'Rent' } });
  await as('transfers.get', `/v1/transfers/${transfer.body.id}`);
  await as('transfers.list', '/v1/transfers');

  const payout = await control('payouts', { business_id: business });
  await as('payouts.get', `/v1/payouts/${payout.body.id}`);
  await as('balances.transactions.list', `/v1/balances/${sandbox.context.balanceProcessorSegment}/transactions`);

  const card = await as('recurringBilling.create', '/v1/recurring-billing', {
    json: { customer_email: 'ann@example.test', save_card: true, name: 'Card on file', amount: 20 },
  });
  await submitPageForm(card.body.url, 'card_number=4242424242424242&outcome=save');
  await as('recurringBilling.get', `/v1/recurring-billing/${card.body.id}`);
  await as('recurringBilling.list', '/v1/recurring-billing');
  await as('recurringBilling.update', `/v1/recurring-billing/${card.body.id}`, { json: { name: 'Card kept' } });
  await as('recurringBilling.charge', `/v1/charge/recurring-billing/${card.body.id}`, {
    json: { amount: 7.5, currency: 'SGD' },
  });
  await as('recurringBilling.cancel', `/v1/recurring-billing/${card.body.id}`);

  const plan = await as('subscriptionPlans.create', '/v1/subscription-plan', {
    json: { name: 'Fortnightly', amount: 9.9, cycle: 'custom', cycle_repeat: 2, cycle_frequency: 'week' },
  });
  await as('subscriptionPlans.get', `/v1/subscription-plan/${plan.body.id}`);
  await as('subscriptionPlans.update', `/v1/subscription-plan/${plan.body.id}`, {
    json: { name: 'Monthly', amount: 19.9, cycle: 'monthly' },
  });
  await as('subscriptionPlans.list', '/v1/subscription-plan');
  await as('subscriptionPlans.delete', `/v1/subscription-plan/${plan.body.id}`);

  const staff = await control('staff', {
    business_id: business,
    name: 'Sam',
    email: 'sam@example.test',
    role_title: 'Cashier',
  });
  await as('staff.get', `/v1/staffs/${staff.body.id}`);
  await as('accountStatus.get', '/v1/account-status');

  const product = await as('products.create', '/v1/products', { json: { name: 'Mug', price: 15 } });
  await as('products.list', '/v1/products');
  await as('products.delete', `/v1/products/${product.body.id}`);
  await as('invoices.create', '/v1/invoices', {
    json: {
      customer: { name: 'Ann Lee', email: 'ann@example.test' },
      invoice_date: '2026-01-05',
      currency: 'SGD',
      amount: 42,
      payment_by: 'amount',
    },
  });
  await as('invoices.list', '/v1/invoices');
  await as('customers.create', '/v1/customers', { json: { name: 'Ann Lee', email: 'ann@example.test' } });
  await as('customers.list', '/v1/customers');

  const endpoint = await as('webhookEvents.create', '/v1/webhook-events', {
    json: { name: 'Orders', url: 'https://shop.test/hooks', event_types: ['order.created', 'order.updated'] },
  });
  await as('webhookEvents.get', `/v1/webhook-events/${endpoint.body.id}`);
  await as('webhookEvents.update', `/v1/webhook-events/${endpoint.body.id}`, { json: { name: 'All orders' } });
  await as('webhookEvents.list', '/v1/webhook-events');
  await as('webhookEvents.delete', `/v1/webhook-events/${endpoint.body.id}`);

  await control('terminals', { business_id: business, name: 'Counter' });
  await as('terminals.list', '/v1/terminals');
  await control('static-qr-codes', { business_id: business, name: 'Till' });
  await as('qrCodes.list', '/v1/static-qr-codes');
});
afterAll(() => sandbox.close());

describe("the sandbox's answers read with the operation table's response schemas", () => {
  it('has a real answer for every operation of the table', () => {
    expect(OPERATION_IDS.filter((id) => !answers.has(id))).toEqual([]);
  });

  it.each(OPERATION_IDS)('%s', (id) => {
    const answer = answers.get(id);
    if (!answer) throw new Error(`no answer for ${id}`);
    const parsed = operations[id].response.safeParse(answer.body);
    expect(parsed.success ? [] : parsed.error.issues, JSON.stringify(answer.body)).toEqual([]);
    const shape = operations[id].pagination;
    if (shape === 'none') return;
    const { meta, links, data } = answer.body as { meta: Record<string, unknown>; links?: unknown; data: unknown[] };
    expect(data.length, `${id} answered an empty page; the scenario should make one item`).toBeGreaterThan(0);
    if (shape === 'spec-cursor') {
      expect(meta).toEqual({ per_page: expect.any(String), next_cursor: null, prev_cursor: null });
    } else if (shape === 'cursor') {
      expect(typeof meta.per_page).toBe('number');
      expect(meta).toMatchObject({ path: expect.stringContaining('/v1/'), next_cursor: null, prev_cursor: null });
      expect(links).toMatchObject({ first: null, last: null });
    } else {
      expect(typeof meta.per_page).toBe('number');
      expect(meta).toMatchObject({ current_page: 1, last_page: 1, total: data.length, from: 1, to: data.length });
      expect(links).toMatchObject({ prev: null, next: null });
    }
  });
});
