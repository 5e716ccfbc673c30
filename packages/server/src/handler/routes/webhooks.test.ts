/**
 * `POST {prefix}/webhooks` against the sandbox's real deliveries: both formats of the service, signed with the
 * business's salt. A paid order is acted on once whichever format arrives first; every forgery is refused with
 * nothing done (no claim in the event store, no call to the API, no hook), counted at the store, at a proxy in
 * front of the API, and at the hook.
 */
import { startSandbox, type RunningSandbox, type WebhookDelivery } from '@paykit/sandbox';
import { startCountingProxy, type CountingProxy } from '@paykit/test-support/counting-proxy';
import { call } from '@paykit/test-support/sandbox-calls';
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toNodeListener } from '../../adapters/node.js';
import { createPaykitHandler } from '../create-handler.js';
import { MemoryEventStore, type ClaimResult } from '../event-store.js';
import type { ConfirmedEvent, PaykitHandlerOptions } from '../options.js';

/** An event store that also counts claims, so that a test sees whether a refused delivery reached it. */
class CountingEventStore extends MemoryEventStore {
  claims = 0;
  override claim(fact: string, at?: number): ClaimResult {
    this.claims += 1;
    return super.claim(fact, at);
  }
}

let sandbox: RunningSandbox;
let api: CountingProxy;
let shop: { url: string; server: Server };
let store: CountingEventStore;
let events: ConfirmedEvent[];
let logged: string[];
let hookError: Error | undefined;
let options: Partial<PaykitHandlerOptions>;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [30, 30], timeoutMs: 2_000 } });
  api = await startCountingProxy(sandbox.url);
  const server = createServer((req, res) =>
    toNodeListener(
      createPaykitHandler({
        api: { apiBaseUrl: api.url, apiKey: sandbox.seed.apiKey },
        createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD' }),
        eventStore: store,
        logger: {
          warn: (m, d) => void logged.push(`${m} ${String(d)}`),
          error: (m, d) => void logged.push(`${m} ${String(d)}`),
        },
        onEvent: (event) => {
          if (hookError) throw hookError;
          events.push(event);
        },
        webhookSalt: sandbox.seed.salt,
        ...options,
      }),
    )(req, res),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  shop = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
});
afterAll(async () => {
  shop.server.closeAllConnections();
  shop.server.close();
  await api.close();
  await sandbox.close();
});
beforeEach(async () => {
  await call(sandbox, 'POST', '/_sandbox/reset');
  store = new CountingEventStore();
  events = [];
  logged = [];
  hookError = undefined;
  options = {};
});
afterEach(() => sandbox.context.webhooks.idle());

const hookUrl = () => `${shop.url}/paykit/webhooks`;

/** A payment request whose `webhook` is the shop's route, paid (or failed) on the sandbox. */
async function settledPayment(outcome: 'succeeded' | 'failed', extra: Record<string, unknown> = {}): Promise<string> {
  const created = await call(sandbox, 'POST', '/v1/payment-requests', {
    json: { amount: '12.50', currency: 'SGD', webhook: hookUrl(), ...extra },
  });
  expect(created.status).toBe(200);
  const paid = await call(sandbox, 'POST', `/_sandbox/payment-requests/${created.body.id}/pay`, { json: { outcome } });
  expect(paid.status).toBe(200);
  await settled();
  return created.body.id as string;
}

/** Waits until no delivery is pending. */
async function settled(): Promise<WebhookDelivery[]> {
  for (let i = 0; i < 200; i += 1) {
    await sandbox.context.webhooks.idle();
    const all = sandbox.context.webhooks.deliveries;
    if (all.every((delivery) => delivery.status !== 'pending')) return all;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('webhook deliveries did not settle');
}

/** Registers the shop's route for these events, through the service's webhook-events API. */
async function listen(eventTypes: string[]): Promise<void> {
  const answer = await call(sandbox, 'POST', '/v1/webhook-events', {
    json: { name: 'shop', url: hookUrl(), event_types: eventTypes },
  });
  expect(answer.status).toBe(201);
}

/** Posts a delivery's request (or a changed copy) to the shop, as the service would. */
async function deliver(request: { headers: Record<string, string>; body: string }) {
  const answer = await fetch(hookUrl(), { method: 'POST', headers: request.headers, body: request.body });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

/** What a refused delivery must not have caused. */
function sideEffects() {
  return {
    claims: store.claims,
    apiCalls: api.total(),
    hooks: events.length,
  };
}

const hmac = (key: string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest('hex');

describe("the payment notification (a payment request's `webhook`)", () => {
  it('fulfils a paid order on its own, confirmed with the API', async () => {
    const id = await settledPayment('succeeded');
    const [notification] = sandbox.context.webhooks.deliveries;
    expect(notification).toMatchObject({ format: 'notification', status: 'delivered', response_status: 200 });
    expect(events).toMatchObject([
      { type: 'payment_request.completed', deliveredAs: 'notification', paymentRequest: { id, status: 'completed' } },
    ]);
    expect(events[0]?.fact).toBe(`payment_request.completed:${id}`);
  });

  it('tells a failed payment as payment_request.failed', async () => {
    const id = await settledPayment('failed');
    expect(events).toMatchObject([{ type: 'payment_request.failed', paymentRequest: { id, status: 'failed' } }]);
  });
});

describe('both formats of one fact', () => {
  it('run the hook once, whichever arrives first, and answer the other as a duplicate', async () => {
    await listen(['payment_request.completed', 'charge.created']);
    const id = await settledPayment('succeeded');
    const deliveries = sandbox.context.webhooks.deliveries;
    expect(deliveries.map((d) => [d.format, d.event, d.status]).sort()).toEqual([
      ['event', 'charge.created', 'delivered'],
      ['event', 'payment_request.completed', 'delivered'],
      ['notification', 'payment_request.completed', 'delivered'],
    ]);
    // One payment, one event: the charge of a payment request is that request's payment, whatever told of it.
    expect(events).toMatchObject([
      { type: 'payment_request.completed', fact: `payment_request.completed:${id}`, paymentRequest: { id } },
    ]);
    const answers = deliveries.map((d) => JSON.parse(d.history[0]!.response_body) as { duplicate?: boolean });
    expect(answers.filter((answer) => answer.duplicate)).toHaveLength(2);
  });

  it("offer a charge.created of a payment request as that request's payment, with its charge", async () => {
    await listen(['charge.created']);
    // No notification (no `webhook` on the request): the charge's event is all that tells of the payment.
    const id = await settledPayment('succeeded', { webhook: undefined });
    expect(sandbox.context.webhooks.deliveries.map((d) => [d.format, d.event, d.status])).toEqual([
      ['event', 'charge.created', 'delivered'],
    ]);
    expect(events).toMatchObject([
      {
        type: 'payment_request.completed',
        fact: `payment_request.completed:${id}`,
        deliveredAs: 'event',
        paymentRequest: { id, status: 'completed' },
        charge: { payment_request_id: id, status: 'succeeded' },
      },
    ]);
    // The shopper's return afterwards: the same fact, nothing more.
    expect((await fetch(`${shop.url}/paykit/payment-requests/${id}`)).status).toBe(200);
    expect(events).toHaveLength(1);
  });

  it('answer a genuine delivery sent again (a redelivery, a replay) as a duplicate that runs nothing', async () => {
    await settledPayment('succeeded');
    const [notification] = sandbox.context.webhooks.deliveries;
    const replayed = await deliver(notification!.request);
    expect(replayed).toMatchObject({ status: 200, body: { received: true, duplicate: true } });
    const redelivered = await call(sandbox, 'POST', `/_sandbox/webhook-deliveries/${notification!.id}/redeliver`);
    expect(redelivered.status).toBe(200);
    await settled();
    expect(notification!.attempts).toBe(2);
    expect(events).toHaveLength(1);
  });
});

describe('a fact another delivery is acting on', () => {
  it('is answered 409 with Retry-After, not "received", so that the service delivers it again', async () => {
    // The sandbox's deliveries go nowhere (port 9 refuses), and are sent to the shop by hand, one while the
    // other's hook is still running.
    const lost = 'http://127.0.0.1:9/paykit/webhooks';
    await call(sandbox, 'POST', '/v1/webhook-events', {
      json: { name: 'lost', url: lost, event_types: ['payment_request.completed'] },
    });
    const created = await call(sandbox, 'POST', '/v1/payment-requests', {
      json: { amount: '12.50', currency: 'SGD', webhook: lost },
    });
    await call(sandbox, 'POST', `/_sandbox/payment-requests/${created.body.id}/pay`, {
      json: { outcome: 'succeeded' },
    });
    const [notification, event] = ['notification', 'event'].map(
      (format) => (sandbox.context.webhooks.deliveries.find((d) => d.format === format) as WebhookDelivery).request,
    );
    let finish = (): void => undefined;
    const hookStarted = new Promise<void>((started) => {
      options = {
        onEvent: (confirmed) =>
          new Promise<void>((resolve) => {
            started();
            finish = () => {
              events.push(confirmed);
              resolve();
            };
          }),
      };
    });
    const first = deliver(notification!);
    await hookStarted;
    const second = await fetch(hookUrl(), { method: 'POST', ...event! });
    expect(second.status).toBe(409);
    expect(second.headers.get('retry-after')).toBe('5');
    expect(((await second.json()) as { code: string }).code).toBe('conflict');
    finish();
    expect((await first).status).toBe(200);
    // Delivered again later: the fact is done.
    expect(await deliver(event!)).toMatchObject({ status: 200, body: { duplicate: true } });
    expect(events).toHaveLength(1);
  });
});

describe('forgeries, refused before anything is done', () => {
  async function genuine() {
    await listen(['charge.created']);
    await settledPayment('succeeded');
    const deliveries = sandbox.context.webhooks.deliveries;
    const notification = deliveries.find((d) => d.format === 'notification')!;
    const event = deliveries.find((d) => d.format === 'event')!;
    // What the genuine deliveries did is done; each forgery below must add nothing to it.
    return { notification: notification.request, event: event.request, before: sideEffects() };
  }

  function withField(body: string, name: string, value: string | undefined): string {
    const fields = new URLSearchParams(body);
    if (value === undefined) fields.delete(name);
    else fields.set(name, value);
    return fields.toString();
  }

  it('a notification: a field changed, the hmac removed, another salt, a wrong hmac of the right length', async () => {
    const { notification, before } = await genuine();
    const fields = Object.fromEntries(new URLSearchParams(notification.body));
    const { hmac: _signature, ...unsigned } = fields;
    const signedString = Object.keys(unsigned)
      .sort()
      .map((key) => `${key}${unsigned[key]}`)
      .join('');
    const cases: [string, string, string][] = [
      ['field changed', withField(notification.body, 'amount', '1250.00'), 'signature_mismatch'],
      ['no hmac', withField(notification.body, 'hmac', undefined), 'signature_missing'],
      ['another salt', withField(notification.body, 'hmac', hmac('another-salt', signedString)), 'signature_mismatch'],
      ['right length, wrong', withField(notification.body, 'hmac', 'a'.repeat(64)), 'signature_mismatch'],
      ['truncated', withField(notification.body, 'hmac', fields.hmac!.slice(0, 32)), 'signature_malformed'],
    ];
    for (const [what, body, code] of cases) {
      const answer = await deliver({ headers: notification.headers, body });
      expect([what, answer.status, answer.body.code]).toEqual([what, 401, code]);
      expect(String(answer.body.message)).toMatch(/webhookSalt|signed/);
    }
    expect(sideEffects()).toEqual(before);
  });

  it('an event: re-serialized, unsigned, signed with another salt, and its headers swapped', async () => {
    const { event, before } = await genuine();
    const headers = (changes: Record<string, string | undefined>) => {
      const out = { ...event.headers };
      for (const [name, value] of Object.entries(changes)) {
        const key = Object.keys(out).find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
        if (value === undefined) delete out[key];
        else out[key] = value;
      }
      return out;
    };
    const reserialized = JSON.stringify(JSON.parse(event.body), null, 1);
    const cases: [string, { headers: Record<string, string>; body: string }, number, string][] = [
      ['re-serialized', { headers: event.headers, body: reserialized }, 401, 'signature_mismatch'],
      ['unsigned', { headers: headers({ 'Hitpay-Signature': undefined }), body: event.body }, 401, 'signature_missing'],
      [
        'another salt',
        { headers: headers({ 'Hitpay-Signature': hmac('another-salt', event.body) }), body: event.body },
        401,
        'signature_mismatch',
      ],
      [
        'object swapped',
        {
          headers: headers({ 'Hitpay-Event-Object': 'payment_request', 'Hitpay-Event-Type': 'completed' }),
          body: event.body,
        },
        422,
        'validation_failed',
      ],
      [
        'verb swapped',
        { headers: headers({ 'Hitpay-Event-Type': 'failed' }), body: event.body },
        422,
        'validation_failed',
      ],
    ];
    for (const [what, request, status, code] of cases) {
      const answer = await deliver(request);
      expect([what, answer.status, answer.body.code]).toEqual([what, status, code]);
    }
    expect(sideEffects()).toEqual(before);
  });

  it('never writes the salt to the log, even when the hook quotes it', async () => {
    hookError = new Error(`could not ship: the salt is ${sandbox.seed.salt}`);
    await settledPayment('succeeded');
    expect(logged.join('\n')).toMatch(/could not ship/);
    expect(logged.join('\n')).not.toContain(sandbox.seed.salt);
  });
});

describe('without a salt', () => {
  it('takes unsigned deliveries, and the re-fetch refuses a claim the API does not confirm', async () => {
    // The shop's server makes its handler for each request from `options`: this one has no salt.
    options = { webhookSalt: undefined };
    const created = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: '5.00', currency: 'SGD' } });
    const forged = new URLSearchParams({
      payment_id: '00000000-0000-4000-8000-00000000f00d',
      payment_request_id: created.body.id as string,
      amount: '5.00',
      currency: 'SGD',
      status: 'completed',
      hmac: 'b'.repeat(64),
    });
    const answer = await deliver({
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: forged.toString(),
    });
    expect(answer).toMatchObject({ status: 409, body: { code: 'event_not_confirmed' } });
    expect(events).toHaveLength(0);
    expect(store.claims).toBe(0);
  });
});
