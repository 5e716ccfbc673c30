/**
 * Every event the service can send (`webhookEventTypes`), triggered on the real sandbox
 * (`POST /_sandbox/webhooks/trigger`) and delivered over real HTTP on 127.0.0.1 to the real handler, verifies:
 * its signature holds under the business's salt (`verifyWebhook`, the handler's own check), the handler answers
 * 200 after re-fetching the object from the sandbox's API, and the hook is told of it once.
 */
import { webhookEventTypes, type WebhookEventType } from '@paykit/core';
import { startSandbox, type RunningSandbox, type WebhookDelivery } from '@paykit/sandbox';
import { call } from '@paykit/test-support/sandbox-calls';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeListener } from '../../adapters/node.js';
import { verifyWebhook } from '../../webhooks/verify-webhook.js';
import { createPaykitHandler } from '../create-handler.js';
import { MemoryEventStore } from '../event-store.js';
import type { ConfirmedEvent } from '../options.js';

let sandbox: RunningSandbox;
let shop: { url: string; server: Server };
const events: ConfirmedEvent[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [] } });
  const handler = createPaykitHandler({
    api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
    createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD' }),
    eventStore: new MemoryEventStore(),
    onEvent: (event) => void events.push(event),
    webhookSalt: sandbox.seed.salt,
  });
  const server = createServer((req, res) => toNodeListener(handler)(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  shop = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
});
afterAll(async () => {
  shop.server.closeAllConnections();
  shop.server.close();
  await sandbox.close();
});

/** What the hook is offered for each event: a charge of a payment request is that request's payment. */
const offeredAs = (type: WebhookEventType): WebhookEventType =>
  type === 'charge.created' ? 'payment_request.completed' : type === 'charge.failed' ? 'payment_request.failed' : type;

describe('every event type, triggered on the sandbox and sent to the handler', () => {
  it('verifies under the business salt, is confirmed by the API and reaches the hook once', async () => {
    for (const type of webhookEventTypes) {
      const before = events.length;
      const answer = await call(sandbox, 'POST', '/_sandbox/webhooks/trigger', {
        json: { business_id: sandbox.seed.businessId, event_type: type, url: `${shop.url}/paykit/webhooks` },
      });
      expect(answer.status, `${type}: ${JSON.stringify(answer.body)}`).toBe(200);
      const deliveries = answer.body.deliveries as WebhookDelivery[];
      for (const delivery of deliveries) {
        const said = `${type} (${delivery.format}): ${delivery.history.at(-1)?.response_body ?? ''}`;
        expect([delivery.status, delivery.response_status], said).toEqual(['delivered', 200]);
        const verified = await verifyWebhook({
          salt: sandbox.seed.salt,
          headers: delivery.request.headers,
          body: delivery.request.body,
        });
        expect(verified.id, said).toBe(answer.body.object.id);
        expect(verified.type, said).toBe(type);
      }
      expect(
        deliveries.map((d) => d.format),
        type,
      ).toEqual(type.startsWith('payment_request.') ? ['notification', 'event'] : ['event']);
      // One fact per trigger: a notification and an event of one payment run the hook once.
      expect(events.slice(before).map((event) => event.type)).toEqual([offeredAs(type)]);
    }
    const recurring = events.filter((event) => 'recurringBilling' in event);
    expect(recurring.map((event) => event.type)).toEqual([
      'recurring_billing.method_attached',
      'recurring_billing.method_detached',
      'recurring_billing.subscription_updated',
    ]);
  });
});
