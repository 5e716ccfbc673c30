/**
 * The saved-card flow end to end, as a merchant's server would run it against the real service: create a
 * recurring billing with `save_card` through the client (form-encoded, the service's own example), send the
 * customer to its `url` (here: read the page and post its form as a browser would), read the card's brand and
 * last four (4.2), charge the saved card with `amount` and `currency`, cancel it; the business's webhook
 * endpoint and the record's `webhook`, both real HTTP servers on 127.0.0.1, receive the charge's events.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { submitPageForm } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentsClient, type PaymentsClient } from './payments-client.js';

/** A delivery as a receiver reads it: an event webhook (JSON, named by its headers) or a notification (a form). */
interface Received {
  path: string;
  type: string;
  fields: Record<string, unknown>;
}

let sandbox: RunningSandbox;
let client: PaymentsClient;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [50, 50] } });
  client = createPaymentsClient({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
  receiver = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => {
      const form = request.headers['content-type'] === 'application/x-www-form-urlencoded';
      received.push({
        path: request.url ?? '',
        type: form
          ? 'notification'
          : `${String(request.headers['hitpay-event-object'])}.${String(request.headers['hitpay-event-type'])}`,
        fields: form ? Object.fromEntries(new URLSearchParams(text)) : (JSON.parse(text) as Record<string, unknown>),
      });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const endpoint = await fetch(`${sandbox.url}/_sandbox/webhook-endpoints`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ business_id: sandbox.seed.businessId, url: `${receiverUrl}/merchant-endpoint` }),
  });
  expect(endpoint.status).toBe(201);
});

afterAll(async () => {
  await sandbox.close();
  await new Promise((resolve) => receiver.close(resolve));
});

/** Waits until `count` deliveries matching `match` arrived (deliveries are asynchronous). */
async function arrived(match: (r: Received) => boolean, count: number): Promise<Received[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = received.filter(match);
    if (found.length >= count || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('saved card: create, save on the checkout, read, charge, cancel, webhooks', () => {
  it('runs the whole flow through the server client against the sandbox', async () => {
    const record = await client.recurringBilling.create({
      save_card: true,
      name: 'Coffee club card',
      amount: 12.5,
      customer_email: 'ann@example.test',
      customer_name: 'Ann',
      reference: 'cust_42',
      redirect_url: 'https://shop.test/saved?from=club',
      payment_methods: ['card'],
      webhook: `${receiverUrl}/record-webhook`,
    });
    expect(record).toMatchObject({
      cycle: 'save_card',
      save_card: 1,
      customer_email: 'ann@example.test',
      customer_name: 'Ann',
      reference: 'cust_42',
      currency: 'sgd',
      amount: 12.5,
      status: 'scheduled',
      payment_method: null,
    });
    expect(record.url).toBe(`${sandbox.url}/checkout/recurring-plan/${record.id}`);

    // No card yet: nothing to charge.
    await expect(client.recurringBilling.charge(record.id, { amount: 1, currency: 'SGD' })).rejects.toMatchObject({
      code: 'conflict',
      status: 409,
    });

    // The customer opens the url: a page with a card-number field under a strict policy.
    const pageAnswer = await fetch(record.url!);
    const page = await pageAnswer.text();
    expect(pageAnswer.status).toBe(200);
    expect(page).toContain('Save a card for Demo Store');
    expect(page).toContain('name="card_number"');
    expect(page).toContain('SGD\u00a012.50');
    expect(pageAnswer.headers.get('content-security-policy')).toContain("form-action 'self' https://shop.test");

    const post = (body: string) => submitPageForm(record.url!, body);
    // A number that fails the Luhn check is asked again, and nothing is saved.
    const wrong = await post('card_number=5555+5555+5555+4445&outcome=save');
    expect(wrong.status).toBe(422);
    expect(await wrong.text()).toContain('role="alert"');
    expect((await client.recurringBilling.get(record.id)).payment_method).toBeNull();

    const saved = await post('card_number=5555+5555+5555+4444&outcome=save');
    expect(saved.status).toBe(303);
    const back = new URL(saved.headers.get('location')!);
    expect(back.origin + back.pathname).toBe('https://shop.test/saved');
    expect(Object.fromEntries(back.searchParams)).toEqual({ from: 'club', reference: record.id, status: 'active' });

    // 4.2: brand and last four.
    const card = await client.recurringBilling.get(record.id);
    expect(card).toMatchObject({ status: 'active', payment_method: { card: { brand: 'mastercard', last4: '4444' } } });
    expect((await client.recurringBilling.list()).data.map((r) => r.id)).toContain(record.id);
    expect((await client.recurringBilling.list({ status: 'canceled' })).data.map((r) => r.id)).not.toContain(record.id);

    // Charge it in the service's shape.
    const charged = await client.recurringBilling.charge(record.id, { amount: 7.25, currency: 'SGD' });
    expect(charged).toEqual({
      payment_id: expect.any(String),
      recurring_billing_id: record.id,
      amount: 7.25,
      currency: 'sgd',
      status: 'succeeded',
    });
    expect(await client.charges.get(charged.payment_id)).toMatchObject({ status: 'succeeded', amount: 7.25 });
    expect(await client.recurringBilling.get(record.id)).toMatchObject({ times_charged: 1, total_charge: 7.25 });

    // The merchant hears of it: charge.created at its endpoint, the notification's form at the record's webhook.
    const ofCharge = (r: Received) => r.fields.id === charged.payment_id || r.fields.payment_id === charged.payment_id;
    const events = await arrived(ofCharge, 2);
    expect(events.map((e) => [e.path, e.type]).sort()).toEqual([
      ['/merchant-endpoint', 'charge.created'],
      ['/record-webhook', 'notification'],
    ]);
    expect(events.find((e) => e.type === 'charge.created')?.fields).toMatchObject({
      status: 'succeeded',
      recurring_billing_id: record.id,
      payment_request_id: null,
    });
    expect(events.find((e) => e.type === 'notification')?.fields).toMatchObject({
      recurring_billing_id: record.id,
      amount: '7.25',
      currency: 'SGD',
      status: 'completed',
    });

    // Update: the fields given change, the card stays.
    expect(
      await client.recurringBilling.update(record.id, { name: 'Coffee club card (gold)', amount: 15 }),
    ).toMatchObject({
      name: 'Coffee club card (gold)',
      amount: 15,
      payment_method: { card: { brand: 'mastercard', last4: '4444' } },
    });

    // Cancel: the record says canceled and cannot be charged again.
    expect(await client.recurringBilling.cancel(record.id)).toMatchObject({ id: record.id, status: 'canceled' });
    expect((await client.recurringBilling.get(record.id)).status).toBe('canceled');
    await expect(client.recurringBilling.charge(record.id, { amount: 1, currency: 'SGD' })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect((await client.recurringBilling.list({ status: 'canceled' })).data.map((r) => r.id)).toContain(record.id);
  });

  it('refuses a save_card record without a name or amount, and one with a plan_id, in the service words', async () => {
    await expect(
      client.recurringBilling.create({ save_card: true, customer_email: 'ann@example.test' }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(
      client.recurringBilling.create({
        save_card: true,
        plan_id: '00000000-0000-4000-8000-00000000beef',
        name: 'Card',
        amount: 5,
        customer_email: 'ann@example.test',
      }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'save_card', message: 'When save_card true, you disallow to set plan_id.' }],
    });
  });
});
