/**
 * Exactly once, for the life of an order: what a careless integrator and an attacker tried (issue 33), each at the
 * level a shop meets it, the handler over HTTP against the sandbox.
 * - a return link reloaded after the store forgot the fact, or on a handler started afresh, acts on nothing;
 * - one payment told by every path (notification, `payment_request.completed`, `charge.created`, the return,
 *   reconcile) is one event;
 * - the hook is told which order it is from the request itself, not from whoever asked;
 * - reconcile in a process of its own refuses a store in memory, and never prints what the API echoed of a key.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { listenOnLoopback } from '@paykit/test-support/loopback';
import { call, submitPageForm } from '@paykit/test-support/sandbox-calls';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toNodeListener } from '../adapters/node.js';
import { createPaykitHandler, type PaykitHandler } from '../handler/create-handler.js';
import { MemoryEventStore, type EventStore } from '../handler/event-store.js';
import { FileEventStore } from '../handler/file-event-store.js';
import type { ConfirmedEvent, EventContext, PaykitHandlerOptions } from '../handler/options.js';

let sandbox: RunningSandbox;
let shop: { url: string; server: Server };
let handler: PaykitHandler;
let seen: { event: ConfirmedEvent; context: EventContext; cookie: string | null }[];
let logged: string[];
let dir: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [], timeoutMs: 2_000 } });
  const server = createServer((req, res) => toNodeListener(handler)(req, res));
  shop = { url: await listenOnLoopback(server), server };
});
afterAll(async () => {
  shop.server.closeAllConnections();
  shop.server.close();
  await sandbox.close();
});
beforeEach(async () => {
  await call(sandbox, 'POST', '/_sandbox/reset');
  seen = [];
  logged = [];
  dir = await mkdtemp(join(tmpdir(), 'paykit-once-'));
  handler = handlerWith(new MemoryEventStore());
});
afterEach(async () => {
  await sandbox.context.webhooks.idle();
  await rm(dir, { recursive: true, force: true });
});

function handlerWith(eventStore: EventStore | undefined, more: Partial<PaykitHandlerOptions> = {}): PaykitHandler {
  return createPaykitHandler({
    api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
    createPaymentRequest: (choice) => ({
      amount: '12.50',
      currency: 'SGD',
      reference_number: `order-${choice.reference ?? 'none'}`,
    }),
    returnUrl: `${shop.url}/thanks`,
    webhookUrl: `${shop.url}/paykit/webhooks`,
    webhookSalt: sandbox.seed.salt,
    eventStore,
    logger: { warn: (m) => void logged.push(m), error: (m, d) => void logged.push(`${m} ${String(d)}`) },
    onEvent: (event, context) => {
      seen.push({ event, context, cookie: context.request?.headers.get('cookie') ?? null });
    },
    ...more,
  });
}

/** A pay click on the shop: the handler creates the payment request from the shopper's choice. */
async function click(reference: string, cookie = 'session=payer'): Promise<string> {
  const answer = await fetch(`${shop.url}/paykit/payment-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: shop.url, cookie },
    body: JSON.stringify({ reference, email: `${reference}@shopper.test`, metadata: { size: 'M', gift: true } }),
  });
  expect(answer.status).toBe(201);
  return ((await answer.json()) as { id: string }).id;
}

/** The shopper pays on the sandbox's checkout; the deliveries it sends are awaited. */
async function pay(id: string, outcome: 'succeeded' | 'failed' = 'succeeded'): Promise<void> {
  const paid = await call(sandbox, 'POST', `/_sandbox/payment-requests/${id}/pay`, { json: { outcome } });
  expect(paid.status).toBe(200);
  await sandbox.context.webhooks.idle();
}

/** The return page asking for the status (a reload, a bookmark, a restored tab). */
async function returns(id: string, cookie = 'session=payer') {
  const answer = await fetch(`${shop.url}/paykit/payment-requests/${id}`, { headers: { cookie } });
  return { status: answer.status, body: (await answer.json()) as Record<string, unknown> };
}

const paidEvents = () => seen.filter(({ event }) => event.type === 'payment_request.completed');

describe('a return link reloaded after the store forgot the fact', () => {
  it('acts once: a MemoryEventStore(3) that forgot it, after three other orders, does not act again', async () => {
    handler = handlerWith(new MemoryEventStore(3), { webhookUrl: undefined });
    const id = await click('first');
    await pay(id);
    expect(await returns(id)).toMatchObject({ status: 200, body: { status: 'completed' } });
    expect(paidEvents()).toHaveLength(1);
    for (const other of ['second', 'third', 'fourth']) {
      const otherId = await click(other);
      await pay(otherId);
      await returns(otherId);
    }
    expect(paidEvents()).toHaveLength(4);
    // The first fact is forgotten by now; the shopper reloads the old return link.
    expect(await returns(id)).toMatchObject({ status: 200, body: { id, status: 'completed' } });
    expect(paidEvents().map(({ event }) => 'paymentRequest' in event && event.paymentRequest.id)).toHaveLength(4);
    expect(logged.join('\n')).toMatch(
      new RegExp(`payment_request\\.completed:${id} \\(learnt by return\\).*before the event store remembers`),
    );
    // Reloaded again: still nothing, and said once.
    await returns(id);
    expect(paidEvents()).toHaveLength(4);
    expect(logged.filter((line) => line.includes(`completed:${id} (learnt`))).toHaveLength(1);
  });

  it('acts on nothing paid before a handler started on a fresh default store (a restart, a second process)', async () => {
    handler = handlerWith(new MemoryEventStore(), { webhookUrl: undefined });
    const id = await click('before-restart');
    await pay(id);
    expect(await returns(id)).toMatchObject({ status: 200 });
    expect(paidEvents()).toHaveLength(1);
    // Restarted: the default store knows nothing, and remembers only from now.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    handler = handlerWith(undefined, { webhookUrl: undefined });
    expect(await returns(id)).toMatchObject({ status: 200, body: { status: 'completed' } });
    expect(paidEvents()).toHaveLength(1);
    // A payment made after the start is acted on as before.
    const after = await click('after-restart');
    await pay(after);
    await returns(after);
    expect(paidEvents()).toHaveLength(2);
  });

  it('answers a late webhook of a payment from before the store 200 (the service stops) and acts on nothing', async () => {
    handler = handlerWith(new MemoryEventStore(), { webhookUrl: 'http://127.0.0.1:9/lost' });
    const id = await click('late');
    await pay(id);
    const [lost] = sandbox.context.webhooks.deliveries.filter((d) => d.request.body.includes(id));
    expect(lost?.status).toBe('failed');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    handler = handlerWith(new MemoryEventStore());
    const late = await fetch(`${shop.url}/paykit/webhooks`, { method: 'POST', ...lost!.request });
    expect({ status: late.status, body: await late.json() }).toEqual({
      status: 200,
      body: { received: true, outsideRetention: true },
    });
    expect(seen).toEqual([]);
  });

  it('keeps acting on return links within a durable store, across a restart of the process', async () => {
    const path = join(dir, 'facts.jsonl');
    handler = handlerWith(new FileEventStore({ path }), { webhookUrl: undefined });
    const id = await click('durable');
    await pay(id);
    await returns(id);
    handler = handlerWith(new FileEventStore({ path }), { webhookUrl: undefined });
    await returns(id);
    expect(paidEvents()).toHaveLength(1);
    // A payment the store never saw, made after the store was created, is still acted on by a new process.
    const unseen = await click('unseen');
    await pay(unseen);
    handler = handlerWith(new FileEventStore({ path }), { webhookUrl: undefined });
    await returns(unseen);
    expect(paidEvents()).toHaveLength(2);
    expect(logged.filter((line) => line.includes('before the event store remembers'))).toEqual([]);
  });
});

describe('one payment, every path', () => {
  it('is one paid event, whichever events the business registered and whatever order they come in', async () => {
    await call(sandbox, 'POST', '/v1/webhook-events', {
      json: {
        name: 'shop',
        url: `${shop.url}/paykit/webhooks`,
        event_types: ['charge.created', 'payment_request.completed'],
      },
    });
    const id = await click('every-path');
    await pay(id);
    const deliveries = sandbox.context.webhooks.deliveries.filter((d) => d.request.body.includes(id));
    expect(deliveries.map((d) => [d.format, d.event, d.status]).sort()).toEqual([
      ['event', 'charge.created', 'delivered'],
      ['event', 'payment_request.completed', 'delivered'],
      ['notification', 'payment_request.completed', 'delivered'],
    ]);
    // Each delivered again, in two shapes; the return; a reconcile sweep.
    for (const delivery of deliveries.reverse()) {
      const again = await fetch(`${shop.url}/paykit/webhooks`, { method: 'POST', ...delivery.request });
      expect(await again.json()).toEqual({ received: true, duplicate: true });
    }
    await returns(id);
    expect(await handler.reconcile({ since: Date.now() - 60_000 })).toMatchObject({ acted: 0, alreadyRecorded: 1 });
    expect(seen.map(({ event }) => [event.type, event.fact])).toEqual([
      ['payment_request.completed', `payment_request.completed:${id}`],
    ]);
  });

  it('leaves a charge of a saved card (no payment request) a charge fact of its own', async () => {
    await call(sandbox, 'POST', '/v1/webhook-events', {
      json: { name: 'shop', url: `${shop.url}/paykit/webhooks`, event_types: ['charge.created'] },
    });
    const record = await call(sandbox, 'POST', '/v1/recurring-billing', {
      form: new URLSearchParams({
        save_card: 'true',
        name: 'Card on file',
        amount: '9.90',
        customer_email: 'saved@shopper.test',
      }),
    });
    expect(record.status).toBe(200);
    const { id: recordId, url } = record.body as { id: string; url: string };
    await submitPageForm(url, 'card_number=4242424242424242&outcome=save');
    const charged = await call(sandbox, 'POST', `/v1/charge/recurring-billing/${recordId}`, {
      json: { amount: 9.9, currency: 'sgd' },
    });
    expect(charged.status).toBe(200);
    await sandbox.context.webhooks.idle();
    expect(seen).toHaveLength(1);
    const [{ event }] = seen as [(typeof seen)[number]];
    expect(event.type).toBe('charge.created');
    if (event.type !== 'charge.created') throw new Error(`not a charge event: ${event.type}`);
    expect(event.charge.payment_request_id ?? null).toBeNull();
    expect(event.fact).toBe(`charge.created:${event.charge.id}`);
  });
});

describe('which order a fact is about', () => {
  it('is told from the request itself on every path, never from whoever asked first', async () => {
    handler = handlerWith(new MemoryEventStore(), { webhookUrl: undefined });
    const id = await click('cart-42', 'session=payer');
    await pay(id);
    // Someone else learnt the reference and asks before the payer does.
    await returns(id, 'session=stranger');
    expect(seen).toHaveLength(1);
    const [{ context, cookie }] = seen as [(typeof seen)[number]];
    expect(cookie).toBe('session=stranger');
    expect(context.createdFrom).toEqual({
      referenceNumber: 'order-cart-42',
      choice: { reference: 'cart-42', email: 'cart-42@shopper.test', metadata: { size: 'M', gift: true } },
    });
  });

  it('is told the same on a webhook and on a reconcile sweep', async () => {
    const id = await click('cart-43');
    await pay(id);
    const fromWebhook = seen.find(({ event }) => event.source === 'webhook');
    expect(fromWebhook?.context.createdFrom?.choice?.reference).toBe('cart-43');
    // A request made without a webhook: only the sweep learns that it was paid.
    handler = handlerWith(new MemoryEventStore(), { webhookUrl: undefined });
    const other = await click('cart-44');
    const swept = seen.length;
    await pay(other);
    await handler.reconcile({ since: Date.now() - 60_000 });
    const fromSweep = seen
      .slice(swept)
      .find(
        ({ event }) => event.source === 'reconcile' && 'paymentRequest' in event && event.paymentRequest.id === other,
      );
    expect(fromSweep?.context).toMatchObject({
      request: undefined,
      createdFrom: { referenceNumber: 'order-cart-44', choice: { reference: 'cart-44' } },
    });
  });
});

describe('paykit reconcile, in a process of its own', () => {
  const run = promisify(execFile);
  const cli = new URL('../cli/paykit.ts', import.meta.url).pathname;
  const server = new URL('../index.ts', import.meta.url).pathname;
  const files = new URL('../files.ts', import.meta.url).pathname;

  async function command(args: string[]) {
    return run(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: process.cwd() }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
  }

  async function moduleWith(name: string, storeLine: string, apiBaseUrl = sandbox.url, apiKey = sandbox.seed.apiKey) {
    const module = join(dir, name);
    await writeFile(
      module,
      `import { createPaykitHandler } from ${JSON.stringify(server)};
import { FileEventStore } from ${JSON.stringify(files)};
void FileEventStore;
export default createPaykitHandler({
  api: { apiBaseUrl: ${JSON.stringify(apiBaseUrl)}, apiKey: ${JSON.stringify(apiKey)} },
  createPaymentRequest: () => ({ amount: '1.00', currency: 'SGD' }),
  ${storeLine}
  onEvent: () => {},
});
`,
    );
    return module;
  }

  it('refuses a handler whose event store lives in memory, naming the stores to use, and acts on nothing', async () => {
    handler = handlerWith(new MemoryEventStore(), { webhookUrl: undefined });
    const id = await click('cron');
    await pay(id);
    for (const [name, line] of [
      ['default.mjs', ''],
      ['memory.mjs', `eventStore: new (await import(${JSON.stringify(server)})).MemoryEventStore(),`],
    ] as const) {
      const refused = await command(['reconcile', '--handler', await moduleWith(name, line), '--since', '1h']);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/event store lives in memory/);
      expect(refused.stderr).toMatch(/FileEventStore/);
      expect(refused.stderr).toMatch(/createPostgresStores/);
    }
  });

  it('counts what happened before its store remembers as outsideRetention, not acted', async () => {
    handler = handlerWith(new MemoryEventStore(), { webhookUrl: undefined });
    const id = await click('before-store');
    await pay(id);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const module = await moduleWith(
      'file.mjs',
      `eventStore: new FileEventStore({ path: ${JSON.stringify(join(dir, 'f.jsonl'))} }),`,
    );
    const swept = await command(['reconcile', '--handler', module, '--since', '1h', '--json']);
    expect(swept.code).toBe(0);
    expect(JSON.parse(swept.stdout)).toMatchObject({ seen: 1, acted: 0, outsideRetention: 1, complete: true });
    const human = await command(['reconcile', '--handler', module, '--since', '1h']);
    expect(human.stdout).toMatch(/1 before the event store remembers \(not acted on/);
  });

  it('never prints a key the API echoes in its error, in the report, the text or the JSON', async () => {
    const canary = 'sk_live_CANARY_4f9c1e7a2b';
    const echo = createServer((req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `Invalid key ${String(req.headers['x-business-api-key'])}` }));
    });
    const url = await listenOnLoopback(echo);
    try {
      const store = `eventStore: new FileEventStore({ path: ${JSON.stringify(join(dir, 'c.jsonl'))} }),`;
      const module = await moduleWith('canary.mjs', store, url, canary);
      for (const args of [['--json'], []]) {
        const swept = await command(['reconcile', '--handler', module, '--since', '1h', ...args]);
        expect(swept.code).toBe(2);
        expect(`${swept.stdout}${swept.stderr}`).not.toContain(canary);
        expect(swept.stdout).toMatch(/redacted|api_key_refused/);
      }
      const inProcess = createPaykitHandler({
        api: { apiBaseUrl: url, apiKey: canary },
        createPaymentRequest: () => ({ amount: '1.00', currency: 'SGD' }),
        logger: { warn: () => {}, error: () => {} },
      });
      const report = await inProcess.reconcile({ since: Date.now() - 60_000 });
      expect(report.errors).toHaveLength(1);
      expect(JSON.stringify(report)).not.toContain(canary);
    } finally {
      echo.closeAllConnections();
      echo.close();
    }
  });
});
