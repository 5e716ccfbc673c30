/**
 * The dashboard's "Clock and events" page as a browser uses it (fetch with a cookie jar, redirects not followed):
 * an Owner reads each business's clock, moves it forward by a duration or to a date and time and sees what
 * happened on the way, sends an event on demand and sees the deliveries it made; the clock is read back through
 * the control API. Bad input is said next to its field and moves nothing; a member, a visitor, another business's
 * owner, a form without or with a wrong CSRF token, or posted from another site, is refused and changes nothing.
 * Deliveries go to a real HTTP receiver on 127.0.0.1.
 */
import { startHttpRecorder, type HttpRecorder } from '@paykit/test-support/http-recorder';
import { call } from '@paykit/test-support/sandbox-calls';
import { addMember, createBusiness, createUser, MEMBER_EMAIL } from '@paykit/test-support/sandbox-control';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SEED_USER } from '../oauth/oauth-state.js';
import { startSandbox, type RunningSandbox } from '../start.js';

let sandbox: RunningSandbox;
let receiver: HttpRecorder;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [] } });
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

const DAY_MS = 86_400_000;

/** One page load: no redirect followed, the session cookie kept; the text with `&#39;` and `&amp;` read back. */
async function browse(path: string, init: { cookie?: string; form?: Record<string, string>; headers?: object } = {}) {
  const body = init.form === undefined ? undefined : new URLSearchParams(init.form).toString();
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
  const text = (await response.text()).replaceAll('&#39;', "'").replaceAll('&amp;', '&');
  return { status: response.status, location: response.headers.get('location'), headers: response.headers, text };
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

/** A signed-in user with the clock page's CSRF token. */
async function session(email: string = SEED_USER.email) {
  const cookie = await signInAs(email);
  const csrf = csrfOf((await browse('/dashboard/clock', { cookie })).text);
  return { cookie, csrf };
}

/** The business's clock through the control API, epoch ms. */
const clockOf = async (businessId = sandbox.seed.businessId) => {
  const answer = await call(sandbox, 'GET', `/_sandbox/businesses/${businessId}/clock`);
  expect(answer.status).toBe(200);
  return Date.parse(answer.body.now as string);
};

/** The text of the paragraph that holds a field's error, by the control's label. */
function fieldErrorOf(text: string, label: string): string | undefined {
  const id = new RegExp(`<label for="([^"]+)">${label}</label>`).exec(text)?.[1];
  expect(id, label).toBeDefined();
  const control = new RegExp(`id="${id}"[^>]*>`).exec(text)?.[0] ?? '';
  if (!control.includes('aria-invalid="true"')) return undefined;
  return new RegExp(`<p class="field-error" id="${id}-error">([^<]*)</p>`).exec(text)?.[1];
}

const advance = (who: { cookie: string; csrf: string }, fields: Record<string, string>) =>
  browse('/dashboard/clock/advance', {
    cookie: who.cookie,
    form: { business_id: sandbox.seed.businessId, csrf: who.csrf, ...fields },
  });

const trigger = (who: { cookie: string; csrf: string }, fields: Record<string, string>) =>
  browse('/dashboard/clock/trigger', {
    cookie: who.cookie,
    form: { business_id: sandbox.seed.businessId, csrf: who.csrf, ...fields },
  });

describe('the clock page', () => {
  it("shows an Owner each business's clock and how far ahead of real time it is, in the dashboard's nav", async () => {
    const owner = await session();
    const fresh = await browse('/dashboard/clock', { cookie: owner.cookie });
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(fresh.headers.get('cache-control')).toBe('no-store');
    expect(fresh.text).toContain('<a href="/dashboard/clock" aria-current="page">Clock and events</a>');
    expect(fresh.text).toContain('<h2 id="clock-' + sandbox.seed.businessId + '">Demo Store</h2>');
    expect(fresh.text).toContain('On real time (never advanced)');
    // The clock shown is the control API's, to the second.
    const shown = /<dt>Now<\/dt>\s*<dd><time datetime="([^"]+)">/.exec(fresh.text)?.[1];
    expect(Math.abs(Date.parse(shown!) - (await clockOf()))).toBeLessThan(2_000);

    await call(sandbox, 'POST', `/_sandbox/businesses/${sandbox.seed.businessId}/clock/advance`, {
      json: { seconds: 30 * 86_400 },
    });
    const later = await browse('/dashboard/clock', { cookie: owner.cookie });
    expect(later.text).toContain('30 days ahead of real time');
    const home = await browse('/dashboard/connected-apps', { cookie: owner.cookie });
    expect(home.text).toContain('<a href="/dashboard/clock">Clock and events</a>');
  });

  it('advances by a duration from the form: the clock moved and the page shows what happened on the way', async () => {
    const owner = await session();
    const made = await call(sandbox, 'POST', '/v1/payment-requests', {
      json: { amount: 20, currency: 'SGD', expires_after: '30 mins' },
    });
    expect(made.status).toBe(200);
    const before = await clockOf();
    const page = await advance(owner, { amount: '2', unit: 'hours' });
    expect(page.status).toBe(200);
    const after = await clockOf();
    expect(after - before).toBeGreaterThanOrEqual(2 * 3_600_000);
    expect(after - before).toBeLessThan(2 * 3_600_000 + 5_000);
    expect(page.text).toMatch(/<section class="notice" role="status"[^>]*>\s*<h2[^>]*>Clock advanced<\/h2>/);
    expect(page.text).toMatch(/Demo Store's clock moved 2 hours, from <time/);
    expect(page.text).toContain('1 thing happened on the way.');
    expect(page.text).toMatch(/<caption[^>]*>\s*What happened on the way, oldest first\s*<\/caption>/);
    const row =
      /<tr>\s*<td><time datetime="([^"]+)">[^<]*<\/time><\/td>\s*<td><code>([^<]+)<\/code><\/td>\s*<td><code>([^<]+)<\/code><\/td>\s*<td>([^<]+)<\/td>/.exec(
        page.text,
      );
    expect(row?.slice(2, 4)).toEqual(['payment_request.expired', made.body.id]);
    expect(Date.parse(row![1]!)).toBeGreaterThan(before);
    expect(row![4]!.trim().length).toBeGreaterThan(0);
    // What the page said happened did: the API answers the request expired.
    expect((await call(sandbox, 'GET', `/v1/payment-requests/${made.body.id as string}`)).body.status).toBe('expired');
    // The page shows the clock's new now, 2 hours ahead.
    expect(page.text).toContain('2 hours ahead of real time');
  });

  it('advances to a date and time typed in the datetime field (UTC), exactly there', async () => {
    const owner = await session();
    const target = new Date((await clockOf()) + 3 * DAY_MS).toISOString().slice(0, 16);
    const page = await advance(owner, { to: target });
    expect(page.status).toBe(200);
    // There, give or take the moments since (the clock keeps running, as real time does).
    expect((await clockOf()) - Date.parse(`${target}Z`)).toBeGreaterThanOrEqual(0);
    expect((await clockOf()) - Date.parse(`${target}Z`)).toBeLessThan(5_000);
    expect(page.text).toContain('Nothing fell due on the way.');
    // An ISO 8601 time with its offset is read as written.
    const nextDay = new Date(Date.parse(`${target}Z`) + DAY_MS).toISOString().slice(0, 10);
    const page2 = await advance(owner, { to: `${nextDay}T23:30:00+08:00` });
    expect(page2.status, page2.text).toBe(200);
    expect((await clockOf()) - Date.parse(`${nextDay}T15:30:00Z`)).toBeLessThan(5_000);
    expect((await clockOf()) - Date.parse(`${nextDay}T15:30:00Z`)).toBeGreaterThanOrEqual(0);
  });

  it('refuses bad advances next to their field and moves nothing: backwards, not a date, 0, an unknown unit, too far', async () => {
    const owner = await session();
    const before = await clockOf();
    const past = new Date(before - DAY_MS).toISOString().slice(0, 16);
    const cases = [
      [{ to: past }, 'Date and time \\(UTC\\)', /^Date and time must be after the business's now, \d{4}-.*Z\.$/],
      [
        { to: 'next tuesday' },
        'Date and time \\(UTC\\)',
        /^Date and time must be a date and time, e\.g\. 2027-01-31T09:00\.$/,
      ],
      [{ amount: '0', unit: 'days' }, 'Amount', /^Amount must be a whole number, 1 or more\.$/],
      [{ amount: '1.5', unit: 'days' }, 'Amount', /^Amount must be a whole number, 1 or more\.$/],
      [{ amount: '3', unit: 'years' }, 'Unit', /^Unit must be one of minutes, hours, days, weeks\.$/],
      [{ amount: '600', unit: 'weeks' }, 'Amount', /^Amount must be at most ten years after now\.$/],
    ] as const;
    for (const [fields, label, message] of cases) {
      const page = await advance(owner, fields);
      expect(page.status, JSON.stringify(fields)).toBe(422);
      expect(page.text).toContain('<p role="alert">The clock was not moved: correct the field marked below.</p>');
      expect(fieldErrorOf(page.text, label), JSON.stringify(fields)).toMatch(message);
      // What was typed is shown again.
      const typed = 'to' in fields ? fields.to : fields.amount;
      expect(page.text).toContain(`value="${typed}"`);
      expect(page.text).not.toContain('Clock advanced');
    }
    expect((await clockOf()) - before).toBeLessThan(5_000);
    expect(sandbox.context.clocks.offsetMs(sandbox.seed.businessId)).toBe(0);
  });
});

describe('sending an event from the page', () => {
  const registerReceiver = () =>
    call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
      json: { business_id: sandbox.seed.businessId, url: `${receiver.url}/hooks`, event_types: ['charge.created'] },
    });

  it('sends the chosen event about a fresh object to the endpoints listening and shows each delivery', async () => {
    expect((await registerReceiver()).status).toBe(201);
    const owner = await session();
    const page = await trigger(owner, { event_type: 'charge.created', object_id: '', url: '' });
    expect(page.status, page.text).toBe(200);
    const [delivered] = await receiver.waitFor(1);
    expect(delivered!.headers['hitpay-event-object']).toBe('charge');
    expect(delivered!.headers['hitpay-event-type']).toBe('created');
    const charge = JSON.parse(delivered!.body) as { id: string };
    expect(page.text).toMatch(/<section class="notice" role="status"[^>]*>\s*<h2[^>]*>Event sent<\/h2>/);
    expect(page.text).toMatch(
      new RegExp(
        `<code>charge.created</code> about charge\\s*<code>${charge.id}</code> \\(made for this event\\):\\s*1 delivery\\.`,
      ),
    );
    expect(page.text).toMatch(/<caption[^>]*>\s*Deliveries of charge.created, after their first attempt\s*<\/caption>/);
    expect(page.text).toContain(`<td><code>${receiver.url}/hooks</code></td>`);
    expect(page.text).toContain('<td>delivered (HTTP 200)</td>');
    // It is in the delivery log like any other.
    const log = await call(sandbox, 'GET', '/_sandbox/webhook-deliveries');
    expect(log.body.map((d: { event: string; url: string }) => [d.event, d.url])).toEqual([
      ['charge.created', `${receiver.url}/hooks`],
    ]);
  });

  it('sends an existing object to the URL given, in every format the service uses for it', async () => {
    const owner = await session();
    const made = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 12.5, currency: 'SGD' } });
    await call(sandbox, 'POST', `/_sandbox/payment-requests/${made.body.id as string}/pay`, {
      json: { outcome: 'succeeded' },
    });
    const page = await trigger(owner, {
      event_type: 'payment_request.completed',
      object_id: made.body.id as string,
      url: `${receiver.url}/direct`,
    });
    expect(page.status, page.text).toBe(200);
    expect(page.text).not.toContain('made for this event');
    expect(page.text).toContain('2 deliveries.');
    expect(page.text).toContain('<td>Payment notification (form, hmac)</td>');
    expect(page.text).toContain('<td>Event webhook (JSON, Hitpay-Signature)</td>');
    const requests = await receiver.waitFor(2);
    expect(requests.every((request) => request.path === '/direct')).toBe(true);
  });

  it('refuses an unknown event type, another business object, a bad URL and nowhere to send, next to the field, sending nothing', async () => {
    const owner = await session();
    const other = await createBusiness(sandbox, { name: 'Harbour Cafe' });
    const theirs = await call(sandbox, 'POST', '/_sandbox/webhooks/trigger', {
      json: { business_id: other.id, event_type: 'charge.created', url: `${receiver.url}/theirs` },
    });
    expect(theirs.status).toBe(200);
    await receiver.waitFor(1);
    const logged = (await call(sandbox, 'GET', '/_sandbox/webhook-deliveries')).body.length as number;
    expect((await registerReceiver()).status).toBe(201);

    const unknown = await trigger(owner, { event_type: 'charge.exploded' });
    expect(unknown.status).toBe(422);
    expect(fieldErrorOf(unknown.text, 'Event type')).toMatch(/^Event type must be one of charge\.created, /);

    const foreign = await trigger(owner, { event_type: 'charge.created', object_id: theirs.body.object.id });
    expect(foreign.status).toBe(422);
    expect(fieldErrorOf(foreign.text, 'Object id \\(optional\\)')).toContain(
      `must name an object of this business of the event's kind (Business ${sandbox.seed.businessId} has no charge ${theirs.body.object.id as string})`,
    );
    expect(foreign.text).toContain(`value="${theirs.body.object.id as string}"`);

    const badUrl = await trigger(owner, { event_type: 'charge.created', url: 'http://example.com/hooks' });
    expect(badUrl.status).toBe(422);
    expect(fieldErrorOf(badUrl.text, 'URL \\(optional\\)')).toBe('URL must be an https URL (http only for localhost).');

    // Nobody listens to payout.created and no URL is given: said above the form, and nothing is made.
    const chargesBefore = sandbox.context.state.charges.size;
    const nowhere = await trigger(owner, { event_type: 'payout.created' });
    expect(nowhere.status).toBe(422);
    expect(nowhere.text).toMatch(
      /<p role="alert">The event was not sent: No endpoint of business [^<]+ listens to payout.created/,
    );
    expect(sandbox.context.state.charges.size).toBe(chargesBefore);

    for (const page of [unknown, foreign, badUrl, nowhere]) expect(page.text).not.toContain('Event sent');
    await sandbox.context.webhooks.idle();
    expect(receiver.requests).toHaveLength(1);
    expect((await call(sandbox, 'GET', '/_sandbox/webhook-deliveries')).body).toHaveLength(logged);
  });
});

describe('who may act', () => {
  it('sends a visitor to sign in, and refuses a member the page and both forms', async () => {
    const visitor = await browse('/dashboard/clock');
    expect(visitor.status).toBe(303);
    expect(visitor.location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fclock');

    await addMember(sandbox);
    const cookie = await signInAs(MEMBER_EMAIL);
    const page = await browse('/dashboard/clock', { cookie });
    expect(page.status).toBe(403);
    expect(page.text).toContain('Only an Owner or Admin of a business can see its clock and send its events.');
    expect(page.text).not.toContain('name="csrf"');
    // The member's own session token (no page shows a member one): the refusals below are the role's.
    const csrf = sandbox.context.oauth.sessions.get(cookie.slice(cookie.indexOf('=') + 1))!.csrf;
    const moved = await advance({ cookie, csrf }, { amount: '1', unit: 'days' });
    expect(moved.status).toBe(403);
    const sent = await trigger({ cookie, csrf }, { event_type: 'charge.created', url: receiver.url });
    expect(sent.status).toBe(403);
    expect(sandbox.context.clocks.offsetMs(sandbox.seed.businessId)).toBe(0);
    expect(sandbox.context.webhooks.deliveries).toHaveLength(0);
  });

  it('refuses a form without the CSRF token, with a wrong one, from another site, or naming another business', async () => {
    const owner = await session();
    const other = await createBusiness(sandbox, { name: 'Harbour Cafe' });
    await createUser(sandbox, { email: 'owner@harbour.test', name: 'Hana', businessId: other.id });
    const theirs = await session('owner@harbour.test');
    const attempts: { cookie: string; form: Record<string, string>; headers?: Record<string, string> }[] = [
      { cookie: owner.cookie, form: { business_id: sandbox.seed.businessId } },
      { cookie: owner.cookie, form: { business_id: sandbox.seed.businessId, csrf: `${owner.csrf}x` } },
      { cookie: owner.cookie, form: { business_id: sandbox.seed.businessId, csrf: theirs.csrf } },
      {
        cookie: owner.cookie,
        form: { business_id: sandbox.seed.businessId, csrf: owner.csrf },
        headers: { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' },
      },
      { cookie: theirs.cookie, form: { business_id: sandbox.seed.businessId, csrf: theirs.csrf } },
    ];
    for (const attempt of attempts) {
      const moved = await browse('/dashboard/clock/advance', {
        ...attempt,
        form: { ...attempt.form, amount: '1', unit: 'days' },
      });
      expect(moved.status, JSON.stringify(attempt)).toBe(403);
      expect(moved.text).toContain('<p role="alert">Only an Owner or Admin of the business');
      const sent = await browse('/dashboard/clock/trigger', {
        ...attempt,
        form: { ...attempt.form, event_type: 'charge.created', url: receiver.url },
      });
      expect(sent.status, JSON.stringify(attempt)).toBe(403);
    }
    expect(sandbox.context.clocks.offsetMs(sandbox.seed.businessId)).toBe(0);
    expect(sandbox.context.webhooks.deliveries).toHaveLength(0);
    // The same form with the token goes through: the refusals above were the token's, the site's and the role's.
    const moved = await advance(owner, { amount: '1', unit: 'days' });
    expect(moved.status).toBe(200);
    expect(sandbox.context.clocks.offsetMs(sandbox.seed.businessId)).toBeGreaterThan(DAY_MS - 5_000);
  });
});
