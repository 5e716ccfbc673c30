import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentsClient, type PaymentsClient } from './payments-client.js';

let sandbox: RunningSandbox;
let client: PaymentsClient;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  client = createPaymentsClient({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
});
afterAll(() => sandbox.close());

describe('payments client: payment requests and charges', () => {
  it('walks every payment request across pages with for await, none skipped or repeated', async () => {
    const created = new Set<string>();
    for (let i = 0; i < 23; i += 1)
      created.add((await client.paymentRequests.create({ amount: i + 1, currency: 'SGD' })).id);
    const walked: string[] = [];
    for await (const request of client.paymentRequests.list.all({ perPage: 5 })) walked.push(request.id);
    expect(walked).toHaveLength(created.size);
    expect(new Set(walked)).toEqual(created);
  });

  it('refuses a bad id or body before sending', async () => {
    await expect(client.paymentRequests.get('')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(client.refunds.create({ amount: 0, payment_id: 'x' })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'amount' }],
    });
  });
});
