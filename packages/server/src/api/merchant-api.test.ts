import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { PaykitError } from '@paykit/core';
import { startScriptedServer, type ScriptedServer } from '@paykit/test-support/scripted-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createMerchantApi, type MerchantApi } from './merchant-api.js';
import { callApi } from './transport.js';

let sandbox: RunningSandbox;
let api: MerchantApi;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  api = createMerchantApi({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
});
afterAll(() => sandbox.close());

/** The rejection of `promise`, which must be a PaykitError. */
async function failureOf(promise: Promise<unknown>): Promise<PaykitError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaykitError);
  return error as PaykitError;
}

describe('against the sandbox', () => {
  it('creates a payment request (form body, as the spec shows) and reads it back', async () => {
    const created = await api.createPaymentRequest({
      amount: '12.5',
      currency: 'sgd',
      purpose: 'Order 1',
      payment_methods: ['paynow_online', 'card'],
      redirect_url: 'http://localhost:8080/return',
    });
    expect(created).toMatchObject({ status: 'pending', amount: '12.50', currency: 'sgd', purpose: 'Order 1' });
    expect(new URL(created.url).origin).toBe(sandbox.url);
    const read = await api.getPaymentRequest(created.id);
    expect(read).toMatchObject({ id: created.id, status: 'pending', amount: '12.50' });
  });

  it('creates with a JSON body when configured so', async () => {
    const jsonApi = createMerchantApi({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey, bodyEncoding: 'json' });
    const created = await jsonApi.createPaymentRequest({ amount: 3, currency: 'USD' });
    expect(created).toMatchObject({ amount: '3.00', currency: 'usd' });
  });

  it('refuses a bad body before sending anything, naming each field', async () => {
    const before = (await api.listPaymentRequests({ perPage: 100 })).data.length;
    const error = await failureOf(
      api.createPaymentRequest({
        amount: '10.999',
        currency: 'dollars',
        email: 'nope',
        redirect_url: 'javascript:alert(1)',
      }),
    );
    expect(error.code).toBe('validation_failed');
    expect(error.errors?.map((e) => e.path).sort()).toEqual(['amount', 'currency', 'email', 'redirect_url']);
    expect((await api.listPaymentRequests({ perPage: 100 })).data.length).toBe(before);
  });

  it('refuses a commission that is not below the amount', async () => {
    const error = await failureOf(
      api.createPaymentRequest({ amount: 10, currency: 'SGD', platform_commission_amount: 10 }),
    );
    expect(error.errors).toEqual([{ path: 'platform_commission_amount', message: 'must be less than amount' }]);
  });

  it('lists with cursors, page by page, without skipping or repeating', async () => {
    for (let i = 0; i < 7; i += 1) await api.createPaymentRequest({ amount: i + 1, currency: 'SGD' });
    const all = (await api.listPaymentRequests({ perPage: 100 })).data.map((r) => r.id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await api.listPaymentRequests({ perPage: 3, ...(cursor ? { cursor } : {}) });
      expect(page.data.length).toBeLessThanOrEqual(3);
      seen.push(...page.data.map((r) => r.id));
      cursor = page.meta?.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all);
  });

  it('cancels a pending request, and answers conflict for a second cancel', async () => {
    const created = await api.createPaymentRequest({ amount: 5, currency: 'SGD' });
    expect((await api.cancelPaymentRequest(created.id)).status).toBe('canceled');
    const error = await failureOf(api.cancelPaymentRequest(created.id));
    expect(error).toMatchObject({ code: 'conflict', status: 409 });
  });

  it('surfaces a wrong key as unauthorized with the API message, and tells the credentials', async () => {
    let told = 0;
    const wrong = createMerchantApi({
      apiBaseUrl: sandbox.url,
      auth: { apply: (h) => h.set('x-business-api-key', 'wrong'), unauthorized: () => void (told += 1) },
    });
    const error = await failureOf(wrong.getPaymentRequest('00000000-0000-4000-8000-00000000abcd'));
    expect(error).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.message).not.toContain('wrong');
    expect(told).toBe(1);
  });

  it('surfaces an unknown id as not_found, and keeps an id from changing the route', async () => {
    expect((await failureOf(api.getPaymentRequest('00000000-0000-4000-8000-00000000abcd'))).code).toBe('not_found');
  });

  it('refuses an id that is not one path segment before anything is sent, naming the parameter', async () => {
    const sent: string[] = [];
    const counted = createMerchantApi({
      apiBaseUrl: sandbox.url,
      apiKey: sandbox.seed.apiKey,
      fetch: (input, init) => {
        sent.push(String(input instanceof Request ? input.url : input));
        return fetch(input, init);
      },
    });
    // `..` would be `GET /v1/` once URL parsing resolves it, `.` the list; a slash, plain or encoded, two segments.
    for (const id of ['..', '.', '../charges', 'a%2Fb', '%2e%2e']) {
      const error = await failureOf(counted.getPaymentRequest(id));
      expect([id, error.code, error.errors]).toEqual([
        id,
        'validation_failed',
        [{ path: 'id', message: expect.any(String) }],
      ]);
      expect(error.message).toMatch(/^"id" must not /);
    }
    expect((await failureOf(counted.getCharge('..'))).errors?.[0]?.path).toBe('id');
    // Below the operation table, the transport refuses such a segment from any caller too.
    for (const segment of ['..', '.', '', 'a/b']) {
      const path = ['v1', 'payment-requests', segment];
      const error = await failureOf(callApi(counted.config, { method: 'GET', path, schema: z.unknown() }));
      expect([segment, error.code, error.errors?.map((e) => e.path)]).toEqual([segment, 'validation_failed', ['path']]);
    }
    expect(sent).toEqual([]);
  });

  it('reads the charge of a paid request', async () => {
    const created = await api.createPaymentRequest({ amount: 20, currency: 'SGD' });
    const paid = await fetch(`${sandbox.url}/_sandbox/payment-requests/${created.id}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'succeeded' }),
    });
    expect(paid.status).toBe(200);
    const charges = await fetch(`${sandbox.url}/v1/charges`, {
      headers: { 'x-business-api-key': sandbox.seed.apiKey },
    });
    const list = (await charges.json()) as { data: { id: string; payment_request_id: string }[] };
    const charge = list.data.find((c) => c.payment_request_id === created.id);
    expect(charge).toBeDefined();
    expect(await api.getCharge(charge!.id)).toMatchObject({ status: 'succeeded', amount: 20 });
  });
});

describe('when the API misbehaves', () => {
  let server: ScriptedServer | undefined;
  afterAll(() => server?.close());

  async function apiAnswering(script: Parameters<typeof startScriptedServer>[0], timeoutMs = 2_000) {
    await server?.close();
    server = await startScriptedServer(script);
    return createMerchantApi({ apiBaseUrl: server.url, apiKey: 'k', timeoutMs, retry: { baseDelayMs: 10 } });
  }
  const valid = { id: 'pr_1', status: 'pending', url: 'https://checkout.test/pr_1', amount: '1.00', currency: 'sgd' };

  it('times out a slow answer', async () => {
    const slow = await apiAnswering(() => ({ delayMs: 1_000, body: valid }), 150);
    const error = await failureOf(slow.createPaymentRequest({ amount: 1, currency: 'SGD' }));
    expect(error.code).toBe('timeout');
    expect(server!.requests).toHaveLength(1);
  });

  it('never retries a create, even after a 503', async () => {
    const failing = await apiAnswering(() => ({ status: 503, body: { message: 'down' } }));
    const error = await failureOf(failing.createPaymentRequest({ amount: 1, currency: 'SGD' }));
    expect(error).toMatchObject({ code: 'upstream_error', status: 503, message: 'down' });
    expect(server!.requests).toHaveLength(1);
  });

  it('retries a read after a 503 and a dropped connection, within its attempts', async () => {
    const flaky = await apiAnswering((_, n) =>
      n === 0 ? { status: 503 } : n === 1 ? { drop: true } : { body: valid },
    );
    expect(await flaky.getPaymentRequest('pr_1')).toMatchObject({ id: 'pr_1', amount: '1.00' });
    expect(server!.requests).toHaveLength(3);
  });

  it('gives up on a read after the configured attempts', async () => {
    const down = await apiAnswering(() => ({ status: 500 }));
    expect((await failureOf(down.getPaymentRequest('pr_1'))).code).toBe('upstream_error');
    expect(server!.requests).toHaveLength(3);
  });

  it('does not wait past its budget for a long Retry-After', async () => {
    const limited = await apiAnswering(() => ({
      status: 429,
      headers: { 'retry-after': '60' },
      body: { message: 'slow down' },
    }));
    const error = await failureOf(limited.getPaymentRequest('pr_1'));
    expect(error).toMatchObject({ code: 'rate_limited', retryAfterSeconds: 60 });
    expect(server!.requests).toHaveLength(1);
  });

  it('calls a 2xx answer that is not JSON, or not a payment request, invalid', async () => {
    const html = await apiAnswering(() => ({ body: '<html>maintenance</html>' }));
    expect((await failureOf(html.getPaymentRequest('pr_1'))).code).toBe('upstream_invalid_response');
    const odd = await apiAnswering(() => ({ body: { ...valid, amount: 'free' } }));
    const error = await failureOf(odd.getPaymentRequest('pr_1'));
    expect(error.code).toBe('upstream_invalid_response');
    expect(error.message).toContain('amount');
  });

  it('refuses a redirect without following it, so the key goes nowhere else, and does not retry a read', async () => {
    // Node's fetch refuses the redirect itself ('error'), so the transport asks once more with 'manual' to name
    // where it pointed: that second request carries neither the key nor the body.
    const elsewhere = await startScriptedServer(() => ({ body: valid }));
    try {
      for (const status of [301, 302, 307, 308]) {
        const moved = await apiAnswering(() => ({
          status,
          headers: { location: `${elsewhere.url}/v1/payment-requests/pr_1?token=secret` },
          body: '',
        }));
        const error = await failureOf(moved.getPaymentRequest('pr_1'));
        expect(error).toMatchObject({ code: 'upstream_invalid_response', status });
        expect(error.message).toContain(`redirect (${status}, to ${elsewhere.url}/v1/payment-requests/pr_1)`);
        expect(error.message).not.toContain('secret');
        expect(server!.requests).toHaveLength(2);
        expect(server!.requests[0]!.headers['x-business-api-key']).toBeDefined();
        expect(server!.requests[1]!.headers['x-business-api-key']).toBeUndefined();
        expect(server!.requests[1]!.headers.authorization).toBeUndefined();
        expect(server!.requests[1]!.body).toBe('');
      }
      const create = await apiAnswering(() => ({ status: 303, headers: { location: '/elsewhere' }, body: '' }));
      const error = await failureOf(create.createPaymentRequest({ amount: 1, currency: 'SGD' }));
      expect(error.message).toContain(`to ${server!.url}/elsewhere`);
      expect(server!.requests.map((request) => [request.method, request.body === ''])).toEqual([
        ['POST', false],
        ['POST', true],
      ]);
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      await elsewhere.close();
    }
  });

  it('refuses a redirect it cannot locate as one to no Location, and never calls an unreachable host a redirect', async () => {
    // The keyed call is redirected; the second look, without the key, is refused (a proxy that redirects only
    // what carries credentials): the refusal still says redirect, with no Location, and is not retried.
    const moved = await apiAnswering((_request, index) =>
      index === 0 ? { status: 302, headers: { location: 'https://elsewhere.example/v1' }, body: '' } : { status: 401 },
    );
    const error = await failureOf(moved.getPaymentRequest('pr_1'));
    expect(error).toMatchObject({ code: 'upstream_invalid_response' });
    expect(error.message).toContain('with a redirect (no Location)');
    expect(server!.requests).toHaveLength(2);
    // A host whose name says "redirect" and does not resolve (RFC 6761's .invalid) is unreachable, not redirected
    // (a slow resolver may make it a timeout instead).
    const unreachable = createMerchantApi({
      apiBaseUrl: 'https://redirect.invalid',
      apiKey: 'k',
      timeoutMs: 2_000,
      retry: { attempts: 1 },
    });
    expect(['network_error', 'timeout']).toContain((await failureOf(unreachable.getPaymentRequest('pr_1'))).code);
  });

  it('calls the configured fetch as a plain function, never as a method of the configuration', async () => {
    const scripted = await apiAnswering(() => ({ body: valid }));
    const receivers: unknown[] = [];
    const strictFetch = function (this: unknown, input: string | URL | Request, init?: RequestInit) {
      receivers.push(this);
      return fetch(input, init);
    };
    await createMerchantApi({ apiBaseUrl: server!.url, apiKey: 'k', fetch: strictFetch }).getPaymentRequest('pr_1');
    expect(receivers).toEqual([undefined]);
    expect(scripted).toBeDefined();
  });

  it('sends the key only in its header, and the platform key when given', async () => {
    const scripted = await apiAnswering(() => ({ body: valid }));
    await scripted.getPaymentRequest('pr_1');
    const platform = createMerchantApi({ apiBaseUrl: server!.url, apiKey: 'k', platformKey: 'pk' });
    await platform.getPaymentRequest('pr_1');
    expect(server!.requests[0]?.headers['x-business-api-key']).toBe('k');
    expect(server!.requests[0]?.headers['x-platform-key']).toBeUndefined();
    expect(server!.requests[1]?.headers['x-platform-key']).toBe('pk');
    expect(server!.requests[0]?.url).toBe('/v1/payment-requests/pr_1');
  });
});

describe('configuration', () => {
  it('refuses a plain-http remote API and a missing key, naming the option', () => {
    expect(() => createMerchantApi({ apiBaseUrl: 'http://api.example.com', apiKey: 'k' })).toThrow(/apiBaseUrl/);
    expect(() => createMerchantApi({ apiBaseUrl: 'https://api.example.com' })).toThrow(/apiKey/);
  });
});
