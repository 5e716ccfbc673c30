/**
 * `client.webhookEvents` and `client.orders.get` against the running sandbox: the endpoints a business registers
 * (created, listed as a plain array, read, updated, deleted), bodies checked before anything is sent, API key only;
 * and reading one order, as a server does when an `order.*` webhook names it.
 */
import { call } from '@paykit/test-support/sandbox-calls';
import { createBusiness, registerApp } from '@paykit/test-support/sandbox-control';
import { approveOnSandbox, exchangeCodeOnSandbox } from '@paykit/test-support/sandbox-oauth';
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaymentsClient, type PaymentsClient } from './payments-client.js';

let sandbox: RunningSandbox;
let client: PaymentsClient;
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';
const REDIRECT = 'https://platform.example/cb';

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  client = createPaymentsClient({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
});
afterAll(() => sandbox.close());

/** A client acting for the seeded business through an OAuth connection holding `scope`. */
async function bearerClient(scope: string): Promise<PaymentsClient> {
  const app = await registerApp(sandbox, { name: 'Platform', redirectUris: [REDIRECT], scopes: scope.split(' ') });
  const { code } = await approveOnSandbox(sandbox, {
    userId: sandbox.seed.ownerUserId,
    clientId: app.client_id,
    redirectUri: REDIRECT,
    scope,
    businessId: sandbox.seed.businessId,
  });
  const tokens = await exchangeCodeOnSandbox(sandbox, app, { code, redirectUri: REDIRECT });
  return createPaymentsClient({
    apiBaseUrl: sandbox.url,
    auth: { apply: (headers) => headers.set('authorization', `Bearer ${tokens.body.access_token as string}`) },
  });
}

describe('client.webhookEvents', () => {
  it('creates, lists, reads, updates and deletes an endpoint', async () => {
    const created = await client.webhookEvents.create({
      name: 'Orders',
      url: 'https://shop.test/hooks',
      event_types: ['order.created', 'order.updated'],
    });
    expect(created).toMatchObject({
      business_id: sandbox.seed.businessId,
      name: 'Orders',
      url: 'https://shop.test/hooks',
      event_types: ['order.created', 'order.updated'],
    });
    expect(created.created_at).toMatch(/[+-]\d{2}:\d{2}$/);
    const list = await client.webhookEvents.list();
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((e) => e.id)).toContain(created.id);
    expect(await client.webhookEvents.get(created.id)).toEqual(created);
    const updated = await client.webhookEvents.update(created.id, { event_types: ['charge.created'] });
    expect(updated).toMatchObject({ id: created.id, name: 'Orders', event_types: ['charge.created'] });
    await expect(client.webhookEvents.delete(created.id)).resolves.toBeUndefined();
    await expect(client.webhookEvents.get(created.id)).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
      message: `No query results for model [App\\Business\\Webhook] ${created.id}`,
    });
  });

  it('refuses a body the service would refuse before sending it, naming the field', async () => {
    const before = sandbox.context.state.webhookEndpoints.size;
    const valid = { name: 'Hooks', url: 'https://shop.test/hooks', event_types: ['charge.created' as const] };
    await expect(client.webhookEvents.create({ ...valid, url: 'http://shop.test/hooks' })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'url' }],
    });
    await expect(client.webhookEvents.create({ ...valid, event_types: [] })).rejects.toMatchObject({
      errors: [{ path: 'event_types' }],
    });
    await expect(
      client.webhookEvents.create({ ...valid, event_types: ['charge.deleted' as 'charge.created'] }),
    ).rejects.toMatchObject({ errors: [{ path: 'event_types.0' }] });
    await expect(client.webhookEvents.update(UNKNOWN, { name: 'x'.repeat(256) })).rejects.toMatchObject({
      errors: [{ path: 'name' }],
    });
    expect(sandbox.context.state.webhookEndpoints.size).toBe(before);
    await expect(client.webhookEvents.update(UNKNOWN, { name: 'Fine' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('sees only its own business’s endpoints', async () => {
    const other = await createBusiness(sandbox, { name: 'Other Shop' });
    const otherClient = createPaymentsClient({ apiBaseUrl: sandbox.url, apiKey: other.api_key });
    const theirs = await otherClient.webhookEvents.create({
      name: 'Theirs',
      url: 'https://other.test/hooks',
      event_types: ['payout.created'],
    });
    expect(await otherClient.webhookEvents.list()).toEqual([theirs]);
    expect((await client.webhookEvents.list()).map((e) => e.id)).not.toContain(theirs.id);
    await expect(client.webhookEvents.delete(theirs.id)).rejects.toMatchObject({ code: 'not_found' });
    expect(await otherClient.webhookEvents.get(theirs.id)).toEqual(theirs);
  });

  it('is refused to a Bearer connection, whatever its scopes', async () => {
    const bearer = await bearerClient('business:read payments commerce customer');
    await expect(bearer.webhookEvents.list()).rejects.toMatchObject({ code: 'forbidden', status: 403 });
    await expect(
      bearer.webhookEvents.create({ name: 'x', url: 'https://shop.test/x', event_types: ['charge.created'] }),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });
});

/** The order a paid payment request of `amount` made, as the list answers it. */
async function paidOrder(amount: number) {
  const request = await client.paymentRequests.create({ amount, currency: 'SGD' });
  const paid = await call(sandbox, 'POST', `/_sandbox/payment-requests/${request.id}/pay`, {
    json: { outcome: 'succeeded' },
  });
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  const listed = (await client.orders.list()).data.find((o) => o.payment_request_id === request.id);
  if (!listed) throw new Error(`no order for payment request ${request.id}`);
  return listed;
}

describe('client.orders.get', () => {
  it('reads the order a paid payment request made; another business’s order is not found', async () => {
    const listed = await paidOrder(12.5);
    const order = await client.orders.get(listed.id);
    expect(order).toEqual(listed);
    expect(order).toMatchObject({ status: 'paid', amount: 12.5, currency: 'sgd' });
    await expect(client.orders.get(UNKNOWN)).rejects.toMatchObject({ code: 'not_found', message: 'Order not found' });
    const other = await createBusiness(sandbox, { name: 'Nosy Shop' });
    const otherClient = createPaymentsClient({ apiBaseUrl: sandbox.url, apiKey: other.api_key });
    await expect(otherClient.orders.get(order.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('needs commerce:read from a Bearer connection', async () => {
    const order = await paidOrder(3);
    expect(await (await bearerClient('commerce:read')).orders.get(order.id)).toMatchObject({ id: order.id });
    await expect((await bearerClient('payments:read')).orders.get(order.id)).rejects.toMatchObject({
      code: 'forbidden',
      message: 'This token lacks the scope commerce:read',
    });
  });
});
