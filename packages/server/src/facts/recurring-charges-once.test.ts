/**
 * A shop's handler taking a year of a monthly plan's charges exactly once each (issue 37): the real sandbox's
 * business clock moved 365 days over its control API, every cycle's charge told twice (the notification to the
 * subscription's `webhook` and `charge.created` to a registered endpoint, both at the handler's one webhook
 * route), and every delivery sent again afterwards. The handler and the sandbox talk over real HTTP on 127.0.0.1.
 *
 * A saved card's charge has no payment request, so the handler confirms it by re-fetching the charge
 * (`GET /v1/charges/{id}`) and acts on it as the fact `charge.created:<charge id>`, whichever format brought it.
 */
import { startSandbox, type RunningSandbox, type WebhookDelivery } from '@paykit/sandbox';
import { listenOnLoopback } from '@paykit/test-support/loopback';
import { call, submitPageForm } from '@paykit/test-support/sandbox-calls';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeListener } from '../adapters/node.js';
import { createPaykitHandler } from '../handler/create-handler.js';
import { MemoryEventStore } from '../handler/event-store.js';
import type { ConfirmedEvent } from '../handler/options.js';

const DAY = 86_400;
let sandbox: RunningSandbox;
let shop: { url: string; server: Server };
const acted: ConfirmedEvent[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [], timeoutMs: 5_000 } });
  const handler = createPaykitHandler({
    api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
    createPaymentRequest: () => ({ amount: '9.90', currency: 'SGD' }),
    webhookSalt: sandbox.seed.salt,
    eventStore: new MemoryEventStore(),
    onEvent: (event) => void acted.push(event),
  });
  const server = createServer((req, res) => toNodeListener(handler)(req, res));
  shop = { url: await listenOnLoopback(server), server };
});
afterAll(async () => {
  shop.server.closeAllConnections();
  shop.server.close();
  await sandbox.close();
});

/** `YYYY-MM-DD` in Singapore, `days` after `nowMs`. */
const singaporeDate = (nowMs: number, days: number) =>
  new Date(nowMs + 8 * 3_600_000 + days * DAY * 1000).toISOString().slice(0, 10);

const deliveries = async () => (await call(sandbox, 'GET', '/_sandbox/webhook-deliveries')).body as WebhookDelivery[];

/** Polls the delivery log until no delivery is pending and each was attempted at least `attempts` times. */
async function settled(attempts: number): Promise<WebhookDelivery[]> {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
    const log = await deliveries();
    if (log.every((d) => d.status !== 'pending' && d.attempts >= attempts)) return log;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`deliveries not settled at ${attempts} attempts: ${JSON.stringify(await deliveries())}`);
}

/** The charge ids the hook acted on, each as often as it did. */
const actedCharges = () =>
  acted.map((event) => {
    if (event.type !== 'charge.created') throw new Error(`acted on ${event.type}, not a charge: ${event.fact}`);
    return event.charge.id;
  });

describe('a year of a monthly plan, at the shop', () => {
  it('acts on each of the 12 charges exactly once, through the clock and again after every delivery is redelivered', async () => {
    const webhookUrl = `${shop.url}/paykit/webhooks`;
    const endpoint = await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
      json: { business_id: sandbox.seed.businessId, url: webhookUrl, event_types: ['charge.created'] },
    });
    expect(endpoint.status).toBe(201);
    const clock = `/_sandbox/businesses/${sandbox.seed.businessId}/clock`;
    const now = Date.parse((await call(sandbox, 'GET', clock)).body.now as string);
    const made = await call(sandbox, 'POST', '/v1/recurring-billing', {
      form: new URLSearchParams({
        name: 'Coffee club',
        amount: '9.90',
        cycle: 'monthly',
        customer_email: 'ann@example.test',
        start_date: singaporeDate(now, 1),
        times_to_be_charged: '24',
        webhook: webhookUrl,
      }),
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const saved = await submitPageForm(made.body.url as string, 'card_number=4242424242424242&outcome=save');
    expect(saved.status).toBeLessThan(400);

    const moved = await call(sandbox, 'POST', `${clock}/advance`, { json: { seconds: 365 * DAY } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const charged = (moved.body.happened as { type: string; object_id: string }[])
      .filter((event) => event.type === 'charge.succeeded')
      .map((event) => event.object_id);
    expect(charged).toHaveLength(12);
    expect(new Set(charged).size).toBe(12);

    // Each cycle told twice, in both formats, each answered 200 by the handler: one acted, one a duplicate.
    const log = await settled(1);
    expect(log.map((d) => [d.format, d.event, d.status]).sort()).toEqual(
      [
        ...Array(12).fill(['event', 'charge.created', 'delivered']),
        ...Array(12).fill(['notification', 'charge.created', 'delivered']),
      ].sort(),
    );
    const answers = log.map((d) => JSON.parse(d.history.at(-1)?.response_body ?? 'null') as unknown);
    expect(answers.filter((a) => JSON.stringify(a) === '{"received":true}')).toHaveLength(12);
    expect(answers.filter((a) => JSON.stringify(a) === '{"received":true,"duplicate":true}')).toHaveLength(12);
    // The hook: each of the 12 charges once, in the order they were made, each its own fact.
    expect(actedCharges()).toEqual(charged);
    expect(acted.map((event) => event.fact)).toEqual(charged.map((id) => `charge.created:${id}`));

    // The sandbox sends all 24 again: every one is a duplicate, the hook runs no more.
    for (const delivery of log) {
      const again = await call(sandbox, 'POST', `/_sandbox/webhook-deliveries/${delivery.id}/redeliver`);
      expect(again.status).toBe(200);
    }
    const redelivered = await settled(2);
    expect(redelivered.map((d) => [d.status, d.attempts, d.history.at(-1)?.response_body])).toEqual(
      Array(24).fill(['delivered', 2, '{"received":true,"duplicate":true}']),
    );
    expect(actedCharges()).toEqual(charged);
  });
});
