/**
 * `POST /_sandbox/webhooks/trigger` over HTTP against a started sandbox, with a real receiver on 127.0.0.1: every
 * event type goes out about a fresh object, an existing object's event goes in every format the service uses for
 * it, each delivery is in the log, and each refusal says what is wrong. (Signatures are checked with the server's
 * own verification in `packages/server/src/handler/routes/webhook-trigger.test.ts`.)
 */
import { webhookEventTypes } from '@paykit/core';
import { startHttpRecorder, type HttpRecorder } from '@paykit/test-support/http-recorder';
import { call } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

let sandbox: RunningSandbox;
let receiver: HttpRecorder;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [] } });
  receiver = await startHttpRecorder();
});
afterAll(async () => {
  await sandbox.close();
  await receiver.close();
});
beforeEach(async () => {
  await call(sandbox, 'POST', '/_sandbox/reset');
  receiver.requests.length = 0;
});

const trigger = (json: Record<string, unknown>) =>
  call(sandbox, 'POST', '/_sandbox/webhooks/trigger', { json: { business_id: sandbox.seed.businessId, ...json } });

describe('POST /_sandbox/webhooks/trigger', () => {
  it('sends every event type about a fresh object to the endpoints listening, delivered and logged', async () => {
    await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
      json: { business_id: sandbox.seed.businessId, url: `${receiver.url}/hooks` },
    });
    for (const type of webhookEventTypes) {
      const answer = await trigger({ event_type: type });
      expect(answer.status, `${type}: ${JSON.stringify(answer.body)}`).toBe(200);
      const [object, verb] = [type.slice(0, type.lastIndexOf('.')), type.slice(type.lastIndexOf('.') + 1)];
      expect(answer.body.object).toMatchObject({ kind: object, fresh: true });
      const events = answer.body.deliveries.filter((d: { format: string }) => d.format === 'event');
      expect(events, type).toHaveLength(1);
      expect(events[0]).toMatchObject({ event: type, status: 'delivered', response_status: 200 });
      expect(events[0].request.headers).toMatchObject({ 'Hitpay-Event-Object': object, 'Hitpay-Event-Type': verb });
      expect(JSON.parse(events[0].request.body).id).toBe(answer.body.object.id);
    }
    // Only the triggered events reached the receiver: the ways to the fresh objects sent nothing.
    expect(
      receiver.requests.map((r) => r.headers['hitpay-event-object'] + '.' + r.headers['hitpay-event-type']),
    ).toEqual([...webhookEventTypes]);
    const log = await call(sandbox, 'GET', '/_sandbox/webhook-deliveries');
    expect(log.body.map((d: { event: string }) => d.event)).toEqual([...webhookEventTypes]);
  });

  it('sends an existing paid request as the notification with hmac and the JSON event, to url', async () => {
    const created = await call(sandbox, 'POST', '/v1/payment-requests', {
      json: { amount: '12.50', currency: 'SGD' },
    });
    await call(sandbox, 'POST', `/_sandbox/payment-requests/${created.body.id}/pay`, {
      json: { outcome: 'succeeded' },
    });
    const answer = await trigger({
      event_type: 'payment_request.completed',
      object_id: created.body.id,
      url: `${receiver.url}/mine`,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.object).toEqual({ kind: 'payment_request', id: created.body.id, fresh: false });
    expect(answer.body.deliveries.map((d: { format: string; url: string }) => [d.format, d.url])).toEqual([
      ['notification', `${receiver.url}/mine`],
      ['event', `${receiver.url}/mine`],
    ]);
    // Each on its own connection, as from the service: they may arrive in either order.
    const arrived = await receiver.waitFor(2);
    const form = arrived.find((r) => r.headers['content-type'] === 'application/x-www-form-urlencoded');
    const json = arrived.find((r) => r.headers['content-type'] === 'application/json');
    expect(new URLSearchParams(form?.body).get('payment_request_id')).toBe(created.body.id);
    expect(new URLSearchParams(form?.body).get('hmac')).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(json?.body ?? '{}')).toMatchObject({ id: created.body.id, status: 'completed' });
  });

  it('refuses what it cannot send, saying why, and makes nothing', async () => {
    const unknown = await trigger({ event_type: 'charge.refunded', url: receiver.url });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.event_type[0]).toContain('recurring_billing.subscription_updated');
    expect(unknown.body.message).toContain('charge.created');

    const business = await call(sandbox, 'POST', '/_sandbox/businesses', {
      json: { name: 'Other', country: 'SG', currency: 'SGD' },
    });
    const theirs = await call(sandbox, 'POST', '/v1/payment-requests', {
      apiKey: business.body.api_key,
      json: { amount: '5', currency: 'SGD' },
    });
    const foreign = await trigger({
      event_type: 'payment_request.completed',
      object_id: theirs.body.id,
      url: receiver.url,
    });
    expect([foreign.status, foreign.body.code]).toEqual([404, 'not_found']);

    const noBusiness = await trigger({ business_id: 'nope', event_type: 'charge.created', url: receiver.url });
    expect([noBusiness.status, noBusiness.body.code]).toEqual([404, 'not_found']);

    const pending = await trigger({
      event_type: 'payment_request.completed',
      object_id: theirs.body.id,
      business_id: business.body.id,
      url: receiver.url,
    });
    expect([pending.status, pending.body.code]).toEqual([409, 'conflict']);
    expect(pending.body.message).toContain('is pending');

    const nowhere = await trigger({ event_type: 'charge.created' });
    expect([nowhere.status, nowhere.body.code]).toEqual([409, 'conflict']);
    expect(nowhere.body.message).toContain('give url');

    const badUrl = await trigger({ event_type: 'charge.created', url: 'ftp://x' });
    expect(badUrl.status).toBe(422);
    expect(Object.keys(badUrl.body.errors)).toEqual(['url']);

    const charges = await call(sandbox, 'GET', '/v1/charges');
    expect(charges.body.data).toEqual([]);
    expect(receiver.requests).toEqual([]);
  });
});

describe('recurring_billing events', () => {
  it('are sent when a card is saved, the record updated and canceled, the record as the API answers it', async () => {
    await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
      json: {
        business_id: sandbox.seed.businessId,
        url: receiver.url,
        event_types: [
          'recurring_billing.method_attached',
          'recurring_billing.method_detached',
          'recurring_billing.subscription_updated',
        ],
      },
    });
    const record = await call(sandbox, 'POST', '/v1/recurring-billing', {
      json: { save_card: true, name: 'Gym', amount: '30', customer_email: 'a@example.test' },
    });
    const saved = await fetch(record.body.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'card_number=4242424242424242',
      redirect: 'manual',
    });
    expect(saved.status).toBeLessThan(400);
    await call(sandbox, 'PUT', `/v1/recurring-billing/${record.body.id}`, { json: { name: 'Gym plus' } });
    await call(sandbox, 'DELETE', `/v1/recurring-billing/${record.body.id}`);
    const received = await receiver.waitFor(5);
    const seen = received.map((r) => {
      const body = JSON.parse(r.body);
      return [r.headers['hitpay-event-type'], body.id, body.status, body.name];
    });
    expect(seen).toEqual([
      ['method_attached', record.body.id, 'active', 'Gym'],
      ['subscription_updated', record.body.id, 'active', 'Gym'],
      ['subscription_updated', record.body.id, 'active', 'Gym plus'],
      ['subscription_updated', record.body.id, 'canceled', 'Gym plus'],
      ['method_detached', record.body.id, 'canceled', 'Gym plus'],
    ]);
    expect(received.every((r) => r.headers['hitpay-event-object'] === 'recurring_billing')).toBe(true);
  });
});
