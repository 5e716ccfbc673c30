/**
 * The client is the operation table: every row of `@paykit/core`'s table is a method of the client (its id is
 * the method's path, `paymentRequests.create` is `client.paymentRequests.create`), sent with the row's method,
 * path and body encoding, and tried again after a 503 exactly when the row says it is safe to.
 */
import { OPERATION_IDS, matchesTemplate, operations, type OperationId } from '@paykit/core';
import { startScriptedServer, type ScriptedServer } from '@paykit/test-support/scripted-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentsClient, type PaymentsClient } from './payments-client.js';

const ID = '00000000-0000-4000-8000-000000000001';

/** Arguments that pass the client's own checks, for each operation. */
const ARGUMENTS: { readonly [K in OperationId]: readonly unknown[] } = {
  'info.get': [],
  'paymentRequests.create': [{ amount: 1, currency: 'SGD' }],
  'paymentRequests.list': [],
  'paymentRequests.get': [ID],
  'paymentRequests.update': [ID, { amount: 1, currency: 'SGD' }],
  'paymentRequests.cancel': [ID],
  'charges.list': [],
  'charges.get': [ID],
  'refunds.create': [{ amount: 1, payment_id: ID }],
  'refunds.get': [ID],
  'payouts.get': [ID],
  'balances.transactions.list': [{ created_at_from: '2026-01-01' }],
  'recurringBilling.create': [{ customer_email: 'a@example.com', save_card: true, name: 'Card', amount: 1 }],
  'recurringBilling.list': [],
  'recurringBilling.get': [ID],
  'recurringBilling.update': [ID, { name: 'Card' }],
  'recurringBilling.charge': [ID, { amount: 1, currency: 'SGD' }],
  'recurringBilling.cancel': [ID],
  'subscriptionPlans.create': [{ name: 'Plan', amount: 1, currency: 'SGD', cycle: 'monthly' }],
  'subscriptionPlans.list': [],
  'subscriptionPlans.get': [ID],
  'subscriptionPlans.update': [ID, { name: 'Plan', amount: 1, cycle: 'monthly' }],
  'subscriptionPlans.delete': [ID],
  'beneficiaries.get': [ID],
  'staff.get': [ID],
  'accountStatus.get': [],
  'products.create': [{ name: 'Mug', price: 1, currency: 'SGD' }],
  'products.list': [],
  'products.delete': [ID],
  'invoices.create': [
    {
      customer: { name: 'Ann', email: 'a@example.com' },
      invoice_date: '2026-11-23',
      payment_by: 'amount',
      amount: 1,
      currency: 'SGD',
    },
  ],
  'invoices.list': [],
  'orders.list': [],
  'orders.get': [ID],
  'customers.create': [{ name: 'Ann', email: 'a@example.com' }],
  'customers.list': [],
  'transfers.create': [{ beneficiary_id: ID, source_currency: 'SGD', source_amount: 1 }],
  'transfers.estimate': [{ beneficiary_id: ID, source_currency: 'SGD', source_amount: 1 }],
  'transfers.get': [ID],
  'transfers.list': [],
  'webhookEvents.list': [],
  'webhookEvents.create': [{ name: 'Hooks', url: 'https://shop.test/hooks', event_types: ['charge.created'] }],
  'webhookEvents.get': [ID],
  'webhookEvents.update': [ID, { name: 'Hooks' }],
  'webhookEvents.delete': [ID],
  'terminals.list': [],
  'qrCodes.list': [],
};

/** The client's method for operation `id`, found by walking the id's dotted path. */
function methodOf(client: PaymentsClient, id: OperationId): (...args: unknown[]) => Promise<unknown> {
  let node: unknown = client;
  for (const key of id.split('.')) node = (node as Record<string, unknown> | undefined)?.[key];
  expect(typeof node, `client.${id}`).toBe('function');
  return node as (...args: unknown[]) => Promise<unknown>;
}

let server: ScriptedServer;
let client: PaymentsClient;
const ATTEMPTS = 3;

beforeAll(async () => {
  server = await startScriptedServer(() => ({ status: 503, body: { message: 'down' } }));
  client = createPaymentsClient({
    apiBaseUrl: server.url,
    apiKey: 'k',
    retry: { attempts: ATTEMPTS, baseDelayMs: 1 },
    balanceProcessorSegment: 'acquirer',
  });
});
afterAll(() => server.close());

describe('the payments client follows the operation table', () => {
  it.each(OPERATION_IDS)('%s: the row’s method, path, encoding and retry policy', async (id) => {
    const row: { method: string; path: string; retry: string; encoding?: string; request: unknown } = operations[id];
    const before = server.requests.length;
    await expect(methodOf(client, id)(...ARGUMENTS[id])).rejects.toMatchObject({
      code: 'upstream_error',
      status: 503,
    });
    const sent = server.requests.slice(before);
    expect(sent).toHaveLength(row.retry === 'safe' ? ATTEMPTS : 1);
    for (const request of sent) {
      const url = new URL(request.url, server.url);
      expect(request.method).toBe(row.method);
      expect(matchesTemplate(row.path, url.pathname), `${url.pathname} is ${row.path}`).toBe(true);
      if (row.path.includes('{segment}')) expect(url.pathname).toBe('/v1/balances/acquirer/transactions');
      if (row.request === undefined) expect(request.body).toBe('');
      else
        expect(request.headers['content-type']).toBe(
          row.encoding === 'json' ? 'application/json' : 'application/x-www-form-urlencoded',
        );
    }
  });
});
