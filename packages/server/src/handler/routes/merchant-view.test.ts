/**
 * The merchant-view routes as a platform meets them (issue 38 item 4): a real handler on 127.0.0.1 over a platform
 * whose merchant is connected by OAuth on a real sandbox, behind a counting proxy that sees every call the API
 * receives. The platform's `merchantView` hook reads a cookie as the platform's session.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { startCountingProxy, type CountingProxy } from '@paykit/test-support/counting-proxy';
import { call } from '@paykit/test-support/sandbox-calls';
import { createBusiness, createUser, registerApp, type SandboxBusiness } from '@paykit/test-support/sandbox-control';
import { testDatabaseUrl, testTablePrefix } from '@paykit/test-support/postgres';
import { approveOnSandbox } from '@paykit/test-support/sandbox-oauth';
import type {
  MerchantConnectionAnswer,
  MerchantPaymentDetail,
  MerchantPaymentRow,
  MerchantPaymentsAnswer,
  MerchantPayoutsAnswer,
  MerchantRefundAnswer,
} from '@paykit/core';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeListener } from '../../adapters/node.js';
import { createPostgresStores } from '../../postgres/create-postgres-stores.js';
import { createPlatform, type Platform } from '../../platform/platform.js';
import { createPaykitHandler, type PaykitHandler } from '../create-handler.js';
import type { MerchantViewAccess } from '../options.js';

const REDIRECT = 'https://platform.example/connect/callback';
const HOUR = 3_600;

let sandbox: RunningSandbox;
let proxy: CountingProxy;
let app: { client_id: string; client_secret: string };
let merchant: SandboxBusiness;
let owner: string;
let platform: Platform;
let server: Server;
let base: string;
/** The hook's calls, by merchant. */
const asked: string[] = [];

/** The platform's sessions: a cookie names the user; the admin may refund, the clerk only look. */
const ACCESS: Record<string, MerchantViewAccess> = {
  admin: { view: true, refund: true },
  clerk: { view: true, refund: false },
};

async function serve(handler: PaykitHandler): Promise<{ server: Server; url: string }> {
  const listening = createServer((req, res) => toNodeListener(handler)(req, res));
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return { server: listening, url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}` };
}

function handlerOptions() {
  return {
    platform,
    createPaymentRequest: () => {
      throw new Error('not used here');
    },
  };
}

/** Connects the merchant (or `business`, owned by `user`) by OAuth, as the return page's callback does. */
async function connect(to: Platform = platform, business = merchant, user = owner): Promise<void> {
  const codeVerifier = randomBytes(32).toString('base64url');
  const { code } = await approveOnSandbox(sandbox, {
    userId: user,
    clientId: app.client_id,
    redirectUri: REDIRECT,
    scope: 'payments business:read',
    state: 's',
    businessId: business.id,
    codeVerifier,
  });
  await to.connectWithCode({ code, codeVerifier, redirectUri: REDIRECT });
}

/** A payment of `amount` on the merchant, paid through the sandbox's control API; answers its charge id. */
async function paidPayment(amount = '20.00'): Promise<void> {
  const request = await call(sandbox, 'POST', '/v1/payment-requests', {
    apiKey: merchant.api_key,
    json: { amount, currency: 'SGD', purpose: 'Order' },
  });
  expect(request.status, JSON.stringify(request.body)).toBe(200);
  const paid = await call(sandbox, 'POST', `/_sandbox/payment-requests/${request.body.id}/pay`, {
    json: { outcome: 'succeeded' },
  });
  expect(paid.status).toBe(200);
}

async function get<T>(path: string, who = 'admin'): Promise<{ status: number; body: T & { code?: string } }> {
  const answer = await fetch(`${base}/paykit${path}`, { headers: { cookie: `who=${who}` } });
  return { status: answer.status, body: (await answer.json()) as T & { code?: string } };
}

async function refund(
  body: unknown,
  key: string | null,
  who = 'admin',
  at = base,
): Promise<{ status: number; body: MerchantRefundAnswer & { code?: string; errors?: { path: string }[] } }> {
  const answer = await fetch(`${at}/paykit/merchants/${merchant.id}/refunds`, {
    method: 'POST',
    headers: {
      cookie: `who=${who}`,
      origin: at,
      'content-type': 'application/json',
      ...(key === null ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as never };
}

/** Every payment of the merchant (or `business`) through the route's pages, its rows, and the number of pages. */
async function allPayments(business = merchant): Promise<{ ids: string[]; rows: MerchantPaymentRow[]; pages: number }> {
  const rows: MerchantPaymentRow[] = [];
  let next: string | undefined;
  let pages = 0;
  do {
    const page = await get<MerchantPaymentsAnswer>(
      `/merchants/${business.id}/payments${next ? `?cursor=${encodeURIComponent(next)}` : ''}`,
    );
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    expect(page.body.items.length).toBeLessThanOrEqual(25);
    rows.push(...page.body.items);
    next = page.body.next;
    pages += 1;
  } while (next !== undefined && pages < 100);
  return { ids: rows.map((row) => row.id), rows, pages };
}

/** A cursor as the route writes them: base64url of JSON. */
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, oauth: { accessTokenTtlSeconds: HOUR, refreshTokenTtlSeconds: 2 * HOUR } });
  proxy = await startCountingProxy(sandbox.url);
  app = await registerApp(sandbox, {
    name: 'Acme Platform',
    redirectUris: [REDIRECT],
    scopes: ['business:read', 'payments'],
  });
  merchant = await createBusiness(sandbox, { name: 'Harbour Cafe' });
  owner = (await createUser(sandbox, { email: 'owner@harbour.test', name: 'Hana', businessId: merchant.id })).id;
  platform = createPlatform({
    apiBaseUrl: proxy.url,
    platformKey: sandbox.seed.platformKey,
    oauth: { clientId: app.client_id, clientSecret: app.client_secret, redirectUris: [REDIRECT] },
  });
  const handler = createPaykitHandler({
    ...handlerOptions(),
    merchantView: (business, { request }) => {
      asked.push(business);
      const who = /(?:^|;\s*)who=([a-z]+)/.exec(request.headers.get('cookie') ?? '')?.[1] ?? '';
      return ACCESS[who] ?? { view: false, refund: false };
    },
  });
  ({ server, url: base } = await serve(handler));
  await connect();
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await proxy.close();
  await sandbox.close();
});

describe('the merchant-view routes of a platform', () => {
  it('do not exist without the merchantView hook (404, as any unknown route)', async () => {
    const bare = await serve(createPaykitHandler(handlerOptions()));
    try {
      const answer = await fetch(`${bare.url}/paykit/merchants/${merchant.id}/connection`);
      expect(answer.status).toBe(404);
      expect(await answer.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await new Promise((resolve) => bare.server.close(resolve));
    }
  });

  it('refuse a caller the hook refuses with 403 view_refused, and a clerk refunding with refund_refused, with no API call', async () => {
    const before = proxy.total();
    for (const path of ['connection', 'payments', 'payments/ch_1', 'payouts']) {
      const answer = await get(`/merchants/${merchant.id}/${path}`, 'stranger');
      expect(answer.status).toBe(403);
      expect(answer.body.code).toBe('view_refused');
    }
    const asStranger = await refund({ charge: 'ch_1', amount: '1.00' }, randomUUID(), 'stranger');
    expect([asStranger.status, asStranger.body.code]).toEqual([403, 'view_refused']);
    const asClerk = await refund({ charge: 'ch_1', amount: '1.00' }, randomUUID(), 'clerk');
    expect([asClerk.status, asClerk.body.code]).toEqual([403, 'refund_refused']);
    expect(proxy.total()).toBe(before);
    expect(asked.at(-1)).toBe(merchant.id);

    const clerkList = await get<MerchantPaymentsAnswer>(`/merchants/${merchant.id}/payments`, 'clerk');
    expect(clerkList.status).toBe(200);
    expect(clerkList.body.can_refund).toBe(false);
  });

  it('say when a merchant is not connected: the connection route answers not_connected, the reads 409', async () => {
    const other = await createBusiness(sandbox, { name: 'Never Connected' });
    const connection = await get<MerchantConnectionAnswer>(`/merchants/${other.id}/connection`);
    expect(connection).toEqual({ status: 200, body: { merchant: other.id, state: 'not_connected' } });
    for (const path of ['payments', 'payouts']) {
      const answer = await get(`/merchants/${other.id}/${path}`);
      expect(answer.status).toBe(409);
      expect(answer.body.code).toBe('merchant_not_connected');
    }
    const connected = await get<MerchantConnectionAnswer>(`/merchants/${merchant.id}/connection`);
    expect(connected.body).toMatchObject({
      merchant: merchant.id,
      state: 'connected',
      business: { id: merchant.id, name: 'Harbour Cafe' },
    });
    expect(Date.parse(connected.body.connected_at!)).toBeGreaterThan(Date.now() - 600_000);
  });

  it('pages through 250 payments newest first, each once', async () => {
    const started = performance.now();
    for (let batch = 0; batch < 10; batch += 1) {
      await Promise.all(Array.from({ length: 25 }, () => paidPayment()));
    }
    const made = performance.now() - started;
    const charges = proxy.count('GET', '/v1/charges');
    const { ids, pages } = await allPayments();
    expect(ids).toHaveLength(250);
    expect(new Set(ids).size).toBe(250);
    const sandboxIds = [...sandbox.context.state.charges.values()]
      .filter((charge) => charge.businessId === merchant.id)
      .map((charge) => charge.id)
      .reverse();
    expect(ids).toEqual(sandboxIds);
    // One API page per answer (25 charges each): 10 pages, 10 list calls.
    expect(pages).toBe(10);
    expect(proxy.count('GET', '/v1/charges') - charges).toBe(10);
    // Made quickly through the control API: about 2.4 s for 250 on a loaded 2-core machine.
    expect(made).toBeLessThan(60_000);

    const bad = await get(`/merchants/${merchant.id}/payments?cursor=bm90LWEtY3Vyc29y`);
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'validation_failed', errors: [{ path: 'cursor' }] });
  });

  it('refunds a double click once: the same Idempotency-Key twice at once is one refund, confirmed from the API', async () => {
    const { body } = await get<MerchantPaymentsAnswer>(`/merchants/${merchant.id}/payments`);
    const charge = body.items[0]!;
    expect(charge).toMatchObject({ amount: '20.00', currency: 'SGD', refunded: '0.00', refundable: '20.00' });
    const refunds = proxy.count('POST', '/v1/refunds');
    const key = randomUUID();
    const [first, second] = await Promise.all([
      refund({ charge: charge.id, amount: '5.00' }, key),
      refund({ charge: charge.id, amount: '5.00' }, key),
    ]);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(proxy.count('POST', '/v1/refunds') - refunds).toBe(1);
    expect(first.body.refund).toMatchObject({ amount: '5.00', currency: 'SGD' });
    expect(first.body.payment).toMatchObject({
      id: charge.id,
      status: 'partially_refunded',
      refunded: '5.00',
      refundable: '15.00',
      can_refund: true,
      refunds: [{ id: first.body.refund.id, amount: '5.00' }],
    });
    const detail = await get<MerchantPaymentDetail>(`/merchants/${merchant.id}/payments/${charge.id}`);
    expect(detail.body.refunds).toHaveLength(1);
  });

  it('refuses a refund over what is left with a field error on amount, and one without a key, making none', async () => {
    const { body } = await get<MerchantPaymentsAnswer>(`/merchants/${merchant.id}/payments`);
    const charge = body.items[0]!;
    expect(charge.refundable).toBe('15.00');
    const refunds = proxy.count('POST', '/v1/refunds');
    const over = await refund({ charge: charge.id, amount: '15.01' }, randomUUID());
    expect(over.status).toBe(422);
    expect(over.body).toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'amount', message: 'must not exceed 15.00' }],
    });
    const tooPrecise = await refund({ charge: charge.id, amount: '1.005' }, randomUUID());
    expect([tooPrecise.status, tooPrecise.body.errors?.[0]?.path]).toEqual([422, 'amount']);
    const keyless = await refund({ charge: charge.id, amount: '1.00' }, null);
    expect([keyless.status, keyless.body.code]).toEqual([400, 'idempotency_key_invalid']);
    const badKey = await refund({ charge: charge.id, amount: '1.00' }, 'short');
    expect([badKey.status, badKey.body.code]).toEqual([400, 'idempotency_key_invalid']);
    expect(proxy.count('POST', '/v1/refunds')).toBe(refunds);
    const after = await get<MerchantPaymentDetail>(`/merchants/${merchant.id}/payments/${charge.id}`);
    expect(after.body).toMatchObject({ refunded: '5.00', refundable: '15.00' });
  });

  it('lists a payout of the balance, with its status', async () => {
    const made = await call(sandbox, 'POST', '/_sandbox/payouts', { json: { business_id: merchant.id } });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const answer = await get<MerchantPayoutsAnswer>(`/merchants/${merchant.id}/payouts`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    // The OAuth connection has no scope for transfers: payouts only.
    expect(answer.body.items).toEqual([
      expect.objectContaining({ id: made.body.id, kind: 'payout', status: 'scheduled', currency: 'SGD' }),
    ]);
  });

  it('refunds a click sent to two instances on PostgreSQL once', async () => {
    const [prefix, encryptionKey] = [testTablePrefix(), randomBytes(32)];
    const open = () =>
      createPostgresStores({ connectionString: testDatabaseUrl(), encryptionKey, tablePrefix: prefix });
    const stores = [await open(), await open()];
    const instances = await Promise.all(
      stores.map(async (store) => {
        const shared = createPlatform({
          apiBaseUrl: proxy.url,
          platformKey: sandbox.seed.platformKey,
          oauth: { clientId: app.client_id, clientSecret: app.client_secret, redirectUris: [REDIRECT] },
          store: store.connections,
          tokenBudget: store.tokenBudget,
          codeLedger: store.codes,
        });
        const handler = createPaykitHandler({
          ...handlerOptions(),
          platform: shared,
          idempotencyStore: store.idempotency,
          eventStore: store.events,
          merchantView: () => ({ view: true, refund: true }),
        });
        return { platform: shared, ...(await serve(handler)) };
      }),
    );
    try {
      await connect(instances[0]!.platform);
      const { body } = await get<MerchantPaymentsAnswer>(`/merchants/${merchant.id}/payments`);
      const charge = body.items.find((row) => row.refunded === '0.00')!;
      const refunds = proxy.count('POST', '/v1/refunds');
      const key = randomUUID();
      const answers = await Promise.all(
        instances.map((instance) => refund({ charge: charge.id, amount: '2.50' }, key, 'admin', instance.url)),
      );
      expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
      expect(answers[1]!.body.refund.id).toBe(answers[0]!.body.refund.id);
      expect(proxy.count('POST', '/v1/refunds') - refunds).toBe(1);
      expect(answers[0]!.body.payment).toMatchObject({ refunded: '2.50', refundable: '17.50' });
    } finally {
      await Promise.all(instances.map((instance) => new Promise((resolve) => instance.server.close(resolve))));
      await Promise.all(stores.map((store) => store.close()));
    }
  });

  it('reads connect_again once the service no longer takes the connection, and connecting again restores the list', async () => {
    // Past the access token's hour and the refresh token's two on the merchant's clock.
    const moved = await call(sandbox, 'POST', `/_sandbox/businesses/${merchant.id}/clock/advance`, {
      json: { seconds: 3 * HOUR },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const read = await get(`/merchants/${merchant.id}/payments`);
    expect([read.status, read.body.code]).toEqual([409, 'merchant_connection_ended']);
    const connection = await get<MerchantConnectionAnswer>(`/merchants/${merchant.id}/connection`);
    expect(connection.body).toMatchObject({ merchant: merchant.id, state: 'connect_again' });
    expect(connection.body.business).toBeUndefined();
    const again = await get(`/merchants/${merchant.id}/payouts`);
    expect([again.status, again.body.code]).toEqual([409, 'merchant_connection_ended']);

    await connect();
    const restored = await get<MerchantConnectionAnswer>(`/merchants/${merchant.id}/connection`);
    expect(restored.body).toMatchObject({ state: 'connected', business: { id: merchant.id } });
    const { ids } = await allPayments();
    expect(ids).toHaveLength(250);
  });
  it('lists the payment requests nothing charged among the charges: 60 paid and 40 pending, expired or canceled, newest first, each once', async () => {
    const shop = await createBusiness(sandbox, { name: 'Lantern Books' });
    const keeper = (await createUser(sandbox, { email: 'keeper@lantern.test', name: 'Lin', businessId: shop.id })).id;
    await connect(platform, shop, keeper);
    const make = async (purpose: string, extra: Record<string, unknown> = {}) => {
      const made = await call(sandbox, 'POST', '/v1/payment-requests', {
        apiKey: shop.api_key,
        json: { amount: '8.00', currency: 'SGD', purpose, ...extra },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
      return made.body.id as string;
    };
    const pay = async (id: string, outcome: 'succeeded' | 'failed') => {
      const paid = await call(sandbox, 'POST', `/_sandbox/payment-requests/${id}/pay`, { json: { outcome } });
      expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    };
    // 60 paid (made and paid 10 at a time) and 40 pending among them; one failed, one canceled, one expired.
    const requests: string[] = [];
    for (let batch = 0; batch < 10; batch += 1) {
      await Promise.all(Array.from({ length: 6 }, async () => pay(await make('Paid'), 'succeeded')));
      requests.push(...(await Promise.all(Array.from({ length: 4 }, () => make('Waiting')))));
    }
    const failed = await make('Declined');
    await pay(failed, 'failed');
    const canceled = await make('Changed mind');
    expect((await call(sandbox, 'DELETE', `/v1/payment-requests/${canceled}`, { apiKey: shop.api_key })).status).toBe(
      200,
    );
    const expired = await make('Too late', { expiry_date: '2020-01-01 00:00:00' });

    const chargeCalls = proxy.count('GET', '/v1/charges');
    const { ids, rows, pages } = await allPayments(shop);
    // 61 charges (60 paid, 1 failed), 40 pending requests, 1 canceled, 1 expired: 103 rows, pages of 25.
    expect(ids).toHaveLength(103);
    expect(new Set(ids).size).toBe(103);
    expect(pages).toBe(5);
    const times = rows.map((row) => Date.parse(row.created_at));
    expect(times.every((time, i) => i === 0 || time <= times[i - 1]!)).toBe(true);
    const sandboxCharges = [...sandbox.context.state.charges.values()].filter((c) => c.businessId === shop.id);
    expect(new Set(rows.filter((row) => row.kind === 'charge').map((row) => row.id))).toEqual(
      new Set(sandboxCharges.map((charge) => charge.id)),
    );
    expect(new Set(rows.filter((row) => row.kind === 'payment_request').map((row) => row.id))).toEqual(
      new Set([...requests, canceled, expired]),
    );
    // A failed request is its failed charge, not a request row.
    expect(ids).not.toContain(failed);
    expect(rows.find((row) => row.payment_request === failed)).toMatchObject({ kind: 'charge', status: 'failed' });
    expect(rows.find((row) => row.id === requests[0])).toEqual({
      id: requests[0],
      kind: 'payment_request',
      amount: '8.00',
      currency: 'SGD',
      status: 'pending',
      description: 'Waiting',
      created_at: expect.stringMatching(/Z$/),
      refunded: '0.00',
      refundable: '0.00',
    });
    expect(rows.find((row) => row.id === canceled)?.status).toBe('canceled');
    expect(rows.find((row) => row.id === expired)?.status).toBe('expired');
    expect(JSON.stringify(rows)).not.toContain('/checkout/');
    // Each answer reads its charges page again (and the one after, when it ran out): never more than 2 a page.
    expect(proxy.count('GET', '/v1/charges') - chargeCalls).toBeLessThanOrEqual(2 * pages);

    // A cursor of version 1 (charges only) goes on with the charges after its own, charges only; bad ones are refused.
    const list = async (query: string) => {
      const page = await call(sandbox, 'GET', `/v1/charges?per_page=25${query}`, { apiKey: shop.api_key });
      return page.body as { data: { id: string }[]; meta: { next_cursor: string } };
    };
    const [firstCharges] = [await list('')];
    const secondCharges = await list(`&cursor=${encodeURIComponent(firstCharges.meta.next_cursor)}`);
    const old = await get<MerchantPaymentsAnswer>(
      `/merchants/${shop.id}/payments?cursor=${cursorOf({ v: 1, charges: firstCharges.meta.next_cursor })}`,
    );
    expect(old.status, JSON.stringify(old.body)).toBe(200);
    expect(old.body.items.map((row) => [row.kind, row.id])).toEqual(secondCharges.data.map((c) => ['charge', c.id]));
    for (const bad of [{ v: 2 }, { v: 2, charges: { taken: -1 } }, { v: 2, requests: { at: 5, taken: 0 } }, { v: 3 }]) {
      const refused = await get(`/merchants/${shop.id}/payments?cursor=${cursorOf(bad)}`);
      expect([refused.status, refused.body.code]).toEqual([422, 'validation_failed']);
    }
  });
});
