/**
 * A field paykit's schemas do not name is sent on by the typed client, on every operation that takes a body:
 * the real service ignores fields it does not know (and may know one paykit does not yet), so our own client
 * must not refuse it. The bodies are read off the wire, on their way to the sandbox.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentsClient } from './payments-client.js';

let sandbox: RunningSandbox;
const sent: { path: string; body: string; warning: string | null }[] = [];

/** The global fetch, keeping what each call sent and the sandbox's warning header. */
const recordingFetch: typeof fetch = async (input, init) => {
  const request = new Request(input, init);
  const body = await request.clone().text();
  const answer = await fetch(request);
  sent.push({ path: new URL(request.url).pathname, body, warning: answer.headers.get('x-sandbox-warning') });
  return answer;
};

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

describe('undocumented fields through the typed client', () => {
  const client = () =>
    createPaymentsClient({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey, fetch: recordingFetch });

  it('are sent on (JSON and form bodies alike), and the answer parses', async () => {
    const customer = await client().customers.create({
      name: 'Ann Lee',
      email: 'ann@example.test',
      loyalty_tier: 'gold',
    });
    expect(customer).toMatchObject({ name: 'Ann Lee' });
    const plan = await client().subscriptionPlans.create({
      name: 'Beans',
      amount: 18.5,
      cycle: 'monthly',
      trial_days: 7,
    });
    expect(plan).toMatchObject({ name: 'Beans' });
    const card = await client().recurringBilling.create({
      customer_email: 'ann@example.test',
      save_card: true,
      name: 'Card on file',
      amount: 5,
      future_flag: 'x',
    });
    expect(card).toMatchObject({ name: 'Card on file' });

    const byPath = new Map(sent.map((call) => [call.path, call]));
    expect(byPath.get('/v1/customers')?.body).toContain('loyalty_tier');
    expect(byPath.get('/v1/customers')?.warning).toBe('ignored unknown field "loyalty_tier"');
    expect(byPath.get('/v1/subscription-plan')?.body).toContain('trial_days');
    expect(byPath.get('/v1/subscription-plan')?.warning).toBe('ignored unknown field "trial_days"');
    expect(byPath.get('/v1/recurring-billing')?.body).toContain('future_flag');
    expect(byPath.get('/v1/recurring-billing')?.warning).toBe('ignored unknown field "future_flag"');
  });

  it('a documented field with a wrong value is still refused before anything is sent', async () => {
    const before = sent.length;
    await expect(
      client().customers.create({ name: 'Ann Lee', email: 'not-an-email', loyalty_tier: 'gold' }),
    ).rejects.toMatchObject({ code: 'validation_failed', errors: [expect.objectContaining({ path: 'email' })] });
    expect(sent.length).toBe(before);
  });
});
