/**
 * The runtime contract of `@paykit/server`: one suite, run unchanged on every runtime of the matrix (the host's
 * Node, Node 22 and 24, Bun, Deno, workerd) against the packed packages as a user installs them. It uses only
 * what every one of them has (fetch, Request, Response, Web Crypto, timers) and imports only the Fetch-API entry;
 * each runtime's runner (`run-*.ts`) supplies the one thing that differs, a way to serve a handler on 127.0.0.1,
 * and reports the outcomes. The sandbox runs on the host's Node; every call between them is real HTTP.
 *
 * Each check makes its own businesses on the sandbox, so that nothing one leaves behind changes another.
 */
import {
  createPaykitHandler,
  createPlatform,
  isPaykitError,
  MemoryConnectionStore,
  type ConfirmedEvent,
  type Logger,
  type PaykitHandler,
  type PaykitHandlerOptions,
} from '@paykit/server';

/** A handler served on 127.0.0.1 by the runtime under test. */
export interface Served {
  /** `http://127.0.0.1:<port>`: where the sandbox delivers webhooks and where the suite calls the routes. */
  origin: string;
  close(): Promise<void>;
}

/** What a runner gives the suite. */
export interface Host {
  /** The runtime and its version, for the report (`node 24.21.0`, `workerd 1.20260730.1`). */
  runtime: string;
  /** The sandbox's origin. */
  sandboxUrl: string;
  /**
   * Serves `handler`. A runtime that can serve one handler at a time (a Worker) replaces the previous one; the
   * suite serves one at a time.
   */
  serve(handler: (request: Request) => Promise<Response>): Promise<Served>;
  /**
   * What a handler on memory stores does when `NODE_ENV` is production: `refused` on Workers (each isolate has
   * its own memory), `warned` on a server process (except the event store in memory, refused everywhere).
   */
  memoryStoresInProduction: 'refused' | 'warned';
  /** A PostgreSQL database (`postgres://`) the runtime reaches, for the check of `@paykit/server/postgres`. */
  databaseUrl: string;
  /**
   * How an application on this runtime holds the PostgreSQL stores: one set for the process (a server), or a set
   * opened for each request and closed after it (Workers, whose connections cannot outlive the request).
   */
  postgresStores: 'per-process' | 'per-request';
}

/** One check's result. */
export interface Outcome {
  name: string;
  ok: boolean;
  ms: number;
  /** What failed: the assertion's message, with the step it was on. */
  error?: string;
}

/** The longest one check may take before it counts as failed (a hang names its check, not the whole run). */
const CHECK_TIMEOUT_MS = 30_000;

interface SandboxBusiness {
  id: string;
  api_key: string;
  platform_key?: string;
  salt: string;
}

/** Runs every check (or those whose name contains `only`), one after the other. */
export async function runSuite(host: Host, only?: string): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const [name, check] of Object.entries(checks)) {
    if (only !== undefined && !name.includes(only)) continue;
    const started = Date.now();
    try {
      await withTimeout(check(host), CHECK_TIMEOUT_MS, name);
      outcomes.push({ name, ok: true, ms: Date.now() - started });
    } catch (error) {
      outcomes.push({ name, ok: false, ms: Date.now() - started, error: describe(error) });
    }
  }
  return outcomes;
}

const checks: Record<string, (host: Host) => Promise<void>> = {
  async 'create and status: the pay button’s call, the return page’s read'(host) {
    const business = await newBusiness(host, 'Runtime Shop');
    await withShop(host, business, {}, async ({ origin }) => {
      const created = await callRoute(origin, 'POST', '/paykit/payment-requests', { reference: 'sku-mug' });
      expectEqual(created.status, 201, 'create: status');
      expectEqual(created.body.status, 'pending', 'create: payment request status');
      expectEqual(created.body.amount, '12.50', 'create: the price the hook decided');
      const id = text(created.body.id, 'create: id');
      const before = await callRoute(origin, 'GET', `/paykit/payment-requests/${id}`);
      expectEqual(before.status, 200, 'status before paying: status');
      expectEqual(before.body.status, 'pending', 'status before paying');
      await sandboxCall(host, 'POST', `/_sandbox/payment-requests/${id}/pay`, { outcome: 'succeeded' });
      const after = await callRoute(origin, 'GET', `/paykit/payment-requests/${id}`);
      expectEqual(after.body.status, 'completed', 'status after paying (confirmed with the API)');
    });
  },

  async 'an API that redirects: refused and never followed, where it pointed logged without its query'(host) {
    const business = await newBusiness(host, 'Runtime Redirect');
    const logger = capturingLogger();
    await withShop(host, business, { logger }, async ({ origin }) => {
      // Two: the call, and the transport's second look without credentials where the runtime refused the
      // redirect itself (redirect: 'error'; workerd answers 'manual' and needs one). Cleared after, either way.
      const fault = { path: '/v1/payment-requests', method: 'POST', kind: 'redirect', times: 2 };
      await sandboxCall(host, 'POST', '/_sandbox/faults', fault);
      try {
        const created = await callRoute(origin, 'POST', '/paykit/payment-requests', { reference: 'sku-mug' });
        expectEqual(
          [created.status, created.body.code],
          [502, 'upstream_error'],
          'the click: answer (the shopper is told no more)',
        );
      } finally {
        await sandboxCall(host, 'DELETE', '/_sandbox/faults');
      }
      const logged = logger.lines.join('\n');
      expectEqual(
        [
          logged.includes('redirect (301, to https://moved.sandbox.invalid/v1/payment-requests)'),
          logged.includes('secret'),
        ],
        [true, false],
        `the log names where the redirect pointed, without its query (logged: ${logged})`,
      );
    });
  },

  async 'webhooks: the notification (form, hmac) and the event (JSON, Hitpay-Signature), acted on once'(host) {
    const business = await newBusiness(host, 'Runtime Webhooks');
    const events: ConfirmedEvent[] = [];
    await withShop(host, business, { onEvent: (event) => void events.push(event) }, async ({ origin }, logger) => {
      await sandboxCall(host, 'POST', '/_sandbox/webhook-endpoints', {
        business_id: business.id,
        url: `${origin}/paykit/webhooks`,
        event_types: ['charge.created', 'payment_request.completed'],
      });
      const created = await callRoute(origin, 'POST', '/paykit/payment-requests', { reference: 'sku-mug' });
      const id = text(created.body.id, 'create: id');
      await sandboxCall(host, 'POST', `/_sandbox/payment-requests/${id}/pay`, { outcome: 'succeeded' });
      // The notification, the charge event and the payment-request event, each answered 2xx by the handler.
      const deliveries = await until(
        async () => {
          const all = (await sandboxCall(host, 'GET', '/_sandbox/webhook-deliveries')) as Delivery[];
          const ours = all.filter((d) => d.business_id === business.id);
          return ours.length >= 3 && ours.every((d) => d.status !== 'pending') ? ours : undefined;
        },
        15_000,
        'the three deliveries to be answered',
      );
      for (const delivery of deliveries) {
        expectEqual(
          `${delivery.format} ${delivery.event}: ${delivery.status} ${delivery.response_status}`,
          `${delivery.format} ${delivery.event}: delivered 200`,
          'a delivery as the handler answered it',
        );
      }
      expectEqual(deliveries.map((d) => d.format).sort(), ['event', 'event', 'notification'], 'the formats delivered');
      await until(() => (events.length >= 1 ? true : undefined), 5_000, 'onEvent for the payment');
      // One payment is one event: the charge of the payment request is the request's payment.
      expectEqual(
        events.map((event) => `${event.type} ${event.fact}`),
        [`payment_request.completed payment_request.completed:${id}`],
        'onEvent: one call for the payment, whichever format or event told it',
      );
      // The same bytes with one changed: the signature no longer matches, nothing is acted on.
      const event = deliveries.find((d) => d.format === 'event')!;
      const forged = await fetch(`${origin}/paykit/webhooks`, {
        method: 'POST',
        headers: event.request.headers,
        body: event.request.body.replace('"SGD"', '"USD"').replace('"sgd"', '"usd"'),
      });
      expectEqual(forged.status, 401, 'a forged event: status');
      expectEqual(((await forged.json()) as Body).code, 'signature_mismatch', 'a forged event: code');
      const form = new URLSearchParams(deliveries.find((d) => d.format === 'notification')!.request.body);
      form.set('hmac', '0'.repeat(64));
      const unsigned = await fetch(`${origin}/paykit/webhooks`, { method: 'POST', body: form });
      expectEqual(unsigned.status, 401, 'a notification with a wrong hmac: status');
      expectEqual(events.length, 1, 'nothing more acted on after the forgeries');
      // The first refusal of a signature is the shop's to hear of, once (the second is counted): webhookSalt named,
      // never the salt itself.
      expectEqual(logger.lines.length, 1, `one log line for the two forgeries (${JSON.stringify(logger.lines)})`);
      expectTrue(
        logger.lines[0]!.startsWith('paykit: signature_mismatch: ') && logger.lines[0]!.includes('webhookSalt'),
        `the line names the refusal and webhookSalt (${logger.lines[0]})`,
      );
      expectTrue(!logger.lines[0]!.includes(business.salt), 'the line does not quote the salt');
      logger.lines.length = 0;
    });
  },

  async 'OAuth: the callback’s code exchange, a call on behalf of the merchant, a refresh'(host) {
    const platformBusiness = await newBusiness(host, 'Runtime Platform', { platform: true });
    const merchant = await newBusiness(host, 'Runtime Merchant');
    const user = (await sandboxCall(host, 'POST', '/_sandbox/users', {
      email: `owner-${merchant.id.slice(0, 8)}@merchant.test`,
      name: 'Owner',
      memberships: [{ business_id: merchant.id, role: 'owner' }],
    })) as { id: string };
    const logger = capturingLogger();
    let handler: PaykitHandler | undefined;
    const served = await host.serve((request) => handler!(request));
    try {
      const origin = served.origin;
      const redirectUri = `${origin}/return`;
      const app = (await sandboxCall(host, 'POST', '/_sandbox/apps', {
        business_id: platformBusiness.id,
        name: 'Runtime Marketplace',
        redirect_uris: [redirectUri],
        scopes: ['payments', 'business:read'],
      })) as { client_id: string; client_secret: string };
      const store = new MemoryConnectionStore();
      const platform = createPlatform({
        apiBaseUrl: host.sandboxUrl,
        platformKey: text(platformBusiness.platform_key, 'the platform key'),
        // The sandbox of the matrix issues 2-second tokens; refreshed from half their life on.
        oauth: {
          clientId: app.client_id,
          clientSecret: app.client_secret,
          redirectUris: [redirectUri],
          refreshAhead: 0.5,
        },
        store,
      });
      handler = createPaykitHandler({
        platform,
        publicOrigin: origin,
        returnUrl: redirectUri,
        createPaymentRequest: () => ({ amount: 20, currency: 'SGD', platform_commission_amount: 1 }),
        logger,
      });
      const verifier = randomVerifier();
      const approval = (await sandboxCall(host, 'POST', '/_sandbox/oauth/approve', {
        user_id: user.id,
        client_id: app.client_id,
        redirect_uri: redirectUri,
        scope: 'payments business:read',
        state: 'runtime-state',
        business_id: merchant.id,
        code_challenge: await s256(verifier),
        code_challenge_method: 'S256',
      })) as { redirect: string };
      const back = new URL(approval.redirect);
      const callback = await callRoute(
        origin,
        'POST',
        '/paykit/oauth/callback',
        {
          code: back.searchParams.get('code'),
          code_verifier: verifier,
          redirect_uri: redirectUri,
          ...(back.searchParams.get('iss') === null ? {} : { iss: back.searchParams.get('iss') }),
        },
        { origin },
      );
      expectEqual(callback.status, 200, `the callback (${JSON.stringify(callback.body)})`);
      expectEqual((callback.body.business as Body | undefined)?.id, merchant.id, 'the connected business');
      const first = await store.get(merchant.id);
      if (first?.kind !== 'oauth') throw new Error(`the store keeps no OAuth connection: ${JSON.stringify(first)}`);

      // The platform's pay route acts for the merchant the page names, with the platform key.
      const created = await callRoute(
        origin,
        'POST',
        '/paykit/payment-requests',
        { merchant: merchant.id },
        { origin },
      );
      expectEqual(created.status, 201, `create on behalf (${JSON.stringify(created.body)})`);
      const id = text(created.body.id, 'create on behalf: id');
      const own = await fetch(`${host.sandboxUrl}/v1/payment-requests/${id}`, {
        headers: { 'x-business-api-key': merchant.api_key },
      });
      expectEqual(own.status, 200, 'the payment request is the merchant’s own (read with its key)');

      // Past half the token's life the next call refreshes first: new access token, rotated refresh token.
      const halfLife = (first.expiresAt - (first.issuedAt ?? Date.now())) / 2;
      await sleep(Math.max(0, first.expiresAt - halfLife - Date.now()) + 150);
      const read = await platform.merchant(merchant.id).getPaymentRequest(id);
      expectEqual(read.id, id, 'a read on behalf after the refresh');
      const second = await store.get(merchant.id);
      if (second?.kind !== 'oauth') throw new Error('the connection is gone after the refresh');
      expectTrue(second.accessToken !== first.accessToken, 'the access token was refreshed');
      expectTrue(second.refreshToken !== first.refreshToken, 'the refresh token was rotated');
      expectEqual(logger.lines, [], 'nothing logged');
    } finally {
      await served.close();
    }
  },

  async 'failure: the API down is 502 api_unreachable, one log line naming its origin and apiBaseUrl'() {
    const logger = capturingLogger();
    // Port 9 (discard), which nothing serves on a test machine (the server tests use it too): the connection is
    // refused at once, as when the API's host is down.
    const handler = createPaykitHandler({
      api: { apiBaseUrl: 'http://127.0.0.1:9', apiKey: 'sandbox_api_key_unreachable', timeoutMs: 5_000 },
      createPaymentRequest: () => ({ amount: 5, currency: 'SGD' }),
      logger,
    });
    const answer = await handlerCall(handler, 'POST', '/paykit/payment-requests', { reference: 'sku-mug' });
    expectEqual(`${answer.status} ${String(answer.body.code)}`, '502 api_unreachable', 'the answer');
    expectEqual(logger.lines.length, 1, `one log line (${JSON.stringify(logger.lines)})`);
    expectTrue(
      logger.lines[0]!.includes('could not be reached at http://127.0.0.1:9') &&
        logger.lines[0]!.includes('apiBaseUrl'),
      `the log line names the origin and the setting (${JSON.stringify(logger.lines)})`,
    );
  },

  async 'failure: an API slower than timeoutMs is 504 timeout'(host) {
    const business = await newBusiness(host, 'Runtime Slow');
    await sandboxCall(host, 'POST', '/_sandbox/faults', {
      path: '/v1/payment-requests',
      method: 'POST',
      kind: 'timeout',
      delay_ms: 3_000,
    });
    try {
      const handler = createPaykitHandler({
        api: { apiBaseUrl: host.sandboxUrl, apiKey: business.api_key, timeoutMs: 300 },
        createPaymentRequest: () => ({ amount: 5, currency: 'SGD' }),
        logger: capturingLogger(),
      });
      const started = Date.now();
      const answer = await handlerCall(handler, 'POST', '/paykit/payment-requests', {});
      expectEqual(`${answer.status} ${String(answer.body.code)}`, '504 timeout', 'the answer');
      expectTrue(
        Date.now() - started < 2_500,
        `answered at the time limit, not the API's pace (${Date.now() - started} ms)`,
      );
    } finally {
      await sandboxCall(host, 'DELETE', '/_sandbox/faults');
    }
  },

  async 'failure: a refused API key is 502 api_key_refused, one log line naming apiKey, never the key'(host) {
    const logger = capturingLogger();
    const handler = createPaykitHandler({
      api: { apiBaseUrl: host.sandboxUrl, apiKey: 'sandbox_api_key_that_was_revoked' },
      createPaymentRequest: () => ({ amount: 5, currency: 'SGD' }),
      logger,
    });
    const answer = await handlerCall(handler, 'POST', '/paykit/payment-requests', {});
    expectEqual(`${answer.status} ${String(answer.body.code)}`, '502 api_key_refused', 'the answer');
    expectTrue(!JSON.stringify(answer.body).includes('unauthorized'), 'the browser is not told of the 401');
    expectEqual(logger.lines.length, 1, `one log line (${JSON.stringify(logger.lines)})`);
    expectTrue(
      /refused the API key \(401 to POST \/v1\/payment-requests\)\. Check apiKey/.test(logger.lines[0]!),
      `the log line says the 401 and the setting (${JSON.stringify(logger.lines)})`,
    );
    expectTrue(!logger.lines[0]!.includes('that_was_revoked'), 'the log line does not quote the key');
  },

  async 'PostgreSQL stores (pg): idempotency and webhook facts in the database, accepted in production'(host) {
    const { createPostgresStores } = await import('@paykit/server/postgres');
    const business = await newBusiness(host, 'Runtime PostgreSQL');
    const prefix = `paykit_rt${randomVerifier()
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 10)}_`;
    const open = () =>
      createPostgresStores({ connectionString: host.databaseUrl, encryptionKey: '7'.repeat(64), tablePrefix: prefix });
    const events: ConfirmedEvent[] = [];
    const logger = capturingLogger();
    let handler: ((request: Request) => Promise<Response>) | undefined;
    const served = await host.serve((request) => handler!(request));
    const options: PaykitHandlerOptions = {
      api: { apiBaseUrl: host.sandboxUrl, apiKey: business.api_key },
      publicOrigin: served.origin,
      returnUrl: `${served.origin}/return`,
      webhookUrl: `${served.origin}/paykit/webhooks`,
      webhookSalt: business.salt,
      createPaymentRequest: () => ({ amount: 7, currency: 'SGD' }),
      onEvent: (event) => void events.push(event),
      logger,
    };
    const env = processEnv();
    const before = env.NODE_ENV;
    // In production: with every store shared, neither the refusal (Workers) nor the warning (servers) comes.
    env.NODE_ENV = 'production';
    let perProcess: Awaited<ReturnType<typeof open>> | undefined;
    try {
      if (host.postgresStores === 'per-process') {
        perProcess = await open();
        handler = createPaykitHandler({
          ...options,
          eventStore: perProcess.events,
          idempotencyStore: perProcess.idempotency,
        });
      } else {
        handler = async (request) => {
          const stores = await open();
          try {
            return await createPaykitHandler({
              ...options,
              eventStore: stores.events,
              idempotencyStore: stores.idempotency,
            })(request);
          } finally {
            await stores.close();
          }
        };
      }
      const origin = served.origin;
      const key = { 'idempotency-key': `runtime-${prefix}` };
      const created = await callRoute(origin, 'POST', '/paykit/payment-requests', { reference: 'pg' }, key);
      expectEqual(created.status, 201, `create (${JSON.stringify(created.body)})`);
      const again = await callRoute(origin, 'POST', '/paykit/payment-requests', { reference: 'pg' }, key);
      expectEqual(
        again.body.id,
        created.body.id,
        'the same Idempotency-Key: the same payment request, from the database',
      );
      const id = text(created.body.id, 'create: id');
      await sandboxCall(host, 'POST', '/_sandbox/webhook-endpoints', {
        business_id: business.id,
        url: `${origin}/paykit/webhooks`,
        event_types: ['payment_request.completed'],
      });
      await sandboxCall(host, 'POST', `/_sandbox/payment-requests/${id}/pay`, { outcome: 'succeeded' });
      const deliveries = await until(
        async () => {
          const all = (await sandboxCall(host, 'GET', '/_sandbox/webhook-deliveries')) as Delivery[];
          const ours = all.filter((d) => d.business_id === business.id);
          return ours.length >= 2 && ours.every((d) => d.status !== 'pending') ? ours : undefined;
        },
        15_000,
        'the two deliveries to be answered',
      );
      expectEqual(
        deliveries.map((d) => `${d.format} ${d.status} ${d.response_status}`).sort(),
        ['event delivered 200', 'notification delivered 200'],
        'both formats, answered 200',
      );
      expectEqual(
        events.map((event) => event.type),
        ['payment_request.completed'],
        'acted on once: the fact claimed in the database',
      );
      expectEqual(logger.lines, [], 'nothing logged (no refusal, no warning, no store error)');
    } finally {
      if (before === undefined) delete env.NODE_ENV;
      else env.NODE_ENV = before;
      await served.close();
      await perProcess?.close();
    }
  },

  async 'memory stores in production: refused on Workers, a warning elsewhere'(host) {
    const env = processEnv();
    const before = env.NODE_ENV;
    env.NODE_ENV = 'production';
    try {
      const logger = capturingLogger();
      let refusal: unknown;
      try {
        createPaykitHandler({
          api: { apiBaseUrl: host.sandboxUrl, apiKey: 'sandbox_api_key_production_check' },
          createPaymentRequest: () => ({ amount: 5, currency: 'SGD' }),
          webhookSalt: 'a-salt-for-the-production-check',
          logger,
        });
      } catch (error) {
        refusal = error;
      }
      if (host.memoryStoresInProduction === 'refused') {
        if (!isPaykitError(refusal, 'validation_failed')) throw new Error(`not refused: ${describe(refusal)}`);
        for (const words of ['Cloudflare Workers', 'own memory', 'createPostgresStores', 'eventStore']) {
          expectTrue(refusal.message.includes(words), `the refusal says "${words}": ${refusal.message}`);
        }
      } else {
        // An event store in memory is refused on a server too: it would act on nothing paid before a restart.
        if (!isPaykitError(refusal, 'validation_failed')) throw new Error(`not refused: ${describe(refusal)}`);
        for (const words of ['eventStore', 'createPostgresStores', 'FileEventStore', 'singleProcess: true']) {
          expectTrue(refusal.message.includes(words), `the refusal says "${words}": ${refusal.message}`);
        }
        // A shared event store of the shop's own: created, and what else is in memory is a warning.
        createPaykitHandler({
          api: { apiBaseUrl: host.sandboxUrl, apiKey: 'sandbox_api_key_production_check' },
          createPaymentRequest: () => ({ amount: 5, currency: 'SGD' }),
          webhookSalt: 'a-salt-for-the-production-check',
          eventStore: { claim: () => true, complete: () => {}, release: () => {}, remembersFrom: () => 0 },
          logger,
        });
        // Said once per process: an earlier check may already have said it (none runs in production).
        expectTrue(
          logger.lines.some((line) => line.includes('createPostgresStores') && line.includes('idempotency keys')),
          `the warning (${JSON.stringify(logger.lines)})`,
        );
      }
    } finally {
      if (before === undefined) delete env.NODE_ENV;
      else env.NODE_ENV = before;
    }
  },
};

/** One delivery as `GET /_sandbox/webhook-deliveries` lists it (the fields read here). */
interface Delivery {
  format: 'event' | 'notification';
  event: string;
  business_id: string;
  status: 'pending' | 'delivered' | 'failed';
  response_status: number | null;
  request: { headers: Record<string, string>; body: string };
}

type Body = Record<string, unknown>;

/** A shop's handler on the sandbox for `business`, served by the runtime for the length of `body`. */
async function withShop(
  host: Host,
  business: SandboxBusiness,
  options: Partial<PaykitHandlerOptions>,
  body: (served: Served, logger: Logger & { lines: string[] }) => Promise<void>,
): Promise<void> {
  const logger = capturingLogger();
  let handler: PaykitHandler | undefined;
  const served = await host.serve((request) => handler!(request));
  try {
    handler = createPaykitHandler({
      api: { apiBaseUrl: host.sandboxUrl, apiKey: business.api_key },
      publicOrigin: served.origin,
      returnUrl: `${served.origin}/return`,
      webhookUrl: `${served.origin}/paykit/webhooks`,
      webhookSalt: business.salt,
      createPaymentRequest: (choice) => {
        if (choice.reference !== 'sku-mug') throw new Error(`no such product: ${choice.reference}`);
        return { amount: 12.5, currency: 'SGD', purpose: 'A mug' };
      },
      logger,
      ...options,
    });
    await body(served, logger);
    expectEqual(logger.lines, [], 'nothing logged by the shop’s handler');
  } finally {
    await served.close();
  }
}

/** Calls a route over HTTP, as a page of `origin` would (its `Origin` header). */
async function callRoute(
  origin: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Body }> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), origin, ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Body };
}

/** Calls a handler directly, without serving it (the failure checks need no inbound HTTP). */
async function handlerCall(
  handler: PaykitHandler,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Body }> {
  const response = await handler(
    new Request(`http://127.0.0.1${path}`, {
      method,
      ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    }),
  );
  return { status: response.status, body: (await response.json()) as Body };
}

/** A control call to the sandbox; throws naming the call when it is refused. */
async function sandboxCall(host: Host, method: string, path: string, json?: unknown): Promise<unknown> {
  const response = await fetch(`${host.sandboxUrl}${path}`, {
    method,
    ...(json === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`the sandbox refused ${method} ${path}: ${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

async function newBusiness(host: Host, name: string, extra: Body = {}): Promise<SandboxBusiness> {
  return (await sandboxCall(host, 'POST', '/_sandbox/businesses', {
    name,
    country: 'SG',
    currency: 'SGD',
    ...extra,
  })) as SandboxBusiness;
}

/** `process.env`, where the checks set `NODE_ENV` (every runtime of the matrix has it; Workers with nodejs_compat). */
function processEnv(): Record<string, string | undefined> {
  const env = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env;
  if (env === undefined) throw new Error('this runtime has no process.env to set NODE_ENV in');
  return env;
}

function capturingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (message: string, detail?: unknown) =>
    void lines.push(detail === undefined ? message : `${message} ${String(detail)}`);
  return { lines, warn: keep, error: keep };
}

/** A PKCE verifier (RFC 7636 4.1): 43 characters of the unreserved set. */
function randomVerifier(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

async function s256(verifier: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, ms: number, what: string): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`waited ${ms} ms for ${what}`);
    await sleep(50);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`"${what}" did not finish within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

function expectEqual(actual: unknown, expected: unknown, what: string): void {
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}

function expectTrue(condition: boolean, what: string): void {
  if (!condition) throw new Error(what);
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '')
    throw new Error(`${what}: expected text, got ${JSON.stringify(value)}`);
  return value;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
