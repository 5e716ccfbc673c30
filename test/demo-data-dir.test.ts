/**
 * `startDemo({ dataDir })` (what `pnpm demo` does): stopped and started again on the same folder, the demo reuses
 * the platform's app and merchant instead of registering new ones, the sandbox still knows the connection and
 * the payments, the platform still holds the merchant's credentials, and the shop still has its orders and the
 * webhook facts it acted on. No browser: the connection is approved through the sandbox's
 * control API and completed at the platform's callback, as the return page would.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEMO_MERCHANT } from '../demo/platform.js';
import { startDemo, type RunningDemo } from '../demo/start-demo.js';

let dir: string;
const running: RunningDemo[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-demo-data-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((demo) => demo.close()));
  await rm(dir, { recursive: true, force: true });
});

async function start(port = 0): Promise<RunningDemo> {
  const demo = await startDemo({ port, sandboxPort: 0, dataDir: dir });
  running.push(demo);
  return demo;
}

const platformFile = async () => JSON.parse(await readFile(join(dir, 'platform.json'), 'utf8'));

/** Approves the platform's app as the demo merchant's owner and hands the code to the platform's callback. */
async function connectDemoMerchant(demo: RunningDemo): Promise<string> {
  const { oauth } = demo.sandbox.context;
  const { clientId } = await platformFile();
  const owner = oauth.userByEmail(DEMO_MERCHANT.ownerEmail)!;
  const verifier = randomBytes(32).toString('base64url');
  const redirectUri = `${demo.url}/platform/return`;
  const approved = await fetch(`${demo.sandbox.url}/_sandbox/oauth/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      user_id: owner.id,
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'payments business:read',
      business_id: owner.memberships[0]!.businessId,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }),
  });
  const code = new URL(((await approved.json()) as { redirect: string }).redirect).searchParams.get('code');
  const callback = await fetch(`${demo.url}/platform/paykit/oauth/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: demo.url },
    body: JSON.stringify({ code, code_verifier: verifier, redirect_uri: redirectUri }),
  });
  expect(callback.status).toBe(200);
  return owner.memberships[0]!.businessId;
}

describe('the demo with a data folder', () => {
  it('reuses its app and merchant, and keeps the connection, the payments and the orders across a restart', async () => {
    const first = await start();
    const registered = await platformFile();
    expect(registered).toMatchObject({ version: 1, redirectUri: `${first.url}/platform/return`, connected: [] });
    const merchantId = await connectDemoMerchant(first);
    expect(registered.merchantId).toBe(merchantId);
    await vi.waitFor(async () => expect((await platformFile()).connected).toHaveLength(1));

    // A shop order, confirmed by the webhook the sandbox sends when the request is paid.
    const created = await fetch(`${first.sandbox.url}/v1/payment-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-business-api-key': first.sandbox.seed.apiKey },
      body: JSON.stringify({ amount: 12.5, currency: 'SGD', webhook: `${first.url}/paykit/webhooks` }),
    });
    const { id } = (await created.json()) as { id: string };
    await fetch(`${first.sandbox.url}/_sandbox/payment-requests/${id}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'succeeded' }),
    });
    await vi.waitFor(() => expect(first.orders.list().map((o) => o.id)).toEqual([id]), { timeout: 5_000 });
    // The notification as the sandbox signed it, to deliver again after the restart (the delivery log is not kept).
    const notification = first.sandbox.context.webhooks.deliveries.find(
      (d) => d.format === 'notification' && d.request.body.includes(id),
    )!.request;
    const port = Number(new URL(first.url).port);
    await first.close();
    running.splice(0);

    // The same shop port, so the same redirect URI: the app is the sandbox's same app.
    const second = await start(port);
    const reused = await platformFile();
    expect(reused).toMatchObject({
      clientId: registered.clientId,
      clientSecret: registered.clientSecret,
      merchantId: registered.merchantId,
    });
    expect(await second.platform.page()).toContain(`client-id="${registered.clientId}"`);
    const { oauth, state } = second.sandbox.context;
    expect(oauth.apps.size).toBe(1);
    expect([...state.businesses.values()].filter((b) => b.name === DEMO_MERCHANT.name)).toHaveLength(1);
    expect(oauth.connections([merchantId]).map((c) => c.clientId)).toEqual([registered.clientId]);
    expect(state.paymentRequests.get(id)?.status).toBe('completed');
    expect(second.orders.list()).toEqual([
      { id, status: 'completed', amount: '12.50', currency: 'SGD', events: { 'payment_request.completed': 1 } },
    ]);
    // Still connected: the platform kept the merchant's tokens (encrypted) and takes a payment for it.
    expect([...second.platform.connected.keys()]).toEqual([merchantId]);
    expect(await second.platform.page()).toContain(`data-merchant="${merchantId}"`);
    const deposit = await fetch(`${second.url}/platform/paykit/payment-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: second.url },
      body: JSON.stringify({ merchant: merchantId, reference: 'deposit', amount: '20.00', currency: 'SGD' }),
    });
    expect(deposit.status).toBe(201);
    // The webhook history lasted too: the same notification delivered again after the restart is a duplicate (its
    // signature still holds: the Demo Store's salt is the seed's, kept in the data file).
    const again = await fetch(`${second.url}/paykit/webhooks`, { method: 'POST', ...notification });
    expect(await again.json()).toEqual({ received: true, duplicate: true });
    expect(second.orders.list()[0]?.events).toEqual({ 'payment_request.completed': 1 });

    // Stopped, so that no debounced write is half-way (a `.tmp` file beside its target) while the folder is read.
    await second.close();
    running.splice(0);
    const files = ['connections.json', 'connections.key', 'orders.json', 'platform.json', 'sandbox.json'];
    expect((await readdir(dir)).sort()).toEqual([...files, 'webhook-events.jsonl'].sort());
    for (const name of [...files, 'webhook-events.jsonl']) {
      expect((await stat(join(dir, name))).mode & 0o777).toBe(0o600);
    }
    // Credentials are encrypted at rest: no token of the merchant appears in the file.
    const grant = [...oauth.grants.values()].find((g) => g.businessId === merchantId && !g.revoked);
    expect(grant).toBeDefined();
    expect(await readFile(join(dir, 'connections.json'), 'utf8')).not.toMatch(/at_sandbox|rt_sandbox/);
  });

  it('registers a new app when the shop moved to another port (the redirect URI names it)', async () => {
    const first = await start();
    const { clientId } = await platformFile();
    await first.close();
    running.splice(0);
    const second = await start();
    expect((await platformFile()).clientId).not.toBe(clientId);
    expect(second.sandbox.context.oauth.apps.size).toBe(2);
  });

  it('refuses a data file it cannot use, naming it', async () => {
    await writeFile(join(dir, 'platform.json'), '{"version": 7}');
    await expect(startDemo({ port: 0, sandboxPort: 0, dataDir: dir })).rejects.toThrow(
      `The demo data file ${join(dir, 'platform.json')} is not one this demo wrote (version 1). Delete it`,
    );
    await writeFile(join(dir, 'orders.json'), 'nope');
    await expect(startDemo({ port: 0, sandboxPort: 0, dataDir: dir })).rejects.toThrow(
      `The demo data file ${join(dir, 'orders.json')} is not valid JSON`,
    );
  });
});
