/**
 * The dashboard's API keys and webhooks pages as a browser uses them (fetch with a cookie jar, redirects followed
 * by hand): who sees a business's keys, the webhooks page's forms and what each changes, and the attacks on them
 * (a form posted from another site, without or with a wrong CSRF token, by a member, for another business).
 * Deliveries go to a real HTTP receiver on 127.0.0.1.
 */
import { startHttpRecorder, type HttpRecorder } from '@paykit/test-support/http-recorder';
import { call } from '@paykit/test-support/sandbox-calls';
import { addMember, createBusiness, createUser, MEMBER_EMAIL } from '@paykit/test-support/sandbox-control';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED_USER } from '../oauth/oauth-state.js';
import { startSandbox, type RunningSandbox } from '../start.js';
import { cutToBytes, SHOWN_BODY_BYTES } from './webhook-deliveries-view.js';

let sandbox: RunningSandbox;
let receiver: HttpRecorder;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [50, 50] } });
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  await call(sandbox, 'POST', '/_sandbox/reset');
  receiver = await startHttpRecorder();
});
afterEach(async () => {
  await sandbox.context.webhooks.idle();
  await receiver.close();
});

/** One page load: no redirect followed, the session cookie kept. */
async function browse(path: string, init: { cookie?: string; form?: string | object; headers?: object } = {}) {
  const body =
    init.form === undefined
      ? undefined
      : typeof init.form === 'string'
        ? init.form
        : new URLSearchParams(init.form as Record<string, string>).toString();
  const response = await fetch(sandbox.url + path, {
    method: body === undefined ? 'GET' : 'POST',
    redirect: 'manual',
    headers: {
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      ...init.headers,
    },
    body,
  });
  return {
    status: response.status,
    location: response.headers.get('location'),
    headers: response.headers,
    text: await response.text(),
  };
}

const signInAs = async (email: string) => {
  const answer = await fetch(`${sandbox.url}/dashboard/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email }).toString(),
  });
  return answer.headers.get('set-cookie')!.split(';')[0]!;
};

const csrfOf = (text: string) => /name="csrf" value="([^"]+)"/.exec(text)![1]!;

/** The seeded owner, signed in, with the webhooks page's CSRF token. */
async function owner() {
  const cookie = await signInAs(SEED_USER.email);
  const csrf = csrfOf((await browse('/dashboard/webhooks', { cookie })).text);
  return { cookie, csrf };
}

/** The form body of "Add endpoint" (several `event_types`, as checkboxes post them). */
function endpointForm(fields: { business_id: string; csrf: string; name: string; url: string; events: string[] }) {
  const form = new URLSearchParams({
    business_id: fields.business_id,
    csrf: fields.csrf,
    name: fields.name,
    url: fields.url,
  });
  for (const type of fields.events) form.append('event_types', type);
  return form.toString();
}

const endpoints = async (apiKey = sandbox.seed.apiKey) =>
  (await call(sandbox, 'GET', '/v1/webhook-events', { apiKey })).body as { id: string; url: string; name: string }[];

/** Registers the receiver on the seeded business from the page, listening to `events`. */
async function addReceiver(session: { cookie: string; csrf: string }, events = ['charge.created']) {
  const added = await browse('/dashboard/webhooks/endpoints', {
    cookie: session.cookie,
    form: endpointForm({
      business_id: sandbox.seed.businessId,
      csrf: session.csrf,
      name: 'Receiver',
      url: receiver.url,
      events,
    }),
  });
  expect(added.status).toBe(303);
  return (await endpoints())[0]!;
}

/** A paid payment request of the seeded business: its `charge.created` goes to the endpoints listening. */
async function pay() {
  const created = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 12.5, currency: 'SGD' } });
  const paid = await call(sandbox, 'POST', `/_sandbox/payment-requests/${created.body.id}/pay`, {
    json: { outcome: 'succeeded' },
  });
  expect(paid.status).toBe(200);
}

describe('API keys', () => {
  it('shows an Owner each business key, labelled and read-only, and says what the salt is for', async () => {
    const cookie = await signInAs(SEED_USER.email);
    const page = await browse('/dashboard/api-keys', { cookie });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).toContain('Demo Store');
    for (const [label, value] of [
      ['Business id', sandbox.seed.businessId],
      ['API key', sandbox.seed.apiKey],
      ['Salt', sandbox.seed.salt],
      ['Platform key', sandbox.seed.platformKey],
    ] as const) {
      const id = new RegExp(`<label for="([^"]+)">${label}</label>`).exec(page.text)?.[1];
      expect(id, label).toBeDefined();
      expect(page.text).toMatch(new RegExp(`id="${id}"[^>]*value="${value}"[^>]*readonly`));
    }
    expect(page.text).toContain("paykit's <code>webhookSalt</code>: it signs the webhooks of this business");
    expect(page.text).toContain('<a href="/dashboard/api-keys" aria-current="page">API keys</a>');
    // The connected-apps page (the dashboard's home) links to both new pages.
    const home = await browse('/dashboard/connected-apps', { cookie });
    expect(home.text).toContain('<a href="/dashboard/api-keys">API keys</a>');
    expect(home.text).toContain('<a href="/dashboard/webhooks">Webhooks</a>');
  });

  it('shows no key to a member, nor another business key to its owner, and sends a visitor to sign in', async () => {
    await addMember(sandbox);
    const member = await browse('/dashboard/api-keys', { cookie: await signInAs(MEMBER_EMAIL) });
    expect(member.status).toBe(403);
    expect(member.text).not.toContain(sandbox.seed.salt);
    expect(member.text).not.toContain(sandbox.seed.apiKey);

    const other = await createBusiness(sandbox, { name: 'Harbour Cafe' });
    await createUser(sandbox, { email: 'owner@harbour.test', name: 'Hana', businessId: other.id, role: 'admin' });
    const theirs = await browse('/dashboard/api-keys', { cookie: await signInAs('owner@harbour.test') });
    expect(theirs.status).toBe(200);
    expect(theirs.text).toContain(other.salt);
    expect(theirs.text).not.toContain('Demo Store');
    expect(theirs.text).not.toContain(sandbox.seed.salt);
    expect(theirs.text).not.toContain(sandbox.seed.apiKey);
    // A business without a platform key shows no platform key field.
    expect(theirs.text).not.toContain('Platform key');

    const visitor = await browse('/dashboard/api-keys');
    expect(visitor.status).toBe(303);
    expect(visitor.location).toBe(`/dashboard/sign-in?next=${encodeURIComponent('/dashboard/api-keys')}`);
  });
});

describe('webhook endpoints from the page', () => {
  it('adds an endpoint from the form (the API lists it), says so, and Remove removes it', async () => {
    const session = await owner();
    const added = await browse('/dashboard/webhooks/endpoints', {
      cookie: session.cookie,
      form: endpointForm({
        business_id: sandbox.seed.businessId,
        csrf: session.csrf,
        name: 'Orders',
        url: receiver.url,
        events: ['charge.created', 'payment_request.completed'],
      }),
    });
    expect(added.status).toBe(303);
    expect(added.location).toBe('/dashboard/webhooks?done=endpoint_added');
    const listed = (await call(sandbox, 'GET', '/v1/webhook-events')).body;
    expect(listed).toMatchObject([
      { name: 'Orders', url: receiver.url, event_types: ['charge.created', 'payment_request.completed'] },
    ]);

    const shown = await browse(added.location!, { cookie: session.cookie });
    expect(shown.text).toContain('role="status">Endpoint added');
    expect(shown.text).toContain(`<code>${receiver.url}</code>`);
    expect(shown.text).toContain('charge.created, payment_request.completed');

    const removed = await browse('/dashboard/webhooks/endpoints/remove', {
      cookie: session.cookie,
      form: { business_id: sandbox.seed.businessId, csrf: session.csrf, endpoint_id: listed[0].id },
    });
    expect(removed.location).toBe('/dashboard/webhooks?done=endpoint_removed');
    expect(await endpoints()).toEqual([]);
  });

  it('shows a bad URL and a missing event next to their fields (422), keeps what was typed, registers nothing', async () => {
    const session = await owner();
    const answer = await browse('/dashboard/webhooks/endpoints', {
      cookie: session.cookie,
      form: endpointForm({
        business_id: sandbox.seed.businessId,
        csrf: session.csrf,
        name: 'Kept name',
        url: 'http://example.com/hook',
        events: [],
      }),
    });
    expect(answer.status).toBe(422);
    const urlId = `endpoint-url-${sandbox.seed.businessId}`;
    expect(answer.text).toMatch(new RegExp(`id="${urlId}"[^>]*aria-invalid="true" aria-describedby="${urlId}-error`));
    expect(answer.text).toContain(
      `<p class="field-error" id="${urlId}-error">URL must be an https URL (http only for localhost).</p>`,
    );
    expect(answer.text).toContain('Events must name at least one event.');
    expect(answer.text).toContain('value="Kept name"');
    expect(answer.text).toContain('value="http://example.com/hook"');
    expect(await endpoints()).toEqual([]);
  });

  it('escapes what an endpoint was named', async () => {
    const session = await owner();
    await browse('/dashboard/webhooks/endpoints', {
      cookie: session.cookie,
      form: endpointForm({
        business_id: sandbox.seed.businessId,
        csrf: session.csrf,
        name: '<img src=x onerror=alert(1)>',
        url: receiver.url,
        events: ['charge.created'],
      }),
    });
    const page = await browse('/dashboard/webhooks', { cookie: session.cookie });
    expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(page.text).not.toContain('<img src=x');
  });

  it('changes nothing for a form posted cross-site, without or with a wrong CSRF token, or for another business', async () => {
    const session = await owner();
    const endpoint = await addReceiver(session);
    const other = await createBusiness(sandbox, { name: 'Harbour Cafe' });
    const add = (overrides: Record<string, string>) =>
      endpointForm({
        business_id: sandbox.seed.businessId,
        csrf: session.csrf,
        name: 'Forged',
        url: 'https://evil.example/hook',
        events: ['charge.created'],
        ...overrides,
      });
    const remove = (overrides: Record<string, string>) => ({
      business_id: sandbox.seed.businessId,
      csrf: session.csrf,
      endpoint_id: endpoint.id,
      ...overrides,
    });
    const attempts = [
      { form: add({}), headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' } },
      { form: add({}), headers: { origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'same-site' } },
      { form: add({ csrf: '' }) },
      { form: add({ csrf: 'guess' }) },
      { form: add({ csrf: 'é'.repeat(32) }) },
      { form: add({ business_id: other.id }) },
    ];
    for (const { form, headers } of attempts) {
      const answer = await browse('/dashboard/webhooks/endpoints', { cookie: session.cookie, form, headers });
      expect(answer.status, form).toBe(403);
      expect(answer.location).toBeNull();
    }
    for (const overrides of [{ csrf: 'guess' }, { business_id: other.id }] as Record<string, string>[]) {
      const answer = await browse('/dashboard/webhooks/endpoints/remove', {
        cookie: session.cookie,
        form: remove(overrides),
      });
      expect(answer.status).toBe(403);
    }
    const crossSiteRemove = await browse('/dashboard/webhooks/endpoints/remove', {
      cookie: session.cookie,
      form: remove({}),
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSiteRemove.status).toBe(403);
    // Without a session, the form is refused whatever it says.
    expect((await browse('/dashboard/webhooks/endpoints/remove', { form: remove({}) })).status).toBe(403);
    expect(await endpoints()).toEqual([expect.objectContaining({ id: endpoint.id, url: receiver.url })]);
    expect(await endpoints(other.api_key)).toEqual([]);
  });

  it('shows a member neither endpoints nor deliveries, and refuses the forms a member posts with a real token', async () => {
    const session = await owner();
    await addReceiver(session);
    await addMember(sandbox);
    const cookie = await signInAs(MEMBER_EMAIL);
    const page = await browse('/dashboard/webhooks', { cookie });
    expect(page.status).toBe(403);
    expect(page.text).not.toContain(receiver.url);
    expect(page.text).not.toContain('name="csrf"');
    const token = sandbox.context.oauth.sessions.get(cookie.split('=')[1]!)!.csrf;
    const forced = await browse('/dashboard/webhooks/endpoints', {
      cookie,
      form: endpointForm({
        business_id: sandbox.seed.businessId,
        csrf: token,
        name: 'Clerk hook',
        url: 'https://evil.example/hook',
        events: ['charge.created'],
      }),
    });
    expect(forced.status).toBe(403);
    const armed = await browse('/dashboard/webhooks/faults', {
      cookie,
      form: { csrf: token, kind: 'duplicate', count: '1' },
    });
    expect(armed.status).toBe(403);
    expect(await endpoints()).toHaveLength(1);
  });

  it('shows only fixed notices: a ?done= it does not know shows nothing', async () => {
    const session = await owner();
    const page = await browse(`/dashboard/webhooks?done=${encodeURIComponent('<script>alert(1)</script>')}`, {
      cookie: session.cookie,
    });
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('alert(1)');
    expect(page.text).not.toContain('class="notice"');
    const inherited = await browse('/dashboard/webhooks?done=toString', { cookie: session.cookie });
    expect(inherited.text).not.toContain('class="notice"');
  });
});

describe('deliveries, test events and faults from the page', () => {
  it('lists a delivery with its request and attempts; Redeliver sends it again as one more attempt', async () => {
    const session = await owner();
    await addReceiver(session);
    await pay();
    await receiver.waitFor(1);
    await sandbox.context.webhooks.idle();
    const page = await browse('/dashboard/webhooks', { cookie: session.cookie });
    expect(page.text).toContain('<code>charge.created</code> <span class="badge">delivered</span>');
    expect(page.text).toMatch(/hitpay-signature: [0-9a-f]{64}/i);
    expect(page.text).toContain('HTTP 200');
    const [delivery] = sandbox.context.webhooks.deliveries;
    expect(delivery?.attempts).toBe(1);

    const redelivered = await browse('/dashboard/webhooks/deliveries/redeliver', {
      cookie: session.cookie,
      form: { business_id: sandbox.seed.businessId, csrf: session.csrf, delivery_id: delivery!.id },
    });
    expect(redelivered.location).toBe('/dashboard/webhooks?done=redelivered');
    const [first, second] = await receiver.waitFor(2);
    expect(second!.body).toBe(first!.body);
    await sandbox.context.webhooks.idle();
    expect(delivery!.attempts).toBe(2);
    expect(delivery!.history).toHaveLength(2);
  });

  it('does not redeliver another business delivery, nor one posted without the token', async () => {
    const session = await owner();
    await addReceiver(session);
    await pay();
    await receiver.waitFor(1);
    await sandbox.context.webhooks.idle();
    const [delivery] = sandbox.context.webhooks.deliveries;
    const other = await createBusiness(sandbox, { name: 'Harbour Cafe' });
    await createUser(sandbox, { email: 'owner@harbour.test', name: 'Hana', businessId: other.id });
    const theirs = await signInAs('owner@harbour.test');
    const theirCsrf = csrfOf((await browse('/dashboard/webhooks', { cookie: theirs })).text);
    // Their own business named: the delivery is not theirs, so it is "gone" to them.
    const named = await browse('/dashboard/webhooks/deliveries/redeliver', {
      cookie: theirs,
      form: { business_id: other.id, csrf: theirCsrf, delivery_id: delivery!.id },
    });
    expect(named.location).toBe('/dashboard/webhooks?done=delivery_gone');
    const claimed = await browse('/dashboard/webhooks/deliveries/redeliver', {
      cookie: theirs,
      form: { business_id: sandbox.seed.businessId, csrf: theirCsrf, delivery_id: delivery!.id },
    });
    expect(claimed.status).toBe(403);
    const noToken = await browse('/dashboard/webhooks/deliveries/redeliver', {
      cookie: session.cookie,
      form: { business_id: sandbox.seed.businessId, delivery_id: delivery!.id },
    });
    expect(noToken.status).toBe(403);
    await sandbox.context.webhooks.idle();
    expect(delivery!.attempts).toBe(1);
    expect(receiver.requests).toHaveLength(1);
  });

  it('Send test event says so when the business has no charge, and delivers the latest charge once it has', async () => {
    const session = await owner();
    const endpoint = await addReceiver(session);
    const test = () =>
      browse('/dashboard/webhooks/endpoints/test', {
        cookie: session.cookie,
        form: { business_id: sandbox.seed.businessId, csrf: session.csrf, endpoint_id: endpoint.id },
      });
    const refused = await test();
    expect(refused.location).toBe('/dashboard/webhooks?done=no_charge');
    const page = await browse(refused.location!, { cookie: session.cookie });
    expect(page.status).toBe(200);
    expect(page.text).toContain('role="alert">No test event sent');
    expect(page.text).toContain('it has no charge yet');
    expect(sandbox.context.webhooks.deliveries).toHaveLength(0);

    await pay();
    await receiver.waitFor(1);
    const sent = await test();
    expect(sent.location).toBe('/dashboard/webhooks?done=test_sent');
    const [paid, tested] = await receiver.waitFor(2);
    expect(tested!.headers['hitpay-event-type']).toBe('created');
    expect(JSON.parse(tested!.body).id).toBe(JSON.parse(paid!.body).id);
  });

  it('arms a duplicate from the page: the receiver gets the next delivery twice', async () => {
    const session = await owner();
    await addReceiver(session);
    const armed = await browse('/dashboard/webhooks/faults', {
      cookie: session.cookie,
      form: { csrf: session.csrf, kind: 'duplicate', count: '1' },
    });
    expect(armed.location).toBe('/dashboard/webhooks?done=armed_duplicate');
    await pay();
    const [first, second] = await receiver.waitFor(2);
    expect(second!.body).toBe(first!.body);
    await sandbox.context.webhooks.idle();
    expect(sandbox.context.webhooks.deliveries).toHaveLength(1);
  });

  it('refuses a fault form with a bad count (422, the error next to the field) and arms nothing', async () => {
    const session = await owner();
    await addReceiver(session);
    const answer = await browse('/dashboard/webhooks/faults', {
      cookie: session.cookie,
      form: { csrf: session.csrf, kind: 'out_of_order', count: '1' },
    });
    expect(answer.status).toBe(422);
    expect(answer.text).toContain(
      '<p class="field-error" id="fault-out_of_order-count-error">Deliveries to hold and reverse must be at least 2.</p>',
    );
    expect(answer.text).toMatch(/id="fault-out_of_order-count"[^>]*value="1"/);
    const unknown = await browse('/dashboard/webhooks/faults', {
      cookie: session.cookie,
      form: { csrf: session.csrf, kind: 'drop_everything', count: '1' },
    });
    expect(unknown.status).toBe(400);
    const crossSite = await browse('/dashboard/webhooks/faults', {
      cookie: session.cookie,
      form: { csrf: session.csrf, kind: 'duplicate', count: '1' },
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    // Nothing armed: one payment, one request, sent at once (out_of_order would hold it for a second).
    await pay();
    await receiver.waitFor(1, 500);
    await sandbox.context.webhooks.idle();
    expect(receiver.requests).toHaveLength(1);
  });

  it('cuts a body at a character boundary, never inside a character', () => {
    expect(cutToBytes('ééé', 3)).toEqual({ shown: 'é', bytes: 6, cut: true });
    expect(cutToBytes('a€', 3)).toEqual({ shown: 'a', bytes: 4, cut: true });
    expect(cutToBytes('short', 3_000)).toEqual({ shown: 'short', bytes: 5, cut: false });
  });

  it('cuts a long request body to a few KiB on the page, and says so', async () => {
    const session = await owner();
    const body = JSON.stringify({ id: 'ch_long', note: 'x'.repeat(3 * SHOWN_BODY_BYTES) });
    sandbox.context.webhooks.send({
      format: 'event',
      event: 'charge.created',
      business_id: sandbox.seed.businessId,
      endpoint_id: null,
      url: receiver.url,
      request: { headers: { 'content-type': 'application/json' }, body },
    });
    await receiver.waitFor(1);
    const page = await browse('/dashboard/webhooks', { cookie: session.cookie });
    expect(page.text).toContain('x'.repeat(SHOWN_BODY_BYTES - 100));
    expect(page.text).not.toContain('x'.repeat(SHOWN_BODY_BYTES));
    expect(page.text).toContain('Showing the first 4.0 KiB of 12.0 KiB');
  });
});
