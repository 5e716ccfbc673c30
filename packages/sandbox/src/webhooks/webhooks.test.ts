/**
 * The sandbox's webhooks, checked against the service's public description by an implementation written here,
 * with node:crypto (not paykit's code): an event webhook's `Hitpay-Signature` is the HMAC-SHA256 (hex) of the
 * raw body keyed by the salt, with `Hitpay-Event-Type`, `Hitpay-Event-Object` and `User-Agent: HitPay v2.0`; a
 * payment notification's `hmac` is the HMAC-SHA256 (hex) of every other field as key then value, ordered by key.
 * Then what each delivery is kept as, its retries, redelivery, test events and the faults a receiver must survive.
 */
import { startHttpRecorder, type HttpRecorder, type RecordedRequest } from '@paykit/test-support/http-recorder';
import { call } from '@paykit/test-support/sandbox-calls';
import { createBusiness } from '@paykit/test-support/sandbox-control';
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

let sandbox: RunningSandbox;
let receiver: HttpRecorder;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [20, 40], timeoutMs: 1_000 } });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await call(sandbox, 'POST', '/_sandbox/reset');
  receiver = await startHttpRecorder();
});
afterEach(async () => {
  await sandbox.context.webhooks.idle();
  await receiver.close();
});

const hmac = (salt: string, data: string) => createHmac('sha256', salt).update(data, 'utf8').digest('hex');

/** The service's notification check, from its docs page: every field but hmac, key then value, ordered by key. */
function notificationIsSigned(body: string, salt: string): boolean {
  const fields = [...new URLSearchParams(body)];
  const signature = fields.find(([key]) => key === 'hmac')?.[1];
  const signed = fields
    .filter(([key]) => key !== 'hmac')
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, value]) => key + value)
    .join('');
  return signature === hmac(salt, signed);
}

/** What a receiver reads of an event webhook. */
function eventOf(request: RecordedRequest) {
  return {
    type: `${String(request.headers['hitpay-event-object'])}.${String(request.headers['hitpay-event-type'])}`,
    body: JSON.parse(request.body) as Record<string, any>,
  };
}

async function listen(businessId: string, eventTypes?: string[], url = `${receiver.url}/hooks`) {
  const answer = await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
    json: { business_id: businessId, url, ...(eventTypes ? { event_types: eventTypes } : {}) },
  });
  expect(answer.status).toBe(201);
  return answer.body.id as string;
}

async function payOnce(outcome: 'succeeded' | 'failed', extra: Record<string, unknown> = {}, apiKey?: string) {
  const { body } = await call(sandbox, 'POST', '/v1/payment-requests', {
    ...(apiKey ? { apiKey } : {}),
    json: { amount: '12.50', currency: 'SGD', ...extra },
  });
  await call(sandbox, 'POST', `/_sandbox/payment-requests/${body.id}/pay`, { json: { outcome } });
  return body.id as string;
}

describe('the payment notification', () => {
  it("is the docs page's form, signed with the merchant's salt, on completion", async () => {
    const id = await payOnce('succeeded', { webhook: `${receiver.url}/order-7`, reference_number: 'ORDER-7' });
    const [request] = await receiver.waitFor(1);
    await sandbox.context.webhooks.idle();
    expect(receiver.requests).toHaveLength(1);
    expect(request?.path).toBe('/order-7');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    const fields = Object.fromEntries(new URLSearchParams(request!.body));
    expect(Object.keys(fields).sort()).toEqual(
      ['amount', 'currency', 'hmac', 'payment_id', 'payment_request_id', 'phone', 'reference_number', 'status'].sort(),
    );
    const charge = [...sandbox.context.state.charges.values()][0]!;
    expect(fields).toMatchObject({
      payment_id: charge.id,
      payment_request_id: id,
      reference_number: 'ORDER-7',
      phone: '',
      amount: '12.50',
      currency: 'SGD',
      status: 'completed',
    });
    expect(fields.hmac).toMatch(/^[0-9a-f]{64}$/);
    expect(notificationIsSigned(request!.body, sandbox.seed.salt)).toBe(true);
    expect(notificationIsSigned(request!.body, 'another-salt')).toBe(false);
  });

  it('says failed on a failed payment, signed with the salt of the business that owns the request', async () => {
    const merchant = await createBusiness(sandbox, { name: 'Harbour Cafe' });
    expect(merchant.salt).toMatch(/^salt_sandbox_/);
    await payOnce('failed', { webhook: `${receiver.url}/n` }, merchant.api_key);
    const [request] = await receiver.waitFor(1);
    expect(new URLSearchParams(request!.body).get('status')).toBe('failed');
    expect(notificationIsSigned(request!.body, merchant.salt)).toBe(true);
    expect(notificationIsSigned(request!.body, sandbox.seed.salt)).toBe(false);
  });
});

/** The events of a paid payment request, in the order they are sent. */
const KINDS = ['charge.created', 'payment_request.completed', 'order.created'];

describe('event webhooks', () => {
  it('carry the object itself, the four headers, and the signature of the exact bytes', async () => {
    await listen(sandbox.seed.businessId);
    const id = await payOnce('succeeded');
    const requests = await receiver.waitFor(3);
    // Sent one after the other but each on its own connection: they may arrive in any order.
    const events = requests.map(eventOf).sort((a, b) => KINDS.indexOf(a.type) - KINDS.indexOf(b.type));
    expect(events.map((e) => e.type)).toEqual(KINDS);
    for (const request of requests) {
      expect(request.headers['content-type']).toBe('application/json');
      expect(request.headers['user-agent']).toBe('HitPay v2.0');
      expect(request.headers['hitpay-signature']).toBe(hmac(sandbox.seed.salt, request.body));
    }
    const [charge, paymentRequest, order] = events;
    expect(charge?.body).toMatchObject({ payment_request_id: id, status: 'succeeded', amount: 12.5 });
    expect(typeof charge?.body.payment_method).toBe('object');
    expect(paymentRequest?.body).toMatchObject({ id, status: 'completed', amount: '12.50' });
    expect(order?.body).toMatchObject({ payment_request_id: id, status: 'paid' });
    // No envelope: the body is the object (the invented { id, type, data } is gone).
    expect(charge?.body.data).toBeUndefined();
  });

  it('go only to endpoints that listen to the event', async () => {
    await listen(sandbox.seed.businessId, ['payment_request.completed']);
    await payOnce('succeeded');
    await receiver.waitFor(1);
    await sandbox.context.webhooks.idle();
    expect(receiver.requests.map(eventOf).map((e) => e.type)).toEqual(['payment_request.completed']);
  });

  it('of a failed payment are charge.failed and payment_request.failed', async () => {
    await listen(sandbox.seed.businessId);
    await payOnce('failed');
    const events = (await receiver.waitFor(2)).map(eventOf);
    expect(events.map((e) => [e.type, e.body.status]).sort()).toEqual([
      ['charge.failed', 'failed'],
      ['payment_request.failed', 'failed'],
    ]);
  });

  it("of a platform's payment: charges to the platform's endpoints with its salt, the rest to the merchant", async () => {
    const merchant = await createBusiness(sandbox, { name: 'Harbour Cafe' });
    const merchantHooks = await startHttpRecorder();
    try {
      await listen(sandbox.seed.businessId, undefined, `${receiver.url}/platform`);
      await listen(merchant.id, undefined, `${merchantHooks.url}/merchant`);
      const { body } = await call(sandbox, 'POST', '/v1/payment-requests', {
        apiKey: merchant.api_key,
        headers: { 'x-platform-key': sandbox.seed.platformKey },
        json: { amount: 100, currency: 'SGD', platform_commission_amount: 5 },
      });
      await call(sandbox, 'POST', `/_sandbox/payment-requests/${body.id}/pay`, { json: { outcome: 'succeeded' } });
      const [toPlatform] = await receiver.waitFor(1);
      const toMerchant = await merchantHooks.waitFor(2);
      await sandbox.context.webhooks.idle();
      expect(receiver.requests).toHaveLength(1);
      expect(eventOf(toPlatform!)).toMatchObject({ type: 'charge.created', body: { business_id: merchant.id } });
      expect(toPlatform!.headers['hitpay-signature']).toBe(hmac(sandbox.seed.salt, toPlatform!.body));
      expect(
        toMerchant
          .map(eventOf)
          .map((e) => e.type)
          .sort(),
      ).toEqual(['order.created', 'payment_request.completed']);
      for (const request of toMerchant) {
        expect(request.headers['hitpay-signature']).toBe(hmac(merchant.salt, request.body));
      }
    } finally {
      await merchantHooks.close();
    }
  });

  it("of a refund: charge.updated, to the endpoints and to the refund's webhook", async () => {
    const id = await payOnce('succeeded');
    await sandbox.context.webhooks.idle();
    await listen(sandbox.seed.businessId, ['charge.updated']);
    const refunded = await call(sandbox, 'POST', '/v1/refunds', {
      json: { payment_id: id, amount: '2.50', webhook: `${receiver.url}/refund` },
    });
    expect(refunded.status).toBe(200);
    const requests = await receiver.waitFor(2);
    expect(requests.map((r) => r.path).sort()).toEqual(['/hooks', '/refund']);
    for (const request of requests) {
      expect(eventOf(request)).toMatchObject({ type: 'charge.updated', body: { status: 'partially_refunded' } });
      expect(request.headers['hitpay-signature']).toBe(hmac(sandbox.seed.salt, request.body));
    }
  });

  it('of a paid payout, a new invoice and a new transfer', async () => {
    await listen(sandbox.seed.businessId, [
      'payout.created',
      'invoice.created',
      'transfer.created',
      'transfer.scheduled',
    ]);
    await payOnce('succeeded');
    const payout = await call(sandbox, 'POST', '/_sandbox/payouts', { json: { business_id: sandbox.seed.businessId } });
    await call(sandbox, 'POST', `/_sandbox/payouts/${payout.body.id}/status`, { json: { status: 'processing' } });
    await call(sandbox, 'POST', `/_sandbox/payouts/${payout.body.id}/status`, { json: { status: 'paid' } });
    const invoice = await call(sandbox, 'POST', '/v1/invoices', {
      json: {
        customer: { name: 'Ann Lee', email: 'shopper@example.test' },
        invoice_date: '2026-11-23',
        payment_by: 'amount',
        amount: 20,
        currency: 'SGD',
      },
    });
    expect(invoice.status).toBe(200);
    const events = (await receiver.waitFor(2)).map(eventOf);
    expect(events.map((e) => [e.type, e.body.id])).toEqual([
      ['payout.created', payout.body.id],
      ['invoice.created', invoice.body.id],
    ]);
    expect(events[0]?.body.status).toBe('paid');
  });
});

describe('the delivery log', () => {
  it('keeps each request as sent and every attempt, retries with backoff, then gives up', async () => {
    receiver.respondWith(500, 503, 500);
    await payOnce('succeeded', { webhook: `${receiver.url}/down` });
    await receiver.waitFor(3);
    await new Promise((resolve) => setTimeout(resolve, 120));
    await sandbox.context.webhooks.idle();
    expect(receiver.requests).toHaveLength(3);
    // Every attempt sent the same bytes: the signature stays valid on a retry.
    expect(new Set(receiver.requests.map((r) => r.body)).size).toBe(1);
    const [delivery] = (await call(sandbox, 'GET', '/_sandbox/webhook-deliveries')).body;
    expect(delivery).toMatchObject({
      format: 'notification',
      event: 'payment_request.completed',
      business_id: sandbox.seed.businessId,
      url: `${receiver.url}/down`,
      status: 'failed',
      attempts: 3,
      response_status: 500,
      last_error: 'HTTP 500',
      request: { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: receiver.requests[0]!.body },
    });
    expect(delivery.history.map((a: { status: number }) => a.status)).toEqual([500, 503, 500]);
    expect(delivery.history[0].response_body).toBe('{}');
  });

  it('redelivers a delivery byte for byte', async () => {
    await payOnce('succeeded', { webhook: `${receiver.url}/again` });
    await receiver.waitFor(1);
    await sandbox.context.webhooks.idle();
    const [delivery] = sandbox.context.webhooks.deliveries;
    const answer = await call(sandbox, 'POST', `/_sandbox/webhook-deliveries/${delivery!.id}/redeliver`);
    expect(answer.status).toBe(200);
    const [first, second] = await receiver.waitFor(2);
    expect(second?.body).toBe(first?.body);
    await sandbox.context.webhooks.idle();
    expect(delivery).toMatchObject({ attempts: 2, status: 'delivered' });
    expect((await call(sandbox, 'POST', '/_sandbox/webhook-deliveries/nope/redeliver')).status).toBe(404);
  });

  it("sends a test event to one endpoint: the business's latest charge again, or 409 before any", async () => {
    const endpoint = await listen(sandbox.seed.businessId, ['payout.created']);
    const none = await call(sandbox, 'POST', `/_sandbox/webhook-endpoints/${endpoint}/test`);
    expect(none).toMatchObject({ status: 409, body: { code: 'conflict' } });
    await payOnce('succeeded');
    await sandbox.context.webhooks.idle();
    expect(receiver.requests).toHaveLength(0);
    const sent = await call(sandbox, 'POST', `/_sandbox/webhook-endpoints/${endpoint}/test`);
    expect(sent.status).toBe(200);
    const [request] = await receiver.waitFor(1);
    const charge = [...sandbox.context.state.charges.values()][0]!;
    expect(eventOf(request!)).toMatchObject({ type: 'charge.created', body: { id: charge.id } });
    expect(request!.headers['hitpay-signature']).toBe(hmac(sandbox.seed.salt, request!.body));
  });
});

describe('faults a receiver must survive', () => {
  it('a duplicate: the next delivery arrives twice', async () => {
    expect((await call(sandbox, 'POST', '/_sandbox/webhook-faults', { json: { fault: 'duplicate' } })).status).toBe(
      204,
    );
    await payOnce('succeeded', { webhook: `${receiver.url}/twice` });
    const [first, second] = await receiver.waitFor(2);
    expect(second?.body).toBe(first?.body);
    await sandbox.context.webhooks.idle();
    expect(sandbox.context.webhooks.deliveries).toHaveLength(1);
  });

  it('out of order: the next deliveries arrive newest first', async () => {
    await listen(sandbox.seed.businessId);
    await call(sandbox, 'POST', '/_sandbox/webhook-faults', { json: { fault: 'out_of_order', count: 3 } });
    await payOnce('succeeded');
    const events = (await receiver.waitFor(3)).map(eventOf);
    expect(events.map((e) => e.type)).toEqual(['order.created', 'payment_request.completed', 'charge.created']);
  });

  it('a late retry: a delivery that succeeded arrives again later, after what came next', async () => {
    await listen(sandbox.seed.businessId, ['charge.created', 'payment_request.completed']);
    await call(sandbox, 'POST', '/_sandbox/webhook-faults', { json: { fault: 'late_retry', delay_ms: 150 } });
    await payOnce('succeeded');
    const events = (await receiver.waitFor(3)).map(eventOf);
    expect(events.map((e) => e.type).sort()).toEqual(['charge.created', 'charge.created', 'payment_request.completed']);
    // The retry comes last, after the event sent after it.
    expect(events[2]?.type).toBe('charge.created');
    const [late] = sandbox.context.webhooks.deliveries;
    expect(late).toMatchObject({ status: 'delivered', attempts: 2 });
  });

  it('refuses a fault it does not know', async () => {
    const answer = await call(sandbox, 'POST', '/_sandbox/webhook-faults', { json: { fault: 'slow' } });
    expect(answer).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
  });
});
