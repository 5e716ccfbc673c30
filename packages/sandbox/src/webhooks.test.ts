import { startHttpRecorder, type HttpRecorder } from '@paykit/test-support/http-recorder';
import { call } from '@paykit/test-support/sandbox-calls';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from './index.js';

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
afterEach(() => receiver.close());

async function payOnce(outcome: 'succeeded' | 'failed', extra: Record<string, unknown> = {}) {
  const { body } = await call(sandbox, 'POST', '/v1/payment-requests', {
    json: { amount: 10, currency: 'SGD', ...extra },
  });
  await call(sandbox, 'POST', `/_sandbox/payment-requests/${body.id}/pay`, { json: { outcome } });
  return body.id as string;
}

describe('webhooks', () => {
  it('sends the charge and payment-request events of a success to registered endpoints', async () => {
    await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
      json: { business_id: sandbox.seed.businessId, url: `${receiver.url}/hooks` },
    });
    const id = await payOnce('succeeded');
    const requests = await receiver.waitFor(3);
    const events = requests.map((r) => JSON.parse(r.body));
    expect(events.map((e) => e.type).sort()).toEqual(['charge.created', 'charge.updated', 'payment_request.completed']);
    const completed = events.find((e) => e.type === 'payment_request.completed');
    expect(completed).toMatchObject({
      business_id: sandbox.seed.businessId,
      data: { object: { id, status: 'completed' } },
    });
    expect(completed.id).toMatch(/^evt_/);
    expect(requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('notifies the request webhook URL of the payment-request event only', async () => {
    await payOnce('failed', { webhook: `${receiver.url}/order-7` });
    const [request] = await receiver.waitFor(1);
    await sandbox.context.webhooks.idle();
    expect(receiver.requests).toHaveLength(1);
    expect(request?.path).toBe('/order-7');
    expect(JSON.parse(request?.body ?? '').type).toBe('payment_request.failed');
  });

  it('retries a failing endpoint with backoff, a bounded number of times', async () => {
    receiver.respondWith(500, 503);
    await payOnce('succeeded', { webhook: `${receiver.url}/flaky` });
    await receiver.waitFor(3);
    const deliveries = (await call(sandbox, 'GET', '/_sandbox/webhook-deliveries')).body;
    expect(deliveries).toMatchObject([
      { event: 'payment_request.completed', url: `${receiver.url}/flaky`, status: 'delivered', attempts: 3 },
    ]);
  });

  it('gives up after the last retry', async () => {
    receiver.respondWith(500, 500, 500, 500);
    await payOnce('succeeded', { webhook: `${receiver.url}/down` });
    await receiver.waitFor(3);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(receiver.requests).toHaveLength(3);
    const [delivery] = (await call(sandbox, 'GET', '/_sandbox/webhook-deliveries')).body;
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3, response_status: 500, last_error: 'HTTP 500' });
  });
});
