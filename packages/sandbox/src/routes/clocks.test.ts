/**
 * The business clocks over HTTP against a running sandbox: reading and moving a clock, and everything that
 * follows it as if the time had passed (subscription cycles and their signed deliveries, a declining card,
 * payment requests' expiry, OAuth tokens, webhook retries, transfers and payouts, the API's stamps). The
 * receivers are real HTTP servers on 127.0.0.1; signatures are checked the way the service's docs say a
 * receiver checks them, independently of the sandbox's own signing code.
 */
import { startHttpRecorder, type HttpRecorder, type RecordedRequest } from '@paykit/test-support/http-recorder';
import { call, submitPageForm } from '@paykit/test-support/sandbox-calls';
import { createBusiness, createUser, registerApp } from '@paykit/test-support/sandbox-control';
import { approveOnSandbox, exchangeCodeOnSandbox } from '@paykit/test-support/sandbox-oauth';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

const DAY = 86_400;
let sandbox: RunningSandbox;
let receiver: HttpRecorder;

beforeAll(async () => {
  // Retries an hour apart: only a moved clock sends them within a test.
  [sandbox, receiver] = await Promise.all([
    startSandbox({
      port: 0,
      webhooks: { retryDelaysMs: [3_600_000, 7_200_000] },
      oauth: { refreshTokenTtlSeconds: 90 * DAY },
    }),
    startHttpRecorder(),
  ]);
});
afterAll(() => Promise.all([sandbox.close(), receiver.close()]));
beforeEach(async () => {
  receiver.requests.length = 0;
  await call(sandbox, 'POST', '/_sandbox/reset');
});

const hmac = (salt: string, data: string) => createHmac('sha256', salt).update(data, 'utf8').digest('hex');

/** The service's notification check (its webhooks docs page): every field but hmac, key then value, by key. */
function notificationIsSigned(body: string, salt: string): boolean {
  const fields = [...new URLSearchParams(body)];
  const signed = fields
    .filter(([key]) => key !== 'hmac')
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, value]) => key + value)
    .join('');
  return fields.find(([key]) => key === 'hmac')?.[1] === hmac(salt, signed);
}

/** The service's event check: `Hitpay-Signature` is the HMAC-SHA256 of the raw body with the salt. */
const eventIsSigned = (request: RecordedRequest, salt: string) =>
  request.headers['hitpay-signature'] === hmac(salt, request.body);

const clockOf = async (businessId = sandbox.seed.businessId) =>
  Date.parse((await call(sandbox, 'GET', `/_sandbox/businesses/${businessId}/clock`)).body.now as string);

async function advance(body: Record<string, unknown>, businessId = sandbox.seed.businessId) {
  const answer = await call(sandbox, 'POST', `/_sandbox/businesses/${businessId}/clock/advance`, { json: body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body as { from: string; now: string; happened: { at: string; type: string; object_id: string }[] };
}

/** `YYYY-MM-DD` in Singapore, `days` after the business's now. */
const singaporeDate = (nowMs: number, days: number) =>
  new Date(nowMs + 8 * 3_600_000 + days * DAY * 1000).toISOString().slice(0, 10);

/** A monthly subscription starting tomorrow, its card saved on its checkout; answers its id. */
async function subscription(cardNumber = '4242 4242 4242 4242', extra: Record<string, string> = {}) {
  const made = await call(sandbox, 'POST', '/v1/recurring-billing', {
    form: new URLSearchParams({
      name: 'Coffee club',
      amount: '9.90',
      cycle: 'monthly',
      customer_email: 'ann@example.test',
      start_date: singaporeDate(await clockOf(), 1),
      webhook: `${receiver.url}/notify`,
      ...extra,
    }),
  });
  expect(made.status).toBe(200);
  const saved = await submitPageForm(
    made.body.url as string,
    new URLSearchParams({ card_number: cardNumber, outcome: 'save' }).toString(),
  );
  expect(saved.status).toBeLessThan(400);
  return made.body.id as string;
}

async function listen(eventTypes: string[], businessId = sandbox.seed.businessId) {
  const answer = await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
    json: { business_id: businessId, url: `${receiver.url}/events`, event_types: eventTypes },
  });
  expect(answer.status).toBe(201);
}

describe('a business clock', () => {
  it('reads real time until moved, then moves forward only, and alone', async () => {
    const other = await createBusiness(sandbox, { name: 'Other' });
    const before = await clockOf();
    expect(Math.abs(before - Date.now())).toBeLessThan(5_000);
    const moved = await advance({ seconds: 30 * DAY });
    expect(Date.parse(moved.now) - Date.parse(moved.from)).toBeGreaterThanOrEqual(30 * DAY * 1000);
    expect(await clockOf()).toBeGreaterThanOrEqual(before + 30 * DAY * 1000);
    expect(Math.abs((await clockOf(other.id)) - Date.now())).toBeLessThan(5_000);

    const back = await call(sandbox, 'POST', `/_sandbox/businesses/${sandbox.seed.businessId}/clock/advance`, {
      json: { to: new Date(before).toISOString() },
    });
    expect(back.status).toBe(422);
    expect(back.body.message).toMatch(/only moves forward/);
    const neither = await call(sandbox, 'POST', `/_sandbox/businesses/${sandbox.seed.businessId}/clock/advance`, {
      json: {},
    });
    expect(neither.status).toBe(422);
    expect(Object.keys(neither.body.errors as object)).toEqual(['seconds']);
    const unknown = await call(sandbox, 'GET', '/_sandbox/businesses/00000000-0000-4000-8000-00000000dead/clock');
    expect(unknown.status).toBe(404);
  });

  it('stamps what the API makes on the business clock, and a reset puts it back', async () => {
    await advance({ to: '2031-03-01T04:00:00Z' });
    const made = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 12, currency: 'SGD' } });
    expect(made.body.created_at).toMatch(/^2031-03-01T04:00/);
    await call(sandbox, 'POST', '/_sandbox/reset');
    expect(Math.abs((await clockOf()) - Date.now())).toBeLessThan(5_000);
  });
});

describe('subscriptions on the clock', () => {
  it('12 months of a monthly plan: 12 charges, 12 signed notifications and 12 signed events, in order', async () => {
    await listen(['charge.created']);
    const id = await subscription('4242 4242 4242 4242', { times_to_be_charged: '24' });
    const moved = await advance({ seconds: 365 * DAY });
    const charges = moved.happened.filter((event) => event.type === 'charge.succeeded');
    expect(charges).toHaveLength(12);
    expect(charges.map((c) => c.at)).toEqual([...charges.map((c) => c.at)].sort());

    const notifications = receiver.requests.filter((r) => r.path === '/notify');
    const events = receiver.requests.filter((r) => r.path === '/events');
    expect(notifications).toHaveLength(12);
    expect(events).toHaveLength(12);
    expect(notifications.every((r) => notificationIsSigned(r.body, sandbox.seed.salt))).toBe(true);
    expect(events.every((r) => eventIsSigned(r, sandbox.seed.salt))).toBe(true);
    // In the order they happened: each delivery names the charge of its cycle.
    expect(notifications.map((r) => new URLSearchParams(r.body).get('payment_id'))).toEqual(
      charges.map((c) => c.object_id),
    );
    expect(events.map((r) => (JSON.parse(r.body) as { id: string }).id)).toEqual(charges.map((c) => c.object_id));

    const record = await call(sandbox, 'GET', `/v1/recurring-billing/${id}`);
    expect(record.body).toMatchObject({ times_charged: 12, total_charge: 118.8, status: 'active' });
    // The next month is the 13th charge, not a repeat of any.
    expect((await advance({ seconds: 31 * DAY })).happened.filter((e) => e.type === 'charge.succeeded')).toHaveLength(
      1,
    );
  });

  it('counts months from the start date, a month-end kept a month-end, and stops after times_to_be_charged', async () => {
    const made = await call(sandbox, 'POST', '/v1/recurring-billing', {
      json: {
        name: 'Rent',
        amount: 100,
        cycle: 'monthly',
        customer_email: 'ann@example.test',
        start_date: '2031-01-31',
        times_to_be_charged: 3,
      },
    });
    await submitPageForm(made.body.url as string, 'card_number=4242424242424242&outcome=save');
    const moved = await advance({ to: '2031-12-31T00:00:00+08:00' });
    expect(moved.happened.filter((e) => e.type === 'charge.succeeded').map((e) => e.at.slice(0, 10))).toEqual([
      '2031-01-30', // 00:00 on the 31st in Singapore is 16:00 on the 30th in UTC
      '2031-02-27',
      '2031-03-30',
    ]);
    expect((await call(sandbox, 'GET', `/v1/recurring-billing/${made.body.id as string}`)).body).toMatchObject({
      times_charged: 3,
      status: 'inactive',
    });
  });

  it('a card that declines fails its cycle: a failed charge, a failed notification, charge.failed, retrying', async () => {
    await listen(['charge.failed', 'recurring_billing.subscription_updated']);
    const id = await subscription('4000 0000 0000 0002');
    receiver.requests.length = 0; // what the card's saving sent
    const moved = await advance({ seconds: 2 * DAY });
    expect(moved.happened.map((e) => e.type)).toEqual(['charge.failed']);
    const notification = new URLSearchParams(receiver.requests.find((r) => r.path === '/notify')?.body);
    expect(notification.get('status')).toBe('failed');
    expect(receiver.requests.filter((r) => r.headers['hitpay-event-type'] === 'failed')).toHaveLength(1);
    const charge = await call(sandbox, 'GET', `/v1/charges/${moved.happened[0]!.object_id}`);
    expect(charge.body.status).toBe('failed');
    expect((await call(sandbox, 'GET', `/v1/recurring-billing/${id}`)).body).toMatchObject({
      status: 'retrying',
      times_charged: 0,
    });
    // The status change is the service's subscription_updated (sent to the endpoint listening to it).
    const updated = receiver.requests.filter((r) => r.headers['hitpay-event-type'] === 'subscription_updated');
    expect(updated.map((r) => (JSON.parse(r.body) as { status: string }).status)).toEqual(['retrying']);
  });

  it('nothing is billed while the clock stands still: a subscription due today waits for the clock to move', async () => {
    const id = await subscription();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await call(sandbox, 'GET', `/v1/recurring-billing/${id}`)).body.times_charged).toBe(0);
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('payment requests expire on the clock', () => {
  it('past expires_after the request is expired: the API says so and the checkout takes no payment', async () => {
    const made = await call(sandbox, 'POST', '/v1/payment-requests', {
      json: { amount: 20, currency: 'SGD', expires_after: '30 mins', redirect_url: 'https://shop.example/back' },
    });
    expect(made.body.status).toBe('pending');
    const moved = await advance({ seconds: 31 * 60 });
    expect(moved.happened).toEqual([
      expect.objectContaining({ type: 'payment_request.expired', object_id: made.body.id }),
    ]);
    expect((await call(sandbox, 'GET', `/v1/payment-requests/${made.body.id as string}`)).body.status).toBe('expired');

    const page = await fetch(made.body.url as string);
    expect(await page.text()).toContain('This payment link has expired.');
    const paid = await submitPageForm(made.body.url as string, 'outcome=succeeded');
    expect(paid.headers.get('location')).toContain('status=expired');
    const charges = await call(sandbox, 'GET', '/v1/charges');
    expect(charges.body.data).toHaveLength(0);
  });
});

describe('OAuth on the merchant clock', () => {
  async function connect() {
    const merchant = await createBusiness(sandbox, { name: 'Harbour Cafe' });
    const owner = await createUser(sandbox, { email: 'owner@harbour.test', name: 'Owner', businessId: merchant.id });
    const app = await registerApp(sandbox, {
      name: 'Marketplace',
      redirectUris: ['https://platform.example/back'],
    });
    const approval = await approveOnSandbox(sandbox, {
      userId: owner.id,
      clientId: app.client_id,
      redirectUri: 'https://platform.example/back',
      scope: 'business:read',
      businessId: merchant.id,
    });
    const tokens = await exchangeCodeOnSandbox(sandbox, app, {
      code: approval.code,
      redirectUri: 'https://platform.example/back',
    });
    expect(tokens.status).toBe(200);
    return { merchant, app, tokens: tokens.body as { access_token: string; refresh_token: string } };
  }
  const refresh = (app: { client_id: string; client_secret: string }, refreshToken: string) =>
    call(sandbox, 'POST', '/v1/open/oauth/token', {
      apiKey: null,
      form: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: app.client_id,
        client_secret: app.client_secret,
        refresh_token: refreshToken,
      }),
    });
  const readBusiness = (token: string) =>
    call(sandbox, 'GET', '/v1/info', { apiKey: null, headers: { authorization: `Bearer ${token}` } });

  it('a year on the merchant clock expires its access token; the platform refreshes and reads again', async () => {
    const { merchant, app, tokens } = await connect();
    expect((await readBusiness(tokens.access_token)).status).toBe(200);
    await advance({ seconds: 30 * DAY }, merchant.id);
    const refreshed = await refresh(app, tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    const next = refreshed.body as { access_token: string; refresh_token: string };
    // Another business's clock does not move this merchant's tokens.
    await advance({ seconds: 400 * DAY });
    expect((await readBusiness(next.access_token)).status).toBe(200);
    await advance({ seconds: 366 * DAY }, merchant.id);
    expect((await readBusiness(next.access_token)).status).toBe(401);
  });

  it('past the refresh token lifetime the platform must connect again', async () => {
    const { merchant, app, tokens } = await connect();
    await advance({ seconds: 91 * DAY }, merchant.id);
    const refused = await refresh(app, tokens.refresh_token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_grant' });
    expect(String(refused.body.error_description)).toContain('expired');
  });
});

describe('webhook retries and money movements on the clock', () => {
  it('a failed delivery is retried when the clock passes its retry, not before', async () => {
    await listen(['charge.created']);
    receiver.respondWith(500);
    await subscription();
    const first = await advance({ seconds: 2 * DAY });
    // The charge, its notification (answered 500) and event; the notification's retry an hour after, answered 200.
    expect(first.happened.map((e) => e.type)).toEqual(['charge.succeeded', 'webhook.retried']);
    const deliveries = (await call(sandbox, 'GET', '/_sandbox/webhook-deliveries')).body as {
      status: string;
      attempts: number;
    }[];
    expect(deliveries.map((d) => [d.status, d.attempts]).sort()).toEqual([
      ['delivered', 1],
      ['delivered', 2],
    ]);
  });

  it('a payout is processing a day after it was made and paid two days after, with payout.created', async () => {
    await listen(['payout.created']);
    const request = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 50, currency: 'SGD' } });
    await call(sandbox, 'POST', `/_sandbox/payment-requests/${request.body.id as string}/pay`, {
      json: { outcome: 'succeeded' },
    });
    const payout = await call(sandbox, 'POST', '/_sandbox/payouts', { json: { business_id: sandbox.seed.businessId } });
    expect(payout.status).toBe(201);
    const moved = await advance({ seconds: 3 * DAY });
    expect(moved.happened.map((e) => e.type)).toEqual(['payout.processing', 'payout.paid']);
    expect(receiver.requests.filter((r) => r.path === '/events')).toHaveLength(1);
    expect((await call(sandbox, 'GET', `/v1/payouts/${payout.body.id as string}`)).body.status).toBe('paid');
  });
});
