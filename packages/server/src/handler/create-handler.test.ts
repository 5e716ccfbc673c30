import { PaykitError, type ShopperChoice } from '@paykit/core';
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { startScriptedServer } from '@paykit/test-support/scripted-server';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toNodeListener } from '../adapters/node.js';
import { createPlatform } from '../platform/platform.js';
import { createPaykitHandler, type PaykitHandler } from './create-handler.js';
import type { PaykitHandlerOptions } from './options.js';

/** The merchant's catalogue: the only place prices come from. */
const CATALOGUE: Record<string, { amount: string; currency: string; purpose: string }> = {
  'sku-mug': { amount: '12.50', currency: 'SGD', purpose: 'A mug' },
  'sku-tee': { amount: '30.00', currency: 'SGD', purpose: 'A T-shirt' },
};

let sandbox: RunningSandbox;
let shop: { url: string; close(): Promise<void> };
let base: string;
let logged: string[];

function priceOf(choice: ShopperChoice) {
  const item = CATALOGUE[choice.reference ?? ''];
  if (!item)
    throw new PaykitError('validation_failed', 'This product is not for sale', {
      errors: [{ path: 'reference', message: 'is not a product' }],
    });
  return { ...item, ...(choice.email ? { email: choice.email } : {}) };
}

async function serve(options: Partial<PaykitHandlerOptions> = {}): Promise<{ url: string; close(): Promise<void> }> {
  let handler: PaykitHandler | undefined;
  const http = createServer((req, res) => toNodeListener(handler!)(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  handler = createPaykitHandler({
    api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
    createPaymentRequest: priceOf,
    returnUrl: `${url}/return`,
    webhookUrl: `${url}/paykit/webhooks`,
    allowedOrigins: ['https://shop.example'],
    logger: { warn: (m) => void logged.push(m), error: (m, d) => void logged.push(`${m} ${String(d)}`) },
    ...options,
  });
  return {
    url,
    close: () =>
      new Promise((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [50, 50, 50] } });
  shop = await serve();
  base = shop.url;
});
afterAll(async () => {
  await shop.close();
  await sandbox.close();
});
beforeEach(() => {
  logged = [];
});

async function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}
async function get(path: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, { headers });
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, any> };
}
/** A POST through node:http, which (unlike fetch) sends the Host header it is given, as a rebound page would. */
function rawPost(url: string, path: string, body: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, any> }>(
    (resolve, reject) => {
      const request = httpRequest(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
      });
      request.on('response', (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: JSON.parse(text) }),
        );
      });
      request.on('error', reject);
      request.end(body);
    },
  );
}
async function sandboxRequestCount(): Promise<number> {
  return sandbox.context.state.paymentRequests.size;
}
async function pay(id: string, outcome: 'succeeded' | 'failed') {
  const response = await fetch(`${sandbox.url}/_sandbox/payment-requests/${id}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ outcome }),
  });
  expect(response.status).toBe(200);
}
describe('POST /paykit/payment-requests', () => {
  it('creates the payment request at the price the merchant decided, and answers only what the page needs', async () => {
    const answer = await post('/paykit/payment-requests', { reference: 'sku-mug', amount: '12.50', currency: 'sgd' });
    expect(answer.status).toBe(201);
    expect(Object.keys(answer.body).sort()).toEqual(['amount', 'currency', 'id', 'status', 'url']);
    expect(answer.body).toMatchObject({ status: 'pending', amount: '12.50', currency: 'SGD' });
    expect(new URL(answer.body.url as string).origin).toBe(sandbox.url);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const stored = sandbox.context.state.paymentRequests.get(answer.body.id as string);
    expect(stored).toMatchObject({ redirectUrl: `${base}/return`, webhook: `${base}/paykit/webhooks` });
  });

  it('refuses a tampered amount (amount_mismatch) or currency (checkout_misconfigured), creating nothing', async () => {
    const before = await sandboxRequestCount();
    const cheaper = await post('/paykit/payment-requests', { reference: 'sku-tee', amount: '0.01' });
    expect(cheaper.status).toBe(409);
    expect(cheaper.body.code).toBe('amount_mismatch');
    expect(cheaper.body.message).toMatch(/price has changed/);
    const otherCurrency = await post('/paykit/payment-requests', {
      reference: 'sku-tee',
      amount: '30',
      currency: 'IDR',
    });
    // Another currency than the hook's: the shop's pages and hook disagree (or someone sent it), not a new price.
    expect(otherCurrency).toMatchObject({ status: 500, body: { code: 'checkout_misconfigured' } });
    const nonsense = await post('/paykit/payment-requests', { reference: 'sku-tee', amount: '-30' });
    expect(nonsense).toMatchObject({ status: 422, body: { code: 'validation_failed', errors: [{ path: 'amount' }] } });
    expect(await sandboxRequestCount()).toBe(before);
  });

  it('never lets the browser set fields the merchant decides', async () => {
    const answer = await post('/paykit/payment-requests', {
      reference: 'sku-mug',
      redirect_url: 'https://evil.example/steal',
      platform_commission_amount: 12,
    });
    expect(answer.status).toBe(422);
    expect(answer.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['(body)']);
    expect(answer.body.message).toMatch(/redirect_url|platform_commission_amount|unrecognized/i);
  });

  it("shows the merchant hook's own refusal to the shopper", async () => {
    const answer = await post('/paykit/payment-requests', { reference: 'sku-unknown' });
    expect(answer).toMatchObject({
      status: 422,
      body: { code: 'validation_failed', message: 'This product is not for sale' },
    });
  });

  it('passes a field error about what the shopper typed, such as the email', async () => {
    const answer = await post('/paykit/payment-requests', { reference: 'sku-mug', email: 'not-an-email' });
    expect(answer).toMatchObject({ status: 422, body: { code: 'validation_failed', errors: [{ path: 'email' }] } });
  });

  it('refuses other sites (CSRF) and lets allowed origins in with CORS headers', async () => {
    const before = await sandboxRequestCount();
    const evil = await post('/paykit/payment-requests', { reference: 'sku-mug' }, { origin: 'https://evil.example' });
    expect(evil).toMatchObject({ status: 403, body: { code: 'cross_site_request' } });
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const opaque = await post('/paykit/payment-requests', { reference: 'sku-mug' }, { origin: 'null' });
    expect(opaque.status).toBe(403);
    expect(await sandboxRequestCount()).toBe(before);
    const allowed = await post(
      '/paykit/payment-requests',
      { reference: 'sku-mug' },
      { origin: 'https://shop.example' },
    );
    expect(allowed.status).toBe(201);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    const same = await post('/paykit/payment-requests', { reference: 'sku-mug' }, { origin: base });
    expect(same.status).toBe(201);
    const preflight = await fetch(`${base}/paykit/payment-requests`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('idempotency-key');
  });

  it('takes the own origin from publicOrigin, not from the Host header a rebound domain would send', async () => {
    const before = await sandboxRequestCount();
    // DNS rebinding: a page on attacker.example, whose name now points at the shop, sends Host and Origin alike.
    const rebound = await rawPost(base, '/paykit/payment-requests', '{"reference":"sku-mug"}', {
      host: 'attacker.example',
      origin: 'http://attacker.example',
    });
    expect(rebound).toMatchObject({ status: 403, body: { code: 'cross_site_request' } });
    expect(rebound.body.message).toMatch(/publicOrigin/);
    expect(await sandboxRequestCount()).toBe(before);
    // Configured: its pages may call, whatever Host the proxy in front passes on; the loopback origin no longer.
    const configured = await serve({
      publicOrigin: 'https://www.shop.example',
      returnUrl: 'https://www.shop.example/return',
    });
    try {
      const own = await rawPost(configured.url, '/paykit/payment-requests', '{"reference":"sku-mug"}', {
        host: 'internal-app:8080',
        origin: 'https://www.shop.example',
      });
      expect(own.status).toBe(201);
      expect(own.headers['access-control-allow-origin']).toBeUndefined();
      const loopback = await rawPost(configured.url, '/paykit/payment-requests', '{"reference":"sku-mug"}', {
        origin: configured.url,
      });
      expect(loopback.status).toBe(403);
    } finally {
      await configured.close();
    }
    expect(() =>
      createPaykitHandler({
        api: { apiBaseUrl: 'http://127.0.0.1:1', apiKey: 'k' },
        createPaymentRequest: priceOf,
        publicOrigin: 'shop.example',
      }),
    ).toThrow(/publicOrigin/);
  });

  it('refuses an Origin-less POST that a browser marks cross-site or same-site, and lets other clients in', async () => {
    const before = await sandboxRequestCount();
    for (const site of ['cross-site', 'same-site', 'Cross-Site']) {
      const answer = await post('/paykit/payment-requests', { reference: 'sku-mug' }, { 'sec-fetch-site': site });
      expect(answer, site).toMatchObject({ status: 403, body: { code: 'cross_site_request' } });
    }
    expect(await sandboxRequestCount()).toBe(before);
    // A server-to-server call (no Origin, no fetch metadata) and a same-origin one still work.
    expect((await post('/paykit/payment-requests', { reference: 'sku-mug' })).status).toBe(201);
    const same = await post('/paykit/payment-requests', { reference: 'sku-mug' }, { 'sec-fetch-site': 'same-origin' });
    expect(same.status).toBe(201);
  });

  it('does nothing with prototype-polluting keys but refuse them', async () => {
    const polluted = await post(
      '/paykit/payment-requests',
      '{"reference":"sku-mug","__proto__":{"amount":"0.01"},"constructor":{"prototype":{"x":1}}}',
    );
    expect(polluted).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
    expect(({} as Record<string, unknown>).amount).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it("refuses a hook answer with a `__proto__` key of its own (JSON.parse's), which could set fields nobody decided", async () => {
    const hook = await serve({
      returnUrl: undefined,
      webhookUrl: undefined,
      createPaymentRequest: () =>
        JSON.parse(
          '{"amount":"12.50","currency":"SGD","purpose":"Mug","__proto__":{"redirect_url":"https://evil.example/return","webhook":"https://evil.example/hook"}}',
        ) as { amount: string; currency: string },
    });
    try {
      const before = await sandboxRequestCount();
      const response = await fetch(`${hook.url}/paykit/payment-requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reference: 'sku-mug', amount: '12.50', currency: 'SGD' }),
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toMatchObject({ code: 'checkout_misconfigured' });
      expect(await sandboxRequestCount()).toBe(before);
      expect(logged.join('\n')).toContain('"__proto__" key');
    } finally {
      await hook.close();
    }
  });

  it('refuses bodies that are too large, not JSON, or not sent as JSON, before parsing them', async () => {
    const huge = await post('/paykit/payment-requests', { reference: 'sku-mug', purpose: 'x'.repeat(20_000) });
    expect(huge).toMatchObject({ status: 413, body: { code: 'payload_too_large' } });
    const broken = await post('/paykit/payment-requests', '{"reference": "sku-mug"');
    expect(broken).toMatchObject({ status: 400, body: { code: 'invalid_json' } });
    const array = await post('/paykit/payment-requests', '[]');
    expect(array).toMatchObject({ status: 400, body: { code: 'invalid_json' } });
    const form = await post('/paykit/payment-requests', 'reference=sku-mug', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form).toMatchObject({ status: 415, body: { code: 'unsupported_media_type' } });
  });

  it('makes one payment request per Idempotency-Key, even for concurrent duplicates', async () => {
    const before = await sandboxRequestCount();
    const key = `click-${Date.now()}`;
    const [first, second] = await Promise.all([
      post('/paykit/payment-requests', { reference: 'sku-mug' }, { 'idempotency-key': key }),
      post('/paykit/payment-requests', { reference: 'sku-mug' }, { 'idempotency-key': key }),
    ]);
    expect(first.status).toBe(201);
    expect(second.body.id).toBe(first.body.id);
    expect(await sandboxRequestCount()).toBe(before + 1);
    const reused = await post('/paykit/payment-requests', { reference: 'sku-tee' }, { 'idempotency-key': key });
    expect(reused).toMatchObject({ status: 409, body: { code: 'conflict' } });
    const malformed = await post('/paykit/payment-requests', { reference: 'sku-tee' }, { 'idempotency-key': 'a b' });
    expect(malformed).toMatchObject({ status: 422, body: { errors: [{ path: 'Idempotency-Key' }] } });
  });

  it("never answers one shopper's Idempotency-Key with another shopper's payment request", async () => {
    const before = await sandboxRequestCount();
    const key = `shared-key-${Date.now()}`;
    const body = { reference: 'sku-mug' };
    const alice = await post('/paykit/payment-requests', body, { 'idempotency-key': key, cookie: 'sid=alice' });
    const bob = await post('/paykit/payment-requests', body, { 'idempotency-key': key, cookie: 'sid=bob' });
    const bearer = await post('/paykit/payment-requests', body, { 'idempotency-key': key, authorization: 'Bearer x' });
    expect([alice.status, bob.status, bearer.status]).toEqual([201, 201, 201]);
    expect(new Set([alice.body.id, bob.body.id, bearer.body.id]).size).toBe(3);
    const aliceAgain = await post('/paykit/payment-requests', body, { 'idempotency-key': key, cookie: 'sid=alice' });
    expect(aliceAgain.body.id).toBe(alice.body.id);
    // Another body under Bob's key is Bob's conflict, and Alice's retry above was not disturbed by Bob's use.
    const bobOther = await post(
      '/paykit/payment-requests',
      { reference: 'sku-tee' },
      { 'idempotency-key': key, cookie: 'sid=bob' },
    );
    expect(bobOther).toMatchObject({ status: 409, body: { code: 'conflict' } });
    expect(await sandboxRequestCount()).toBe(before + 3);
  });

  it('scopes keys by idempotencyScope when given, so that a changed tracking cookie keeps a retry together', async () => {
    const scoped = await serve({
      idempotencyScope: (request) => /(?:^|;\s*)sid=([^;]*)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? '',
    });
    try {
      const before = await sandboxRequestCount();
      const key = `scoped-key-${Date.now()}`;
      const send = (cookie: string) =>
        fetch(`${scoped.url}/paykit/payment-requests`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': key, cookie },
          body: '{"reference":"sku-mug"}',
        }).then(async (response) => ({ status: response.status, body: (await response.json()) as { id: string } }));
      const first = await send('sid=carol; _track=1');
      const retry = await send('sid=carol; _track=2');
      const other = await send('sid=dave; _track=1');
      expect(retry.body.id).toBe(first.body.id);
      expect(other.body.id).not.toBe(first.body.id);
      expect(await sandboxRequestCount()).toBe(before + 2);
    } finally {
      await scoped.close();
    }
  });

  it('answers an API failure as its own upstream error, without the API wording or its status', async () => {
    const api = await startScriptedServer(() => ({ status: 401, body: { message: 'Invalid API key sk_live_123' } }));
    const failing = await serve({ api: { apiBaseUrl: api.url, apiKey: 'sk_live_123' } });
    try {
      const response = await fetch(`${failing.url}/paykit/payment-requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ reference: 'sku-mug' }),
      });
      const text = await response.text();
      expect(response.status).toBe(502);
      // A 401 to the shop's API key is the key refused (issue 26): its own code, still none of the API's words.
      expect(JSON.parse(text).code).toBe('api_key_refused');
      expect(text).not.toContain('Invalid API key');
      expect(text).not.toContain('sk_live_123');
      expect(logged.join('\n')).not.toContain('sk_live_123');
    } finally {
      await failing.close();
      await api.close();
    }
  });
});

describe('logs', () => {
  it('redact keys and credential-shaped text that a failing hook quotes', async () => {
    const leaky = await serve({
      createPaymentRequest: () => {
        throw new Error(
          `upstream said no to x-business-api-key: ${sandbox.seed.apiKey} with Authorization: Bearer tok.en-123 and client_secret=cs_live_42`,
        );
      },
    });
    try {
      const response = await fetch(`${leaky.url}/paykit/payment-requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(500);
      expect(await response.json()).toEqual({ code: 'internal_error', message: expect.any(String) });
      const log = logged.join('\n');
      expect(log).toContain('upstream said no');
      for (const secret of [sandbox.seed.apiKey, 'tok.en-123', 'cs_live_42']) expect(log).not.toContain(secret);
    } finally {
      await leaky.close();
    }
  });
});

describe('GET /paykit/payment-requests/{id}', () => {
  it('answers the status the API confirms (and the purpose the hook set), whatever the return URL claimed', async () => {
    const started = await post('/paykit/payment-requests', { reference: 'sku-mug' });
    const id = started.body.id as string;
    expect((await get(`/paykit/payment-requests/${id}?status=completed`)).body).toEqual({
      id,
      status: 'pending',
      amount: '12.50',
      currency: 'SGD',
      // The hook's purpose, for the return page to show: set by the merchant's backend, never by the browser.
      purpose: 'A mug',
    });
    await pay(id, 'failed');
    expect((await get(`/paykit/payment-requests/${id}`)).body.status).toBe('failed');
  });

  it('answers not_found for an unknown or malformed reference', async () => {
    const unknown = await get('/paykit/payment-requests/00000000-0000-4000-8000-00000000beef');
    expect(unknown).toMatchObject({ status: 404, body: { code: 'not_found' } });
    // Refused before any URL is built: `../../v1/charges` is not one path segment.
    const traversal = await get('/paykit/payment-requests/..%2F..%2Fv1%2Fcharges');
    expect(traversal).toMatchObject({ status: 422, body: { code: 'validation_failed', errors: [{ path: 'id' }] } });
    const badEncoding = await get('/paykit/payment-requests/%E0%A4%A');
    expect(badEncoding).toMatchObject({ status: 422, body: { code: 'validation_failed' } });
  });
});

describe('POST /paykit/oauth/callback', () => {
  it('refuses a post without Origin (a replayed code) before anything reaches the token endpoint', async () => {
    const authorizationServer = await startScriptedServer(() => ({ status: 400, body: { error: 'invalid_grant' } }));
    const platform = await serve({
      api: undefined,
      platform: createPlatform({
        apiBaseUrl: authorizationServer.url,
        platformKey: 'platform-key-for-origin-test',
        oauth: { clientId: 'app', clientSecret: 'client-secret-for-origin-test' },
      }),
    });
    try {
      const body = JSON.stringify({
        code: 'an-old-code-from-an-access-log',
        code_verifier: 'v'.repeat(43),
        redirect_uri: `${platform.url}/return`,
      });
      const refused: Record<string, string>[] = [
        {},
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
      ];
      for (const headers of refused) {
        const answer = await rawPost(platform.url, '/paykit/oauth/callback', body, headers);
        expect(answer, JSON.stringify(headers)).toMatchObject({ status: 403, body: { code: 'cross_site_request' } });
      }
      expect(authorizationServer.requests).toEqual([]);
    } finally {
      await platform.close();
      await authorizationServer.close();
    }
  });
});

describe('routing', () => {
  it('answers 404 outside its routes and 405 for a wrong method', async () => {
    expect((await get('/paykit/nothing')).body.code).toBe('not_found');
    expect((await get('/elsewhere')).status).toBe(404);
    expect((await get('/paykit/payment-requests')).body.code).toBe('method_not_allowed');
    expect((await post('/paykit/payment-requests/abc', {})).status).toBe(405);
  });

  it('refuses a prefix or an allowed origin that is not one', () => {
    const base = { api: { apiBaseUrl: 'http://127.0.0.1:1', apiKey: 'k' }, createPaymentRequest: priceOf };
    expect(() => createPaykitHandler({ ...base, prefix: 'paykit' })).toThrow(/prefix/);
    expect(() => createPaykitHandler({ ...base, allowedOrigins: ['https://shop.example/path'] })).toThrow(
      /allowedOrigins/,
    );
  });

  it('refuses a returnUrl or webhookUrl the API would refuse, when created rather than at every click', () => {
    const base = { api: { apiBaseUrl: 'http://127.0.0.1:1', apiKey: 'k' }, createPaymentRequest: priceOf };
    expect(() => createPaykitHandler({ ...base, webhookUrl: 'http://shop.example/paykit/webhooks' })).toThrow(
      /"webhookUrl" must be an https URL/,
    );
    expect(() => createPaykitHandler({ ...base, returnUrl: 'javascript:alert(1)' })).toThrow(
      expect.objectContaining({ code: 'validation_failed', errors: [expect.objectContaining({ path: 'returnUrl' })] }),
    );
    expect(() => createPaykitHandler({ ...base, returnUrl: 'http://localhost:3000/thanks' })).not.toThrow();
  });

  it('refuses a returnUrl on an origin that is neither publicOrigin nor in allowedOrigins, naming both', () => {
    const base = {
      api: { apiBaseUrl: 'http://127.0.0.1:1', apiKey: 'k' },
      createPaymentRequest: priceOf,
      publicOrigin: 'https://shop.example',
      allowedOrigins: ['https://blog.example'],
    };
    let refused: unknown;
    try {
      createPaykitHandler({ ...base, returnUrl: 'https://checkout.example/thanks' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      code: 'validation_failed',
      message:
        '"returnUrl" (https://checkout.example/thanks) is on https://checkout.example, which is neither "publicOrigin" ' +
        '(https://shop.example) nor one of "allowedOrigins" (https://blog.example): the page there could not call ' +
        'this handler. Put the page on https://shop.example, or set publicOrigin to https://checkout.example if ' +
        'that is where the shop is served.',
      errors: [{ path: 'returnUrl', message: 'is not on publicOrigin (https://shop.example) or allowedOrigins' }],
    });
    expect(() => createPaykitHandler({ ...base, returnUrl: 'https://shop.example/thanks' })).not.toThrow();
    expect(() => createPaykitHandler({ ...base, returnUrl: 'https://blog.example/thanks' })).not.toThrow();
    // A port is part of the origin: the shop on :443, the page on :8443, is another origin.
    expect(() => createPaykitHandler({ ...base, returnUrl: 'https://shop.example:8443/thanks' })).toThrow(
      /neither "publicOrigin"/,
    );
    // Development on a loopback host without publicOrigin: nothing to hold it against.
    expect(() =>
      createPaykitHandler({ ...base, publicOrigin: undefined, returnUrl: 'http://127.0.0.1:3000/thanks' }),
    ).not.toThrow();
  });
});
