/**
 * `.all()` over the sandbox's real lists, in both of the real service's shapes the sandbox answers: cursor
 * lists (customers, charges; `per_page` a number) and page-numbered lists (products, subscription plans;
 * `current_page` of `last_page`), each walked page by page without skipping or repeating an item; and spec
 * 2.6's ledger page (`per_page` a string) read as it is.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@paykit/test-support/sandbox-calls';
import { createPaymentsClient, type PaymentsClient } from './payments-client.js';

let sandbox: RunningSandbox;
let client: PaymentsClient;
const COUNT = 5;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [] } });
  client = createPaymentsClient({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
  for (let i = 1; i <= COUNT; i += 1) {
    await client.customers.create({ name: `Customer ${i}`, email: `c${i}@example.test` });
    await client.products.create({ name: `Product ${i}`, price: i, currency: 'SGD' });
    await client.subscriptionPlans.create({ name: `Plan ${i}`, amount: i, currency: 'SGD', cycle: 'monthly' });
    const request = await client.paymentRequests.create({ amount: i, currency: 'SGD' });
    await call(sandbox, 'POST', `/_sandbox/payment-requests/${request.id}/pay`, { json: { outcome: 'succeeded' } });
  }
});
afterAll(() => sandbox.close());

const walk = async <T extends { id: string }>(items: AsyncIterable<T>) => {
  const ids: string[] = [];
  for await (const item of items) ids.push(item.id);
  return ids;
};

describe('.all() over the sandbox lists', () => {
  it('follows the cursors of a cursor list (customers, charges), per_page a number', async () => {
    const first = await client.customers.list({ perPage: 2 });
    expect(first.meta).toMatchObject({ per_page: 2, next_cursor: expect.any(String), prev_cursor: null });
    const customers = await walk(client.customers.list.all({ perPage: 2 }));
    expect(customers).toHaveLength(COUNT);
    expect(new Set(customers).size).toBe(COUNT);
    expect(customers).toEqual((await client.customers.list({ perPage: 100 })).data.map((c) => c.id));
    expect(await walk(client.charges.list.all({ perPage: 2 }))).toHaveLength(COUNT);
  });

  it('follows the page numbers of a numbered list (products, subscription plans) up to last_page', async () => {
    const third = await client.products.list({ perPage: 2, page: 3 });
    expect(third.meta).toMatchObject({ current_page: 3, last_page: 3, per_page: 2, total: COUNT });
    expect(third.data).toHaveLength(1);
    const products = await walk(client.products.list.all({ perPage: 2 }));
    expect(products).toEqual((await client.products.list({ perPage: 100 })).data.map((p) => p.id));
    expect(new Set(products).size).toBe(COUNT);
    expect(await walk(client.subscriptionPlans.list.all({ perPage: 3 }))).toHaveLength(COUNT);
  });

  it("follows the cursors of spec 2.6's ledger page, per_page a string", async () => {
    const first = await client.balances.transactions.list({ perPage: 2 });
    expect(first.meta).toMatchObject({ per_page: '2', next_cursor: expect.any(String) });
    const walked: string[] = [];
    for await (const entry of client.balances.transactions.list.all({ perPage: 2 })) walked.push(entry.description);
    const whole = await client.balances.transactions.list({ perPage: 100 });
    // Each paid request is a credit and a fee debit.
    expect(walked).toHaveLength(COUNT * 2);
    expect(walked).toEqual(whole.data.map((e) => e.description));
  });
});
