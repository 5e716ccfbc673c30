/**
 * `/v1/webhook-events` as the service's webhook-events OpenAPI describes it: create, list (a plain array), read,
 * update and delete; validation that names the field; each business alone with its endpoints; API key only; kept
 * across a restart (also from a data file written before endpoints had names and events); and the control
 * endpoint, which registers an endpoint for every event unless told which.
 */
import { webhookEventTypes } from '@paykit/core';
import { call, errorFields } from '@paykit/test-support/sandbox-calls';
import { createBusiness, createUser, registerApp } from '@paykit/test-support/sandbox-control';
import { approveOnSandbox, exchangeCodeOnSandbox } from '@paykit/test-support/sandbox-oauth';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoWithOffset } from '../clock.js';
import { startSandbox, type RunningSandbox } from '../start.js';
import { SANDBOX_WARNING_HEADER } from '../unknown-fields.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

/** `2024-01-24T16:05:10+08:00`: the service's examples give an offset. */
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;
const UNKNOWN = '973ee456-d28f-4418-93c5-d37e4b311685';
const notFoundText = (id: string) => `No query results for model [App\\Business\\Webhook] ${id}`;
const BODY = { name: 'Orders', url: 'https://shop.test/hooks', event_types: ['order.created', 'order.updated'] };

describe('the webhook-events API', () => {
  it('creates, lists, reads, updates and deletes an endpoint, in the service’s shape', async () => {
    const created = await call(sandbox, 'POST', '/v1/webhook-events', { json: BODY });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      business_id: sandbox.seed.businessId,
      ...BODY,
      created_at: expect.stringMatching(WITH_OFFSET),
      updated_at: created.body.created_at,
    });
    const id = created.body.id as string;

    const list = await call(sandbox, 'GET', '/v1/webhook-events');
    expect(list.status).toBe(200);
    expect(Array.isArray(list.body)).toBe(true);
    expect(list.body).toContainEqual(created.body);
    expect((await call(sandbox, 'GET', `/v1/webhook-events/${id}`)).body).toEqual(created.body);

    // Only the fields given change, and updated_at moves with them. The record is dated a minute back first,
    // so that a move shows at the answer's one-second precision.
    const stored = sandbox.context.state.webhookEndpoints.get(id)!;
    const minuteAgo = new Date(Date.now() - 60_000);
    stored.createdAt = stored.updatedAt = minuteAgo;
    const renamed = await call(sandbox, 'PUT', `/v1/webhook-events/${id}`, {
      json: { name: 'Every transfer', event_types: ['transfer.paid', 'transfer.failed'] },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      id,
      name: 'Every transfer',
      url: BODY.url,
      event_types: ['transfer.paid', 'transfer.failed'],
      created_at: isoWithOffset(minuteAgo),
    });
    expect(renamed.body.updated_at).not.toBe(isoWithOffset(minuteAgo));
    // An update that changes nothing leaves updated_at as it was.
    stored.updatedAt = minuteAgo;
    const same = await call(sandbox, 'PUT', `/v1/webhook-events/${id}`, {
      json: { name: 'Every transfer', event_types: ['transfer.paid', 'transfer.failed'] },
    });
    expect(same.body).toEqual({ ...renamed.body, updated_at: isoWithOffset(minuteAgo) });

    const deleted = await call(sandbox, 'DELETE', `/v1/webhook-events/${id}`);
    expect([deleted.status, deleted.body]).toEqual([204, null]);
    expect((await call(sandbox, 'GET', `/v1/webhook-events/${id}`)).status).toBe(404);
    expect((await call(sandbox, 'GET', '/v1/webhook-events')).body).not.toContainEqual(expect.objectContaining({ id }));
  });

  it('takes a form too, and drops undocumented fields, naming them in X-Sandbox-Warning', async () => {
    const form = new URLSearchParams({
      name: 'Form',
      url: 'https://shop.test/form',
      'event_types[]': 'charge.created',
    });
    const fromForm = await call(sandbox, 'POST', '/v1/webhook-events', { form });
    expect(fromForm).toMatchObject({ status: 201, body: { name: 'Form', event_types: ['charge.created'] } });
    const typo = await call(sandbox, 'POST', '/v1/webhook-events', { json: { ...BODY, secret: 's3', evnt: 1 } });
    expect(typo.status).toBe(201);
    expect(typo.headers.get(SANDBOX_WARNING_HEADER)).toBe('ignored unknown fields "secret", "evnt"');
    expect(Object.keys(typo.body)).not.toContain('secret');
    const update = await call(sandbox, 'PUT', `/v1/webhook-events/${typo.body.id}`, { json: { colour: 'red' } });
    expect(update.headers.get(SANDBOX_WARNING_HEADER)).toBe('ignored unknown field "colour"');
    expect(sandbox.context.state.webhookEndpoints.get(typo.body.id)).not.toHaveProperty('colour');
  });

  it('refuses a bad body with 422 naming the field, and stores nothing', async () => {
    const before = sandbox.context.state.webhookEndpoints.size;
    const cases: [Record<string, unknown>, string[]][] = [
      [{ url: 'http://hooks.test/' }, ['url']],
      [{ url: 'ftp://hooks.test/' }, ['url']],
      [{ event_types: ['charge.deleted'] }, ['event_types.0']],
      [{ event_types: [] }, ['event_types']],
      [{ event_types: ['charge.created', 'charge.created'] }, ['event_types']],
      [{ name: 'x'.repeat(256) }, ['name']],
      [{ name: '' }, ['name']],
    ];
    for (const [change, fields] of cases) {
      const refused = await call(sandbox, 'POST', '/v1/webhook-events', { json: { ...BODY, ...change } });
      expect(refused.status, JSON.stringify(change)).toBe(422);
      expect(refused.body.code).toBe('validation_failed');
      expect(errorFields(refused.body), JSON.stringify(change)).toEqual(fields);
      expect(refused.body.message).toMatch(/^Webhook event is invalid: /);
    }
    const empty = await call(sandbox, 'POST', '/v1/webhook-events', { json: {} });
    expect(errorFields(empty.body)).toEqual(['event_types', 'name', 'url']);
    // http is taken for loopback receivers only (a test's or the demo's own server).
    const local = await call(sandbox, 'POST', '/v1/webhook-events', { json: { ...BODY, url: 'http://127.0.0.1:9/h' } });
    expect(local.status).toBe(201);
    expect(sandbox.context.state.webhookEndpoints.size).toBe(before + 1);

    const updated = await call(sandbox, 'PUT', `/v1/webhook-events/${local.body.id}`, {
      json: { name: 'Kept', event_types: ['order.shipped'] },
    });
    expect([updated.status, errorFields(updated.body)]).toEqual([422, ['event_types.0']]);
    expect((await call(sandbox, 'GET', `/v1/webhook-events/${local.body.id}`)).body).toEqual(local.body);
  });

  it('answers 404 with the service’s text for an unknown id and for another business’s endpoint', async () => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const answer = await call(sandbox, method, `/v1/webhook-events/${UNKNOWN}`, {
        ...(method === 'PUT' ? { json: { name: 'x' } } : {}),
      });
      expect([answer.status, answer.body.message, answer.body.code]).toEqual([404, notFoundText(UNKNOWN), 'not_found']);
    }
    const other = await createBusiness(sandbox, { name: 'Other Shop' });
    const theirs = await call(sandbox, 'POST', '/v1/webhook-events', { apiKey: other.api_key, json: BODY });
    expect(theirs.body.business_id).toBe(other.id);
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const answer = await call(sandbox, method, `/v1/webhook-events/${theirs.body.id}`, {
        ...(method === 'PUT' ? { json: { name: 'Mine now' } } : {}),
      });
      expect([answer.status, answer.body.message]).toEqual([404, notFoundText(theirs.body.id)]);
    }
    const mine = (await call(sandbox, 'GET', '/v1/webhook-events')).body as { id: string }[];
    expect(mine.map((e) => e.id)).not.toContain(theirs.body.id);
    const theirList = await call(sandbox, 'GET', '/v1/webhook-events', { apiKey: other.api_key });
    expect(theirList.body).toEqual([theirs.body]);
  });

  it('refuses Bearer tokens, whatever their scopes: only the API key manages endpoints', async () => {
    const redirectUri = 'https://platform.example/callback';
    const merchant = await createBusiness(sandbox, { name: 'Connected Cafe' });
    const owner = await createUser(sandbox, { email: 'owner@cafe.test', name: 'Owner', businessId: merchant.id });
    const scope = 'business:read payments commerce customer';
    const app = await registerApp(sandbox, { name: 'Platform', redirectUris: [redirectUri], scopes: scope.split(' ') });
    const { code } = await approveOnSandbox(sandbox, {
      userId: owner.id,
      clientId: app.client_id,
      redirectUri,
      scope,
      businessId: merchant.id,
    });
    const tokens = await exchangeCodeOnSandbox(sandbox, app, { code, redirectUri });
    const bearer = { apiKey: null, headers: { authorization: `Bearer ${tokens.body.access_token}` } };
    const own = await call(sandbox, 'POST', '/v1/webhook-events', { apiKey: merchant.api_key, json: BODY });
    const before = sandbox.context.state.webhookEndpoints.size;
    for (const [method, path, json] of [
      ['GET', '/v1/webhook-events'],
      ['POST', '/v1/webhook-events', BODY],
      ['GET', `/v1/webhook-events/${own.body.id}`],
      ['PUT', `/v1/webhook-events/${own.body.id}`, { name: 'Taken over' }],
      ['DELETE', `/v1/webhook-events/${own.body.id}`],
    ] as const) {
      const refused = await call(sandbox, method, path, { ...bearer, ...(json ? { json } : {}) });
      expect([refused.status, refused.body.code], `${method} ${path}`).toEqual([403, 'forbidden']);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer error="insufficient_scope"');
    }
    expect(sandbox.context.state.webhookEndpoints.size).toBe(before);
    expect(
      (await call(sandbox, 'GET', `/v1/webhook-events/${own.body.id}`, { apiKey: merchant.api_key })).body,
    ).toEqual(own.body);
  });
});

describe('which endpoints an event goes to', () => {
  it('endpointsListening answers the business’s endpoints that listen to the type, and no one else’s', async () => {
    const shop = await createBusiness(sandbox, { name: 'Listening Shop' });
    const make = async (name: string, eventTypes: string[]) =>
      (
        await call(sandbox, 'POST', '/v1/webhook-events', {
          apiKey: shop.api_key,
          json: { name, url: `https://shop.test/${name}`, event_types: eventTypes },
        })
      ).body.id as string;
    const orders = await make('orders', ['order.created', 'order.updated']);
    const charges = await make('charges', ['charge.created']);
    const both = await make('both', ['charge.created', 'order.created']);
    const { state } = sandbox.context;
    const ids = (type: Parameters<typeof state.endpointsListening>[1]) =>
      state.endpointsListening(shop.id, type).map((e) => e.id);
    expect(ids('order.created')).toEqual([orders, both]);
    expect(ids('charge.created')).toEqual([charges, both]);
    expect(ids('order.updated')).toEqual([orders]);
    expect(ids('transfer.paid')).toEqual([]);
    expect(state.endpointsListening(sandbox.seed.businessId, 'order.updated').map((e) => e.id)).not.toContain(orders);
    await call(sandbox, 'PUT', `/v1/webhook-events/${orders}`, {
      apiKey: shop.api_key,
      json: { event_types: ['payout.created'] },
    });
    expect(ids('order.created')).toEqual([both]);
    await call(sandbox, 'DELETE', `/v1/webhook-events/${both}`, { apiKey: shop.api_key });
    expect(ids('order.created')).toEqual([]);
    expect(state.endpointsOf(shop.id).map((e) => e.id)).toEqual([orders, charges]);
  });
});

describe('POST /_sandbox/webhook-endpoints', () => {
  it('registers an endpoint for every event, or for the events and name given, answered as the API answers it', async () => {
    const every = await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
      json: { business_id: sandbox.seed.businessId, url: 'http://127.0.0.1:9/every' },
    });
    expect(every.status).toBe(201);
    expect(every.body).toMatchObject({
      business_id: sandbox.seed.businessId,
      name: 'Webhook',
      url: 'http://127.0.0.1:9/every',
      event_types: [...webhookEventTypes],
    });
    expect((await call(sandbox, 'GET', `/v1/webhook-events/${every.body.id}`)).body).toEqual(every.body);
    const some = await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
      json: {
        business_id: sandbox.seed.businessId,
        url: 'https://shop.test/p',
        name: 'Payouts',
        event_types: ['payout.created'],
      },
    });
    expect(some.body).toMatchObject({ name: 'Payouts', event_types: ['payout.created'] });
    const bad = await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
      json: { business_id: sandbox.seed.businessId, url: 'https://shop.test/p', event_types: ['nope'] },
    });
    expect([bad.status, errorFields(bad.body)]).toEqual([422, ['event_types.0']]);
  });
});

describe('across a restart on the same data file', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'paykit-webhook-events-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('keeps every endpoint as it was answered', async () => {
    const dataFile = join(dir, 'kept.json');
    const first = await startSandbox({ port: 0, dataFile });
    const created = await call(first, 'POST', '/v1/webhook-events', { json: BODY });
    const updated = await call(first, 'PUT', `/v1/webhook-events/${created.body.id}`, { json: { name: 'Renamed' } });
    const list = (await call(first, 'GET', '/v1/webhook-events')).body;
    await first.close();

    const second = await startSandbox({ port: 0, dataFile });
    try {
      expect((await call(second, 'GET', '/v1/webhook-events')).body).toEqual(list);
      expect((await call(second, 'GET', `/v1/webhook-events/${created.body.id}`)).body).toEqual(updated.body);
      expect(second.context.state.endpointsListening(second.seed.businessId, 'order.created')).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it('reads a file written before endpoints had names, events and dates: every event, named Webhook', async () => {
    const dataFile = join(dir, 'old.json');
    await (await startSandbox({ port: 0, dataFile })).close();
    const saved = JSON.parse(await readFile(dataFile, 'utf8'));
    const businessId = saved.state.businesses[0].id as string;
    saved.state.webhookEndpoints.push({ id: 'old-endpoint', businessId, url: 'http://127.0.0.1:9/old' });
    await writeFile(dataFile, JSON.stringify(saved));

    const loadedAfter = Date.now();
    const sandbox = await startSandbox({ port: 0, dataFile });
    try {
      const old = await call(sandbox, 'GET', '/v1/webhook-events/old-endpoint');
      expect(old.body).toMatchObject({
        id: 'old-endpoint',
        business_id: businessId,
        name: 'Webhook',
        url: 'http://127.0.0.1:9/old',
        event_types: [...webhookEventTypes],
      });
      expect(old.body.created_at).toMatch(WITH_OFFSET);
      expect(old.body.updated_at).toBe(old.body.created_at);
      expect(Date.parse(old.body.created_at)).toBeGreaterThanOrEqual(Math.floor(loadedAfter / 1000) * 1000);
      expect(sandbox.context.state.endpointsListening(businessId, 'transfer.paid').map((e) => e.id)).toEqual([
        'old-endpoint',
      ]);
    } finally {
      await sandbox.close();
    }
  });
});
