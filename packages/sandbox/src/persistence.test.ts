/**
 * `startSandbox({ dataFile })`: a sandbox started again on the same file answers as the first one did (an OAuth
 * connection, a paid payment request, balances, resources, the moved clock), writes come within 200 ms of a
 * change and no more often, atomically and private to the user; a file it cannot use stops the start with a
 * message naming it; and without a data file nothing touches the disk.
 */
import { call, submitPageForm } from '@paykit/test-support/sandbox-calls';
import { createBusiness, createUser, registerApp } from '@paykit/test-support/sandbox-control';
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile, copyFile } from 'node:fs/promises';
import type * as FsPromises from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SandboxDataFileError } from './data-file.js';
import { SNAPSHOT_FORMAT, SNAPSHOT_VERSION } from './persistence.js';
import { startSandbox, type RunningSandbox } from './start.js';

/** Every file the sandbox opens for writing or renames, recorded while passing through to the real calls. */
const disk = vi.hoisted(() => ({ writes: [] as { path: string; at: number }[] }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  return {
    ...real,
    open: (path: string, flags?: string, mode?: number) => {
      if (flags && flags !== 'r') disk.writes.push({ path: String(path), at: Date.now() });
      return real.open(path, flags, mode);
    },
    rename: (from: string, to: string) => {
      disk.writes.push({ path: String(to), at: Date.now() });
      return real.rename(from, to);
    },
  };
});

const REDIRECT = 'https://platform.example/connect/callback';
let dir: string;
let file: string;
const running: RunningSandbox[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'paykit-sandbox-data-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
let n = 0;
beforeEach(() => {
  file = join(dir, `state-${++n}.json`);
});

async function start(dataFile: string | null = file): Promise<RunningSandbox> {
  const sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [] }, ...(dataFile ? { dataFile } : {}) });
  running.push(sandbox);
  return sandbox;
}

const bearer = (token: string) => ({ apiKey: null, headers: { authorization: `Bearer ${token}` } });

/** Sets up what the demo platform does: a merchant, its owner, the platform's app, and a connection by OAuth. */
async function connectMerchant(sandbox: RunningSandbox) {
  const merchant = await createBusiness(sandbox, { name: 'Harbour Cafe' });
  const owner = await createUser(sandbox, { email: 'owner@harbour.test', name: 'Hana', businessId: merchant.id });
  const app = await registerApp(sandbox, {
    name: 'Acme Marketplace',
    redirectUris: [REDIRECT],
    scopes: ['business:read', 'payments'],
  });
  return { merchant, owner, app, ...(await connect(sandbox, app, owner.id, merchant.id)) };
}

/** One approval on the consent page (with PKCE) and its code exchange. */
async function connect(sandbox: RunningSandbox, app: Client, userId: string, businessId: string) {
  const verifier = randomBytes(32).toString('base64url');
  const approved = await call(sandbox, 'POST', '/_sandbox/oauth/approve', {
    json: {
      user_id: userId,
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      scope: 'business:read payments',
      state: 's',
      business_id: businessId,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    },
  });
  expect(approved.status).toBe(200);
  const code = new URL(approved.body.redirect).searchParams.get('code')!;
  const tokens = await token(sandbox, app, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT,
    code_verifier: verifier,
  });
  expect(tokens.status).toBe(200);
  return { code, tokens: tokens.body as { access_token: string; refresh_token: string } };
}

type Client = { client_id: string; client_secret: string };
const token = (sandbox: RunningSandbox, app: Client, form: object) =>
  call(sandbox, 'POST', '/v1/open/oauth/token', {
    apiKey: null,
    form: new URLSearchParams({ client_id: app.client_id, client_secret: app.client_secret, ...form }),
  });

const balance = async (sandbox: RunningSandbox, businessId: string) =>
  (await call(sandbox, 'GET', `/_sandbox/businesses/${businessId}/balance`)).body;

describe('a sandbox started again on the same data file', () => {
  it('keeps the connection, the payments, the balances, the resources and the moved clock', async () => {
    const first = await start();
    const { merchant, owner, app, tokens } = await connectMerchant(first);
    // A second connection, whose code is replayed after the restart.
    const other = await connect(first, app, owner.id, merchant.id);
    // A refresh before the restart: the spent refresh token must stay spent after it.
    const rotated = (await token(first, app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }))
      .body as { access_token: string; refresh_token: string };
    const paid = await call(first, 'POST', '/v1/payment-requests', {
      apiKey: null,
      headers: { authorization: `Bearer ${rotated.access_token}`, 'x-platform-key': first.seed.platformKey },
      json: { amount: 100, currency: 'SGD', purpose: 'Deposit', platform_commission_amount: 5 },
    });
    expect(paid.status).toBe(200);
    await call(first, 'POST', `/_sandbox/payment-requests/${paid.body.id}/pay`, { json: { outcome: 'succeeded' } });
    const pending = await call(first, 'POST', '/v1/payment-requests', {
      apiKey: merchant.api_key,
      json: { amount: 12.5, currency: 'SGD' },
    });
    const terminal = await call(first, 'POST', '/_sandbox/terminals', {
      json: { business_id: merchant.id, name: 'Counter' },
    });
    await call(first, 'POST', '/_sandbox/webhook-endpoints', {
      json: { business_id: merchant.id, url: 'http://127.0.0.1:9/hooks' },
    });
    await call(first, 'POST', '/_sandbox/clock', { json: { advance_seconds: 86_400 } });
    // Not kept: an armed fault would break the first call after the restart.
    await call(first, 'POST', '/_sandbox/faults', { json: { path: '/v1/info', kind: 'status', status: 503 } });
    const before = {
      merchant: await balance(first, merchant.id),
      platform: await balance(first, first.seed.businessId),
      list: (await call(first, 'GET', '/v1/payment-requests', { apiKey: merchant.api_key })).body,
      charges: (await call(first, 'GET', '/v1/charges', { apiKey: merchant.api_key })).body,
    };
    expect(before.merchant.available).toBe('91.10');
    await first.close();

    const second = await start();
    // The connection: the access token reads the merchant's profile; the rotated refresh token refreshes once.
    const info = await call(second, 'GET', '/v1/info', bearer(rotated.access_token));
    expect(info).toMatchObject({ status: 200, body: { id: merchant.id, name: 'Harbour Cafe' } });
    expect((await call(second, 'GET', '/v1/info', bearer(tokens.access_token))).status).toBe(200);
    const refreshed = await token(second, app, { grant_type: 'refresh_token', refresh_token: rotated.refresh_token });
    expect(refreshed.status).toBe(200);
    expect((await call(second, 'GET', '/v1/info', bearer(refreshed.body.access_token))).status).toBe(200);
    const spent = await token(second, app, { grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
    expect(spent).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // A used authorization code is still known as used: replaying it is refused and revokes what it issued.
    expect((await call(second, 'GET', '/v1/info', bearer(other.tokens.access_token))).status).toBe(200);
    const replay = { grant_type: 'authorization_code', code: other.code, redirect_uri: REDIRECT };
    expect(await token(second, app, replay)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await call(second, 'GET', '/v1/info', bearer(other.tokens.access_token))).status).toBe(401);

    // The payments, in the same order, with their status; the charges; the balances.
    const got = await call(second, 'GET', `/v1/payment-requests/${paid.body.id}`, { apiKey: merchant.api_key });
    expect(got.body).toMatchObject({ id: paid.body.id, status: 'completed', amount: '100.00' });
    // The same list, except the checkout URLs, which start with the new sandbox's origin.
    const list = (await call(second, 'GET', '/v1/payment-requests', { apiKey: merchant.api_key })).body;
    expect(JSON.stringify(list).replaceAll(second.url, 'origin')).toBe(
      JSON.stringify(before.list).replaceAll(first.url, 'origin'),
    );
    expect(before.list.data.map((r: { id: string }) => r.id)).toEqual([pending.body.id, paid.body.id]);
    // The charge list's links name the sandbox's origin too.
    const charges = (await call(second, 'GET', '/v1/charges', { apiKey: merchant.api_key })).body;
    expect(JSON.stringify(charges).replaceAll(second.url, 'origin')).toBe(
      JSON.stringify(before.charges).replaceAll(first.url, 'origin'),
    );
    expect(await balance(second, merchant.id)).toEqual(before.merchant);
    expect(await balance(second, second.seed.businessId)).toEqual(before.platform);
    // The webhook endpoint: paying the pending request now notifies it.
    await call(second, 'POST', `/_sandbox/payment-requests/${pending.body.id}/pay`, { json: { outcome: 'failed' } });
    const deliveries = (await call(second, 'GET', '/_sandbox/webhook-deliveries')).body as { url: string }[];
    expect(deliveries.map((d) => d.url)).toContain('http://127.0.0.1:9/hooks');
    // Another resource, the user and the moved clock.
    const terminals = await call(second, 'GET', '/v1/terminals', { apiKey: merchant.api_key });
    expect(JSON.stringify(terminals.body)).toContain(terminal.body.id);
    const again = await call(second, 'POST', '/_sandbox/users', {
      json: { email: 'owner@harbour.test', name: 'Hana', memberships: [] },
    });
    expect(again.status).toBe(409);
    expect(owner.id).toBeTruthy();
    const now = Date.parse((await call(second, 'POST', '/_sandbox/clock', { json: { advance_seconds: 1 } })).body.now);
    expect(now - Date.now()).toBeGreaterThan(86_000_000);
  });

  it("keeps a business's moved clock and its subscription's schedule: the next advance charges only the next cycles", async () => {
    const DAY = 86_400;
    const first = await start();
    const clock = `/_sandbox/businesses/${first.seed.businessId}/clock`;
    const advance = async (sandbox: RunningSandbox, seconds: number) => {
      const answer = await call(sandbox, 'POST', `${clock}/advance`, { json: { seconds } });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const body = answer.body as {
        now: string;
        happened: { at: string; type: string; object_id: string; summary: string }[];
      };
      return { ...body, charges: body.happened.filter((e) => e.type === 'charge.succeeded') };
    };
    const moved = await advance(first, 40 * DAY);
    // A monthly plan of six cycles from tomorrow in Singapore, on the moved clock; its card saved.
    const tomorrow = new Date(Date.parse(moved.now) + 8 * 3_600_000 + DAY * 1000).toISOString().slice(0, 10);
    const made = await call(first, 'POST', '/v1/recurring-billing', {
      json: {
        name: 'Coffee club',
        amount: 9.9,
        cycle: 'monthly',
        customer_email: 'ann@example.test',
        start_date: tomorrow,
        times_to_be_charged: 6,
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    await submitPageForm(made.body.url, 'card_number=4242424242424242&outcome=save');
    // 65 days: the cycles of tomorrow and one and two months on (at most 63 days away), not the fourth (89 or more).
    const before = await advance(first, 65 * DAY);
    expect(before.charges).toHaveLength(3);
    await first.close();

    const second = await start();
    const now = Date.parse((await call(second, 'GET', clock)).body.now);
    expect(now).toBeGreaterThanOrEqual(Date.parse(before.now));
    expect(now - Date.now()).toBeGreaterThan(104 * DAY * 1000);
    const record = `/v1/recurring-billing/${made.body.id}`;
    expect((await call(second, 'GET', record)).body).toMatchObject({ times_charged: 3, status: 'active' });
    // 62 more days reach the fourth and fifth cycles (three and four months on, at most 123 days), not the sixth.
    const after = await advance(second, 62 * DAY);
    expect(after.happened.map((e) => e.type)).toEqual(['charge.succeeded', 'charge.succeeded']);
    expect(after.happened.map((e) => e.summary)).toEqual([
      `recurring billing ${made.body.id}, cycle 4 of 6: SGD 9.90 charged`,
      `recurring billing ${made.body.id}, cycle 5 of 6: SGD 9.90 charged`,
    ]);
    expect(after.charges.every((c) => Date.parse(c.at) > Date.parse(before.now))).toBe(true);
    const ids = [...before.charges, ...after.charges].map((c) => c.object_id);
    expect(new Set(ids).size).toBe(5);
    expect((await call(second, 'GET', record)).body).toMatchObject({ times_charged: 5, total_charge: 49.5 });
    const charges = (await call(second, 'GET', '/v1/charges')).body.data as { id: string }[];
    expect(charges.map((c) => c.id).sort()).toEqual([...ids].sort());
  });

  it("keeps a payment request's documented extras and a saved card's charge with its record", async () => {
    const first = await start();
    const extras = {
      name: 'Ann Lee',
      phone: '+6591234567',
      reference_number: 'ORDER-7',
      send_email: true,
      expiry_date: '2030-05-26 15:10:00',
      metadata: { cart: '42' },
    };
    const created = await call(first, 'POST', '/v1/payment-requests', {
      json: { amount: 20, currency: 'SGD', ...extras },
    });
    expect(created.body).toMatchObject({ name: 'Ann Lee', reference_number: 'ORDER-7', send_email: true });
    const card = await call(first, 'POST', '/v1/recurring-billing', {
      json: { customer_email: 'ann@example.test', save_card: true, name: 'Card on file', amount: 5 },
    });
    await submitPageForm(card.body.url, 'card_number=4242424242424242&outcome=save');
    const charged = await call(first, 'POST', `/v1/charge/recurring-billing/${card.body.id}`, {
      json: { amount: 5, currency: 'SGD' },
    });
    expect(charged.status).toBe(200);
    const before = {
      request: (await call(first, 'GET', `/v1/payment-requests/${created.body.id}`)).body,
      charge: (await call(first, 'GET', `/v1/charges/${charged.body.payment_id}`)).body,
    };
    expect(before.charge).toMatchObject({ payment_request_id: null, recurring_billing_id: card.body.id });
    await first.close();

    const second = await start();
    const request = (await call(second, 'GET', `/v1/payment-requests/${created.body.id}`)).body;
    expect(JSON.stringify(request).replaceAll(second.url, 'origin')).toBe(
      JSON.stringify(before.request).replaceAll(first.url, 'origin'),
    );
    expect(request).toMatchObject({ ...extras, expiry_date: '2030-05-26T15:10:00', send_sms: false });
    // A charge's logo URLs are on the sandbox's origin, which a restart on port 0 changes.
    const charge = (await call(second, 'GET', `/v1/charges/${charged.body.payment_id}`)).body;
    expect(JSON.stringify(charge).replaceAll(second.url, 'origin')).toBe(
      JSON.stringify(before.charge).replaceAll(first.url, 'origin'),
    );
  });

  it('reads a file written before payment requests kept their extras and charges their saved card', async () => {
    await (await start()).close();
    const saved = JSON.parse(await readFile(file, 'utf8'));
    const now = new Date().toISOString();
    saved.state.paymentRequests.push({
      id: 'old-request',
      businessId: saved.state.businesses[0].id,
      amountMinor: 1250,
      currency: 'sgd',
      email: null,
      purpose: null,
      redirectUrl: null,
      webhook: null,
      paymentMethods: ['card'],
      wifiTerminalId: null,
      allowRepeatedPayments: false,
      saveCard: false,
      platformCommissionMinor: null,
      platformBusinessId: null,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
    });
    await writeFile(file, JSON.stringify(saved));
    const second = await start();
    expect((await call(second, 'GET', '/v1/payment-requests/old-request')).body).toMatchObject({
      id: 'old-request',
      amount: '12.50',
      name: null,
      send_email: false,
    });
  });

  it("keeps a charge's payer, card, reference and refunds, and reads them from an older file that lacks them", async () => {
    const first = await start();
    const paid = await call(first, 'POST', '/v1/payment-requests', {
      json: { amount: 40, currency: 'SGD', email: 'ann@example.test', name: 'Ann Lee', reference_number: 'ORDER-8' },
    });
    await call(first, 'POST', `/_sandbox/payment-requests/${paid.body.id}/pay`, {
      json: { outcome: 'succeeded', payment_method: 'card' },
    });
    const chargeId = (await call(first, 'GET', '/v1/charges')).body.data[0].id as string;
    expect((await call(first, 'POST', '/v1/refunds', { json: { payment_id: chargeId, amount: 15 } })).status).toBe(200);
    const card = await call(first, 'POST', '/v1/recurring-billing', {
      json: { customer_email: 'bo@example.test', customer_name: 'Bo Tan', save_card: true, name: 'Card', amount: 5 },
    });
    await submitPageForm(card.body.url, 'card_number=5555555555554444&outcome=save');
    const charged = await call(first, 'POST', `/v1/charge/recurring-billing/${card.body.id}`, {
      json: { amount: 5, currency: 'SGD' },
    });
    // A word for any sandbox origin: logo URLs carry the running sandbox's, which a restart on port 0 changes.
    const read = async (sandbox: RunningSandbox) =>
      JSON.parse(JSON.stringify(await readRaw(sandbox)).replace(/http:\/\/127\.0\.0\.1:\d+/g, 'origin')) as Awaited<
        ReturnType<typeof readRaw>
      >;
    const readRaw = async (sandbox: RunningSandbox) => ({
      paid: (await call(sandbox, 'GET', `/v1/charges/${chargeId}`)).body,
      saved: (await call(sandbox, 'GET', `/v1/charges/${charged.body.payment_id}`)).body,
      record: (await call(sandbox, 'GET', `/v1/recurring-billing/${card.body.id}`)).body,
    });
    const before = await read(first);
    expect(before.paid).toMatchObject({
      status: 'partially_refunded',
      refunded_amount: 15,
      customer: { name: 'Ann Lee', email: 'ann@example.test' },
      order_reference_number: 'ORDER-8',
      payment_method: { code: 'card', data: { brand: 'Visa', last4: '4242' } },
    });
    expect(before.paid.updated_at).not.toBeNull();
    expect(before.saved).toMatchObject({ payment_method: { data: { brand: 'Mastercard', last4: '4444' } } });
    await first.close();

    // Kept as they were.
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved.state.charges[0]).toMatchObject({ orderReferenceNumber: 'ORDER-8', refunds: [{ amountMinor: 1500 }] });
    const second = await start();
    expect(await read(second)).toEqual(before);
    await second.close();

    // A file written before charges kept them: each is read again from the request, saved card and refunds.
    const added = ['card', 'customer', 'orderReferenceNumber', 'remark', 'terminalId', 'refunds', 'updatedAt'];
    for (const charge of saved.state.charges) for (const field of added) delete charge[field];
    await writeFile(file, JSON.stringify(saved));
    const third = await start();
    expect(await read(third)).toEqual(before);
  });

  it('writes a change within about 200 ms, without waiting for close()', async () => {
    const first = await start();
    const created = await call(first, 'POST', '/_sandbox/businesses', {
      json: { name: 'Kept Before Close', country: 'SG', currency: 'SGD' },
    });
    await vi.waitFor(async () => expect(await readFile(file, 'utf8')).toContain(created.body.id), {
      timeout: 1_000,
      interval: 20,
    });
    // What a sandbox killed now would leave is enough to start from.
    const copy = `${file}.copy.json`;
    await copyFile(file, copy);
    const second = await start(copy);
    expect((await call(second, 'GET', '/v1/info', { apiKey: created.body.api_key })).body.name).toBe(
      'Kept Before Close',
    );
  });

  it('writes at most every 200 ms, atomically, with mode 0600, leaving no temporary file', async () => {
    const sandbox = await start();
    disk.writes.length = 0;
    const began = Date.now();
    for (let i = 0; i < 25; i += 1) {
      await call(sandbox, 'POST', '/_sandbox/businesses', { json: { name: `B${i}`, country: 'SG', currency: 'SGD' } });
    }
    const lastId = (
      await call(sandbox, 'POST', '/_sandbox/businesses', { json: { name: 'Last', country: 'SG', currency: 'SGD' } })
    ).body.id;
    await vi.waitFor(async () => expect(await readFile(file, 'utf8')).toContain(lastId), { timeout: 1_000 });
    const renames = disk.writes.filter((w) => w.path === file).map((w) => w.at);
    const temporaries = disk.writes.filter((w) => w.path !== file).map((w) => w.path);
    expect(temporaries.every((p) => p === `${file}.${process.pid}.tmp`)).toBe(true);
    expect(renames.length).toBeGreaterThan(0);
    expect(renames.length).toBeLessThanOrEqual(Math.ceil((Date.now() - began) / 200) + 1);
    for (let i = 1; i < renames.length; i += 1) expect(renames[i]! - renames[i - 1]!).toBeGreaterThanOrEqual(190);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readdir(dir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved).toMatchObject({ format: SNAPSHOT_FORMAT, version: SNAPSHOT_VERSION });
  });

  it('does not keep dashboard sessions: everyone signs in again after a restart', async () => {
    const first = await start();
    const signIn = await call(first, 'POST', '/dashboard/sign-in', {
      apiKey: null,
      form: new URLSearchParams({ email: first.seed.ownerEmail }),
    });
    const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
    const page = (sandbox: RunningSandbox) =>
      call(sandbox, 'GET', '/dashboard/connected-apps', { apiKey: null, headers: { cookie } });
    expect((await page(first)).status).toBe(200);
    await first.close();
    const second = await start();
    expect((await page(second)).status).toBe(303);
  });
});

describe('a data file the sandbox cannot use', () => {
  const refused = async (content: string) => {
    await writeFile(file, content);
    const error = await startSandbox({ port: 0, dataFile: file }).then(
      (s) => (running.push(s), undefined),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SandboxDataFileError);
    // Left as it was, for its owner to look at.
    expect(await readFile(file, 'utf8')).toBe(content);
    return error as SandboxDataFileError;
  };

  it('refuses JSON that does not parse, naming the file and what to do', async () => {
    const error = await refused('{"format": "paykit-sandbox-state", "version": 1, "sta');
    expect(error.code).toBe('data_file_invalid');
    expect(error.file).toBe(file);
    expect(error.message).toContain(file);
    expect(error.message).toContain('is not valid JSON');
    expect(error.message).toContain('Delete it');
  });

  it('refuses a file of another format version, saying which', async () => {
    const error = await refused(JSON.stringify({ format: SNAPSHOT_FORMAT, version: 2, whatever: true }));
    expect(error.message).toMatch(/is format version 2; this sandbox reads version 1 only\. Delete it/);
    expect(error.message).toContain(file);
  });

  it('refuses JSON that is not a sandbox state, or a damaged one', async () => {
    expect((await refused('{"name": "package"}')).message).toContain('is not a paykit sandbox state file');
    file = `${file}.good.json`;
    await (await start()).close();
    const saved = JSON.parse(await readFile(file, 'utf8'));
    saved.state.paymentRequests = [{ id: 'x' }];
    const damaged = await refused(JSON.stringify(saved));
    expect(damaged.message).toContain('does not hold a valid sandbox state (at state.paymentRequests.0.');
  });

  it('refuses a path it cannot write at start, not at the first change', async () => {
    // Its temporary file cannot be created (a folder has its name): the first write fails.
    await mkdir(`${file}.${process.pid}.tmp`);
    const error = await startSandbox({ port: 0, dataFile: file }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxDataFileError);
    expect(error).toMatchObject({ code: 'data_file_unwritable', file });
    expect((error as Error).message).toContain(`Cannot write the sandbox data file ${file} (EISDIR)`);
  });

  it('refuses a path it cannot read', async () => {
    const notAFolder = join(dir, `plain-file-${n}`);
    await writeFile(notAFolder, '');
    const error = await startSandbox({ port: 0, dataFile: join(notAFolder, 'state.json') }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'data_file_unreadable', file: join(notAFolder, 'state.json') });
    expect((error as Error).message).toContain('(ENOTDIR)');
  });
});

describe('without a data file', () => {
  it('writes nothing anywhere', async () => {
    disk.writes.length = 0;
    const sandbox = await start(null);
    await connectMerchant(sandbox);
    await call(sandbox, 'POST', '/_sandbox/businesses', { json: { name: 'X', country: 'SG', currency: 'SGD' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await sandbox.close();
    expect(disk.writes).toEqual([]);
  });
});
