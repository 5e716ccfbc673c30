import { call } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());
beforeEach(() => call(sandbox, 'POST', '/_sandbox/reset'));

const NO_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/;

describe('POST /v1/payment-requests', () => {
  it('creates from a form body with payment_methods[] and answers as spec 2.7', async () => {
    const { status, body } = await call(sandbox, 'POST', '/v1/payment-requests', {
      form: 'amount=12.5&currency=SGD&email=shopper%40example.test&purpose=Order+42&redirect_url=https%3A%2F%2Fshop.test%2Freturn&payment_methods[]=paynow_online&payment_methods[]=card',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      amount: '12.50',
      currency: 'sgd',
      email: 'shopper@example.test',
      purpose: 'Order 42',
      redirect_url: 'https://shop.test/return',
      payment_methods: ['paynow_online', 'card'],
      status: 'pending',
      allow_repeated_payments: false,
      url: `${sandbox.url}/checkout/${body.id}`,
    });
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(body.created_at).toMatch(NO_OFFSET);
    expect(body.updated_at).toMatch(NO_OFFSET);
  });

  it('creates from a JSON body', async () => {
    const { status, body } = await call(sandbox, 'POST', '/v1/payment-requests', {
      json: { amount: '0.30', currency: 'usd' },
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ amount: '0.30', currency: 'usd', status: 'pending' });
  });

  it.each([
    ['no key', null],
    ['a wrong key', 'sk_sandbox_wrong'],
  ])('answers 401 { message } with %s', async (_, apiKey) => {
    const { status, body } = await call(sandbox, 'POST', '/v1/payment-requests', {
      apiKey,
      json: { amount: 1, currency: 'SGD' },
    });
    expect(status).toBe(401);
    expect(body.message).toMatch(/X-BUSINESS-API-KEY/);
  });

  it('answers 422 with each field error', async () => {
    const { status, body } = await call(sandbox, 'POST', '/v1/payment-requests', {
      json: { amount: 1.005, currency: 'SG', webhook: 'javascript:alert(1)' },
    });
    expect(status).toBe(422);
    expect(body.code).toBe('validation_failed');
    expect(Object.keys(body.errors)).toEqual(['amount', 'currency', 'webhook']);
  });

  it("accepts, validates and echoes the real service's documented fields", async () => {
    const { status, body, headers } = await call(sandbox, 'POST', '/v1/payment-requests', {
      json: {
        amount: '10.00',
        currency: 'SGD',
        name: 'Harvey Friesen',
        phone: '+6591234567',
        reference_number: 'ORDER-1747817845',
        send_email: 'true',
        send_sms: 'false',
        expiry_date: '2030-05-26 15:10:00',
        allow_repeated_payments: 'true',
        add_admin_fee: 'false',
        generate_qr: false,
        address: {
          line1: '177 River Valley Road',
          city: 'Singapore',
          state: 'Central',
          country: 'SG',
          postal_code: '179030',
        },
        metadata: { car_model: 'toyota' },
        staff_id: '98888a24-d6b2-430d-9063-d2be76d443cd',
        location_id: '9dd07721-d215-4947-9c79-2b8ec25f69db',
      },
    });
    expect(status).toBe(200);
    expect(headers.get('x-sandbox-warning')).toBeNull();
    expect(body).toMatchObject({
      name: 'Harvey Friesen',
      phone: '+6591234567',
      reference_number: 'ORDER-1747817845',
      send_email: true,
      send_sms: false,
      expiry_date: '2030-05-26T15:10:00',
      allow_repeated_payments: true,
      address: { line1: '177 River Valley Road', postal_code: '179030' },
      metadata: { car_model: 'toyota' },
      staff_id: '98888a24-d6b2-430d-9063-d2be76d443cd',
      business_location_id: '9dd07721-d215-4947-9c79-2b8ec25f69db',
    });
    expect((await call(sandbox, 'GET', `/v1/payment-requests/${body.id}`)).body).toEqual({ ...body, payments: [] });
  });

  it('answers metadata as an object, empty when none was sent, as the OpenAPI types it', async () => {
    const { body } = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 5, currency: 'SGD' } });
    expect(body.metadata).toEqual({});
    expect((await call(sandbox, 'GET', `/v1/payment-requests/${body.id}`)).body.metadata).toEqual({});
    const listed = await call(sandbox, 'GET', '/v1/payment-requests');
    expect(listed.body.data.find((r: { id: string }) => r.id === body.id)?.metadata).toEqual({});
    const updated = await call(sandbox, 'PUT', `/v1/payment-requests/${body.id}`, {
      json: { amount: 6, currency: 'SGD', metadata: { car_color: 'red' } },
    });
    expect(updated.body.metadata).toEqual({ car_color: 'red' });
  });

  it('takes expires_after as a delay from now, in Singapore time', async () => {
    const before = Date.now();
    const { body } = await call(sandbox, 'POST', '/v1/payment-requests', {
      form: 'amount=5&currency=SGD&expires_after=30+mins&send_email=true',
    });
    const expiry = Date.parse(`${body.expiry_date}+08:00`);
    expect(expiry - before).toBeGreaterThanOrEqual(30 * 60_000 - 1000);
    expect(expiry - before).toBeLessThan(31 * 60_000);
    expect(body.send_email).toBe(true);
  });

  it('reads address[...] and metadata[...] from a form body as a JSON body sends them', async () => {
    const { status, body } = await call(sandbox, 'POST', '/v1/payment-requests', {
      form: 'amount=5&currency=SGD&address[line1]=1+Main+St&address[city]=Singapore&address[state]=Central&address[country]=SG&address[postal_code]=179030&metadata[car_model]=toyota',
    });
    expect(status).toBe(200);
    expect(body.address).toEqual({
      line1: '1 Main St',
      city: 'Singapore',
      state: 'Central',
      country: 'SG',
      postal_code: '179030',
    });
    expect(body.metadata).toEqual({ car_model: 'toyota' });
    const twice = await call(sandbox, 'POST', '/v1/payment-requests', {
      form: 'amount=5&currency=SGD&metadata=x&metadata[a]=b',
    });
    expect([twice.status, twice.body.code]).toEqual([400, 'duplicate_parameter']);
    const hostile = await call(sandbox, 'POST', '/v1/payment-requests', {
      form: 'amount=5&currency=SGD&metadata[__proto__]=x',
    });
    expect(hostile.status).toBe(422);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });

  it('refuses a documented field with a wrong value, naming it', async () => {
    const { status, body } = await call(sandbox, 'POST', '/v1/payment-requests', {
      json: {
        amount: 5,
        currency: 'SGD',
        send_sms: 'yes',
        expiry_date: '26/05/2030',
        expires_after: 'soon',
        address: { line1: 'x' },
      },
    });
    expect(status).toBe(422);
    expect(JSON.stringify(body)).toMatch(/send_sms/);
    expect(JSON.stringify(body)).toMatch(/expiry_date/);
    expect(JSON.stringify(body)).toMatch(/expires_after/);
    expect(JSON.stringify(body)).toMatch(/address\.city/);
  });

  it('ignores fields nobody documents and names them in X-Sandbox-Warning', async () => {
    const one = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 5, amout: 6, currency: 'SGD' } });
    expect(one.status).toBe(200);
    expect(one.headers.get('x-sandbox-warning')).toBe('ignored unknown field "amout"');
    expect(one.body.amount).toBe('5.00');
    expect(one.body).not.toHaveProperty('amout');
    const many = await call(sandbox, 'POST', '/v1/payment-requests', {
      form: 'amount=5&currency=SGD&colour=red&caf%C3%A9=1',
    });
    expect(many.status).toBe(200);
    expect(many.headers.get('x-sandbox-warning')).toBe('ignored unknown fields "colour", "caf\\u00e9"');
  });

  it('refuses a commission without a platform key', async () => {
    const { status, body } = await call(sandbox, 'POST', '/v1/payment-requests', {
      json: { amount: 10, currency: 'SGD', platform_commission_amount: 1 },
    });
    expect(status).toBe(422);
    expect(body.errors).toEqual({ platform_commission_amount: ['needs a valid X-PLATFORM-KEY'] });
  });

  it("answers a 422's field errors by field, the real service's shape, a prototype-like name included", async () => {
    const { status, body } = await call(sandbox, 'POST', '/v1/payment-requests', {
      form: 'amount=1&currency=SGD&__proto__=x',
    });
    expect(status).toBe(422);
    expect(body).toMatchObject({ message: 'Form field "__proto__" is not allowed', code: 'validation_failed' });
    // An own key of the answer (a plain `{}` assigned `errors['__proto__']` would have sent `{}`).
    expect(Object.keys(body.errors)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(body.errors, '__proto__')?.value).toEqual(['is not allowed']);
  });

  it('answers 400 to malformed JSON, 413 to a huge body and 415 to another media type', async () => {
    const post = (type: string, body: string) =>
      fetch(`${sandbox.url}/v1/payment-requests`, {
        method: 'POST',
        headers: { 'x-business-api-key': sandbox.seed.apiKey, 'content-type': type },
        body,
      }).then(async (r) => [r.status, ((await r.json()) as { code: string }).code]);
    expect(await post('text/plain', 'amount=1')).toEqual([415, 'unsupported_media_type']);
    expect(await post('application/json', '{"amount":')).toEqual([400, 'invalid_json']);
    expect(await post('application/json', '[1,2]')).toEqual([400, 'invalid_json']);
    const huge = await call(sandbox, 'POST', '/v1/payment-requests', { json: { purpose: 'x'.repeat(70_000) } });
    expect([huge.status, huge.body.code]).toEqual([413, 'payload_too_large']);
  });

  it('refuses a duplicated form field instead of picking one', async () => {
    const { status, body } = await call(sandbox, 'POST', '/v1/payment-requests', {
      form: 'amount=1&amount=1000&currency=SGD',
    });
    expect([status, body.code]).toEqual([400, 'duplicate_parameter']);
  });
});

describe('reading, listing and canceling', () => {
  async function other() {
    const { body } = await call(sandbox, 'POST', '/_sandbox/businesses', {
      json: { name: 'Other', country: 'SG', currency: 'SGD' },
    });
    return body.api_key as string;
  }

  it('reads its own request and answers 404 for another business', async () => {
    const created = (await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 5, currency: 'SGD' } }))
      .body;
    // The read of one request also lists its payments (none yet), as the service's "Get Payment Request Status".
    expect((await call(sandbox, 'GET', `/v1/payment-requests/${created.id}`)).body).toEqual({
      ...created,
      payments: [],
    });
    const foreign = await call(sandbox, 'GET', `/v1/payment-requests/${created.id}`, { apiKey: await other() });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe('Payment request not found');
  });

  it("lists a read request's payments in the service's documented shape, a failed attempt and the paid one", async () => {
    const created = (await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 5, currency: 'SGD' } }))
      .body;
    await call(sandbox, 'POST', `/_sandbox/payment-requests/${created.id}/pay`, { json: { outcome: 'succeeded' } });
    const read = await call(sandbox, 'GET', `/v1/payment-requests/${created.id}`);
    expect(read.body.status).toBe('completed');
    expect(read.body.payments).toEqual([
      {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        quantity: 1,
        status: 'succeeded',
        buyer_name: null,
        buyer_phone: null,
        buyer_email: null,
        currency: 'sgd',
        amount: '5.00',
        refunded_amount: '0.00',
        payment_type: 'paynow_online',
        fees: expect.stringMatching(/^\d+\.\d\d$/),
        created_at: read.body.updated_at,
        updated_at: read.body.updated_at,
      },
    ]);
    // The charge is the one the charges API has, and the list does not carry payments.
    const charge = await call(sandbox, 'GET', `/v1/charges/${read.body.payments[0].id}`);
    expect(charge.body).toMatchObject({ payment_request_id: created.id, status: 'succeeded' });
    const listed = await call(sandbox, 'GET', '/v1/payment-requests');
    expect(listed.body.data[0]).not.toHaveProperty('payments');
  });

  it('lists newest first, one business only, with cursors both ways', async () => {
    const ids: string[] = [];
    for (let i = 1; i <= 5; i += 1) {
      ids.unshift(
        (await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: i, currency: 'SGD' } })).body.id,
      );
    }
    await call(sandbox, 'POST', '/v1/payment-requests', {
      apiKey: await other(),
      json: { amount: 9, currency: 'SGD' },
    });
    const first = (await call(sandbox, 'GET', '/v1/payment-requests?per_page=2')).body;
    expect(first.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(0, 2));
    // The real service's cursor-list shape: per_page a number, links to the neighbouring pages, the path.
    expect(first.meta).toEqual({
      path: `${sandbox.url}/v1/payment-requests`,
      per_page: 2,
      next_cursor: expect.any(String),
      prev_cursor: null,
    });
    expect(first.links).toEqual({
      first: null,
      last: null,
      prev: null,
      next: `${sandbox.url}/v1/payment-requests?per_page=2&cursor=${first.meta.next_cursor}`,
    });
    const second = (await call(sandbox, 'GET', `/v1/payment-requests?per_page=2&cursor=${first.meta.next_cursor}`))
      .body;
    expect(second.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(2, 4));
    const back = (await call(sandbox, 'GET', `/v1/payment-requests?per_page=2&cursor=${second.meta.prev_cursor}`)).body;
    expect(back.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(0, 2));
    const last = (await call(sandbox, 'GET', `/v1/payment-requests?per_page=2&cursor=${second.meta.next_cursor}`)).body;
    expect(last.data.map((r: { id: string }) => r.id)).toEqual(ids.slice(4));
    expect(last.meta.next_cursor).toBeNull();
    expect((await call(sandbox, 'GET', '/v1/payment-requests?per_page=101')).status).toBe(422);
    // Without per_page, 10 a page: the real service's default for this list.
    expect((await call(sandbox, 'GET', '/v1/payment-requests')).body.meta.per_page).toBe(10);
    expect((await call(sandbox, 'GET', '/v1/payment-requests?cursor=forged')).status).toBe(422);
  });

  it('cancels a pending request once, and not a completed one', async () => {
    const a = (await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 5, currency: 'SGD' } })).body;
    expect((await call(sandbox, 'DELETE', `/v1/payment-requests/${a.id}`)).body.status).toBe('canceled');
    expect((await call(sandbox, 'DELETE', `/v1/payment-requests/${a.id}`)).status).toBe(409);
    const b = (await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 5, currency: 'SGD' } })).body;
    await call(sandbox, 'POST', `/_sandbox/payment-requests/${b.id}/pay`, { json: { outcome: 'succeeded' } });
    const refused = await call(sandbox, 'DELETE', `/v1/payment-requests/${b.id}`);
    expect([refused.status, refused.body.message]).toEqual([409, 'A completed payment request cannot be canceled']);
  });
});
