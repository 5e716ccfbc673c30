/**
 * What a webhook or a return URL names, checked before the API is asked (issue 33, items 4 and 5), over HTTP
 * against the sandbox, with a counting proxy in front of the API:
 *
 * - `charge.updated` is believed only of a charge the API shows refunded or partly refunded: an unsigned one for
 *   a charge never refunded, or a signed `charge.created` relabelled `updated` (its headers are not signed), runs
 *   nothing;
 * - an id is one path segment: `.`, `..` or one holding a slash, in either webhook format or in the status route,
 *   is refused with no call to the API (`..` would make the call `GET /v1/`, `.` the list).
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { startCountingProxy, type CountingProxy } from '@paykit/test-support/counting-proxy';
import { call } from '@paykit/test-support/sandbox-calls';
import { createHmac } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { notificationSigningString, WEBHOOK_HEADERS } from '@paykit/core';
import { toNodeListener } from '../../adapters/node.js';
import { createPaykitHandler } from '../create-handler.js';
import { MemoryEventStore } from '../event-store.js';
import type { ConfirmedEvent } from '../options.js';

let sandbox: RunningSandbox;
let api: CountingProxy;
let shop: { url: string; server: Server };
let events: ConfirmedEvent[];
/** The salt the shop checks deliveries with; undefined: none (every delivery is taken unsigned). */
let salt: string | undefined;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [30, 30], timeoutMs: 2_000 } });
  api = await startCountingProxy(sandbox.url);
  const handler = createPaykitHandler({
    api: { apiBaseUrl: api.url, apiKey: sandbox.seed.apiKey },
    createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD' }),
    eventStore: new MemoryEventStore(),
    logger: { warn: () => undefined, error: () => undefined },
    onEvent: (event) => void events.push(event),
    webhookSalt: () => salt,
  });
  const server = createServer((req, res) => void toNodeListener(handler)(req, res));
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
  events = [];
  salt = sandbox.seed.salt;
});
afterEach(() => sandbox.context.webhooks.idle());

const hookUrl = () => `${shop.url}/paykit/webhooks`;
const sign = (body: string) => createHmac('sha256', sandbox.seed.salt).update(body, 'utf8').digest('hex');

/** A paid payment request of 30.00 (no `webhook`: nothing is delivered unless an endpoint listens) and its charge. */
async function paidCharge(): Promise<{ requestId: string; chargeId: string }> {
  const created = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: '30.00', currency: 'SGD' } });
  expect(created.status).toBe(200);
  const paid = await call(sandbox, 'POST', `/_sandbox/payment-requests/${created.body.id}/pay`, {
    json: { outcome: 'succeeded' },
  });
  expect(paid.status).toBe(200);
  const charges = await call(sandbox, 'GET', '/v1/charges');
  const charge = (charges.body.data as { id: string; payment_request_id: string }[]).find(
    (c) => c.payment_request_id === created.body.id,
  );
  return { requestId: created.body.id as string, chargeId: charge!.id };
}

/** The charge as the API answers it now: the body the service's `charge.*` events carry. */
async function chargeJson(id: string): Promise<string> {
  const answer = await call(sandbox, 'GET', `/v1/charges/${id}`);
  expect(answer.status).toBe(200);
  return JSON.stringify(answer.body);
}

/** An event webhook as the service posts it: the object as JSON, its kind and verb in headers, signed when asked. */
async function postEvent(object: string, verb: string, body: string, signed: boolean) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    [WEBHOOK_HEADERS.eventObject]: object,
    [WEBHOOK_HEADERS.eventType]: verb,
    ...(signed ? { [WEBHOOK_HEADERS.signature]: sign(body) } : {}),
  };
  return answerOf(await fetch(hookUrl(), { method: 'POST', headers, body }));
}

/** A payment notification of `fields`, signed with the business's salt as the service signs it. */
async function postNotification(fields: Record<string, string>) {
  const hmac = createHmac('sha256', sandbox.seed.salt)
    .update(notificationSigningString(Object.entries(fields)), 'utf8')
    .digest('hex');
  const body = new URLSearchParams({ ...fields, hmac }).toString();
  const headers = { 'content-type': 'application/x-www-form-urlencoded' };
  return answerOf(await fetch(hookUrl(), { method: 'POST', headers, body }));
}

async function answerOf(response: Response) {
  const body = (await response.json()) as { code?: string; errors?: { path: string }[]; received?: boolean };
  return { status: response.status, code: body.code, fields: body.errors?.map((e) => e.path), body };
}

/** Waits until the sandbox has no delivery pending. */
async function settled(): Promise<void> {
  for (let i = 0; i < 200; i += 1) {
    await sandbox.context.webhooks.idle();
    if (sandbox.context.webhooks.deliveries.every((delivery) => delivery.status !== 'pending')) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('webhook deliveries did not settle');
}

describe('charge.updated, believed only of a refunded charge', () => {
  it('without a salt: refused for a charge never refunded, acted on once per refund status after', async () => {
    salt = undefined;
    const { chargeId } = await paidCharge();
    const refused = await postEvent('charge', 'updated', await chargeJson(chargeId), false);
    expect(refused).toMatchObject({ status: 409, code: 'event_not_confirmed' });
    expect(events).toEqual([]);

    const partial = await call(sandbox, 'POST', '/v1/refunds', { json: { payment_id: chargeId, amount: 10 } });
    expect(partial.status).toBe(200);
    expect(await postEvent('charge', 'updated', await chargeJson(chargeId), false)).toMatchObject({ status: 200 });
    const rest = await call(sandbox, 'POST', '/v1/refunds', { json: { payment_id: chargeId, amount: 20 } });
    expect(rest.status).toBe(200);
    expect(await postEvent('charge', 'updated', await chargeJson(chargeId), false)).toMatchObject({ status: 200 });
    expect(events.map((event) => event.fact)).toEqual([
      `charge.updated:${chargeId}:partially_refunded`,
      `charge.updated:${chargeId}:refunded`,
    ]);
  });

  it('with a salt: a signed charge.created relabelled charge.updated (the headers are not signed) runs nothing', async () => {
    const { chargeId } = await paidCharge();
    const relabelled = await postEvent('charge', 'updated', await chargeJson(chargeId), true);
    expect(relabelled).toMatchObject({ status: 409, code: 'event_not_confirmed' });
    expect(events).toEqual([]);
    // The service's own charge.updated, sent on a refund, is acted on.
    const listened = await call(sandbox, 'POST', '/v1/webhook-events', {
      json: { name: 'shop', url: hookUrl(), event_types: ['charge.updated'] },
    });
    expect(listened.status).toBe(201);
    expect((await call(sandbox, 'POST', '/v1/refunds', { json: { payment_id: chargeId, amount: 30 } })).status).toBe(
      200,
    );
    await settled();
    expect(sandbox.context.webhooks.deliveries.map((d) => [d.event, d.status, d.response_status])).toEqual([
      ['charge.updated', 'delivered', 200],
    ]);
    expect(events.map((event) => [event.type, event.fact])).toEqual([
      ['charge.updated', `charge.updated:${chargeId}:refunded`],
    ]);
  });
});

describe('an id that is not one path segment', () => {
  it('in a payment notification: 422 naming the field, after the signature holds, and no API call', async () => {
    const { chargeId } = await paidCharge();
    const paid = { amount: '30.00', currency: 'SGD', status: 'completed' };
    const cases: [Record<string, string>, string][] = [
      [{ payment_id: chargeId, payment_request_id: '..', ...paid }, 'payment_request_id'],
      [{ payment_id: chargeId, payment_request_id: '.', ...paid }, 'payment_request_id'],
      [{ payment_id: chargeId, payment_request_id: '../charges', ...paid }, 'payment_request_id'],
      [{ payment_id: '..', recurring_billing_id: 'rb_1', ...paid }, 'payment_id'],
    ];
    const before = api.total();
    for (const [fields, field] of cases) {
      const what = JSON.stringify(fields);
      expect({ what, ...(await postNotification(fields)) }).toMatchObject({
        what,
        status: 422,
        code: 'validation_failed',
        fields: [field],
      });
    }
    expect(api.total() - before).toBe(0);
    expect(events).toEqual([]);
  });

  it('in a signed event webhook: 422 naming `id`, and no API call', async () => {
    const { requestId, chargeId } = await paidCharge();
    const charge = JSON.parse(await chargeJson(chargeId)) as Record<string, unknown>;
    const request = (await call(sandbox, 'GET', `/v1/payment-requests/${requestId}`)).body as Record<string, unknown>;
    const cases: [string, string, Record<string, unknown>][] = [
      ['charge', 'created', { ...charge, id: '..' }],
      ['charge', 'created', { ...charge, id: '.' }],
      ['payment_request', 'completed', { ...request, id: '..' }],
      ['payment_request', 'completed', { ...request, id: 'a%2Fb' }],
    ];
    const before = api.total();
    for (const [object, verb, body] of cases) {
      const what = `${object}.${verb} ${String(body.id)}`;
      expect({ what, ...(await postEvent(object, verb, JSON.stringify(body), true)) }).toMatchObject({
        what,
        status: 422,
        code: 'validation_failed',
        fields: ['id'],
      });
    }
    expect(api.total() - before).toBe(0);
    expect(events).toEqual([]);
  });

  it('in the status route, sent as the raw target: refused, and no API call', async () => {
    const { requestId } = await paidCharge();
    const before = api.total();
    // URL parsing resolves `..` and `%2E%2E` before any route sees them: `/paykit/` is no route. The others reach
    // the status route as `../`, `a/b` or `%2E%2E` once decoded.
    const cases: [string, number, string][] = [
      ['..', 404, 'not_found'],
      ['%2E%2E', 404, 'not_found'],
      ['%2E%2E%2F', 422, 'validation_failed'],
      ['a%2Fb', 422, 'validation_failed'],
      [`${requestId}%2F..`, 422, 'validation_failed'],
      ['%252E%252E', 422, 'validation_failed'],
    ];
    for (const [target, status, code] of cases) {
      expect([target, ...(await rawGet(`/paykit/payment-requests/${target}`))]).toEqual([target, status, code]);
    }
    expect(api.total() - before).toBe(0);
    // The real id still answers, through the API.
    expect(await rawGet(`/paykit/payment-requests/${requestId}`)).toEqual([200, undefined]);
    expect(api.total() - before).toBeGreaterThan(0);
  });
});

/** GET of `target` exactly as written (fetch would resolve dot segments before sending): status and code. */
function rawGet(target: string): Promise<[number, string | undefined]> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${shop.url}/`, { path: target }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve([res.statusCode ?? 0, (JSON.parse(text) as { code?: string }).code]));
    });
    sent.on('error', reject);
    sent.end();
  });
}
