/**
 * Transfers and their estimate in the real service's shapes (its transfers OpenAPI): amounts on the source and
 * payment side, the exchange rate as text, the fee and who pays it, all agreeing with the balance ledger.
 */
import { call, errorFields } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

let sandbox: RunningSandbox;
let sgdBeneficiary: string;
let bdtBeneficiary: string;
const business = () => sandbox.seed.businessId;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  sgdBeneficiary = (
    await call(sandbox, 'POST', '/_sandbox/beneficiaries', {
      json: { business_id: business(), holder_name: 'Ann Lee', account_number: '12345678' },
    })
  ).body.id;
  // The control endpoint makes beneficiaries in the business's currency; a foreign one goes into the store.
  bdtBeneficiary = sandbox.context.state.resources.add('beneficiaries', business(), {
    status: 'approved',
    country: 'bd',
    currency: 'bdt',
    holder_name: 'Rahim',
    account_number: '1503201781283001',
    created_at: '2026-01-01T10:00:00+08:00',
    updated_at: '2026-01-01T10:00:00+08:00',
  }).id;
  // 100.00 paid: a balance of 96.10 after the 3.90 processing fee.
  const request = await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: 100, currency: 'SGD' } });
  await call(sandbox, 'POST', `/_sandbox/payment-requests/${request.body.id}/pay`, { json: { outcome: 'succeeded' } });
});
afterAll(() => sandbox.close());

const ledgerOf = (transferId: string) =>
  sandbox.context.state.ledger.entries.filter((e) => e.transferId === transferId);

describe('POST /v1/transfers/estimate', () => {
  it('quotes a same-currency transfer: rate 1, the 0.50 fee borne by the payer, nothing recorded', async () => {
    const before = sandbox.context.state.ledger.entries.length;
    const estimate = await call(sandbox, 'POST', '/v1/transfers/estimate', {
      json: { beneficiary_id: sgdBeneficiary, source_currency: 'sgd', source_amount: 10 },
    });
    expect(estimate.status).toBe(200);
    expect(estimate.body).toEqual({
      source_amount: 10,
      source_amount_fees: 0.5,
      source_currency: 'sgd',
      exchange_rate: '1',
      fx_pair: 'sgdsgd',
      payment_amount: 10,
      payment_amount_fees: 0.5,
      payment_currency: 'sgd',
      fee_payer: 'payer',
      fee_currency: 'sgd',
    });
    expect(sandbox.context.state.ledger.entries).toHaveLength(before);
    expect(sandbox.context.state.resources.list('transfers', business())).toHaveLength(0);
  });

  it('quotes across currencies from the amount the beneficiary receives', async () => {
    const estimate = await call(sandbox, 'POST', '/v1/transfers/estimate', {
      json: { beneficiary_id: bdtBeneficiary, source_currency: 'SGD', payment_amount: 1000 },
    });
    // 110 bdt / 1.30 sgd per dollar; 1000 bdt is 11.82 sgd; fee 1% + 3.00 = 3.12 sgd, 264 bdt.
    expect(estimate.body).toMatchObject({
      exchange_rate: '84.615385',
      fx_pair: 'sgdbdt',
      source_amount: 11.82,
      source_amount_fees: 3.12,
      payment_amount: 1000,
      payment_amount_fees: 264,
      payment_currency: 'bdt',
    });
  });

  it('names the missing fields, an unknown beneficiary and an unknown currency', async () => {
    const missing = await call(sandbox, 'POST', '/v1/transfers/estimate', { json: { beneficiary_id: sgdBeneficiary } });
    expect(missing.status).toBe(422);
    expect(errorFields(missing.body)).toEqual(['source_amount', 'source_currency']);
    const stranger = await call(sandbox, 'POST', '/v1/transfers/estimate', {
      json: { beneficiary_id: 'nobody', source_currency: 'sgd', source_amount: 1 },
    });
    expect(stranger.status).toBe(422);
    expect(errorFields(stranger.body)).toEqual(['beneficiary_id']);
    const exotic = await call(sandbox, 'POST', '/v1/transfers/estimate', {
      json: { beneficiary_id: sgdBeneficiary, source_currency: 'xyz', source_amount: 1 },
    });
    expect(exotic.status).toBe(422);
    expect(errorFields(exotic.body)).toEqual(['source_currency']);
  });
});

describe('POST /v1/transfers', () => {
  it('answers the service’s shape, matches its estimate and debits amount and fee with the transfer id', async () => {
    const body = { beneficiary_id: sgdBeneficiary, source_currency: 'sgd', source_amount: 20 };
    const estimate = (await call(sandbox, 'POST', '/v1/transfers/estimate', { json: body })).body;
    const created = await call(sandbox, 'POST', '/v1/transfers', { json: { ...body, remark: 'rent' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      beneficiary: { id: sgdBeneficiary, holder_name: 'Ann Lee', currency: 'sgd' },
      payment_currency: estimate.payment_currency,
      payment_amount: estimate.payment_amount,
      source_currency: estimate.source_currency,
      source_amount: estimate.source_amount,
      exchange_rate: estimate.exchange_rate,
      fee: { amount: estimate.source_amount_fees, currency: 'sgd', paid_by: 'payer' },
      remark: 'rent',
      reference: null,
      status: 'scheduled',
    });
    expect(created.body.created_at).toMatch(/[+-]\d{2}:\d{2}$/);
    const id = created.body.id as string;
    expect(ledgerOf(id).map((e) => e.debitMinor)).toEqual([-2000, -50]);
    const segment = sandbox.context.balanceProcessorSegment;
    const entries = (await call(sandbox, 'GET', `/v1/balances/${segment}/transactions`)).body.data;
    expect(
      entries.filter((e: { transfer_id: string }) => e.transfer_id === id).map((e: { debit: number }) => e.debit),
    ).toEqual([-0.5, -20]);
    expect((await call(sandbox, 'GET', `/v1/transfers/${id}`)).body).toEqual(created.body);
    const listed = await call(sandbox, 'GET', `/v1/transfers?beneficiary_id=${bdtBeneficiary}`);
    expect(listed.body.data).toEqual([]);
    const scheduled = await call(sandbox, 'GET', '/v1/transfers?status=scheduled');
    expect(scheduled.body.data.map((t: { id: string }) => t.id)).toContain(id);
  });

  it('refuses what the balance cannot cover with its fee, and names the fields of a body without them', async () => {
    const balance = sandbox.context.state.ledger.balanceMinor(business(), 'sgd') / 100;
    const tooMuch = await call(sandbox, 'POST', '/v1/transfers', {
      json: { beneficiary_id: sgdBeneficiary, source_currency: 'sgd', source_amount: balance },
    });
    expect(tooMuch).toMatchObject({ status: 409, body: { code: 'conflict' } });
    // `amount` and `currency` are not the service's names: the body names no source amount or currency.
    const unnamed = await call(sandbox, 'POST', '/v1/transfers', {
      json: { beneficiary_id: sgdBeneficiary, amount: 1, currency: 'SGD' },
    });
    expect(unnamed.status).toBe(422);
    expect(errorFields(unnamed.body)).toEqual(['source_amount', 'source_currency']);
  });
});

describe('GET /v1/beneficiaries/{id}', () => {
  it('a beneficiary made through the control endpoint names its creator as an object (spec 2.4)', async () => {
    const read = await call(sandbox, 'GET', `/v1/beneficiaries/${sgdBeneficiary}`);
    expect(read.status).toBe(200);
    expect(read.body.created_by).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/),
      display_name: 'Demo Store owner',
      first_name: 'Sandbox',
      last_name: 'Owner',
    });
    const another = await call(sandbox, 'POST', '/_sandbox/beneficiaries', {
      json: { business_id: business(), holder_name: 'Bo', account_number: '87654321' },
    });
    expect(another.body.created_by).toEqual(read.body.created_by);
  });
});

describe('POST /v1/products', () => {
  const post = (body: RequestInit['body'], headers: Record<string, string> = {}) =>
    fetch(`${sandbox.url}/v1/products`, {
      method: 'POST',
      headers: { 'x-business-api-key': sandbox.seed.apiKey, ...headers },
      body,
    });

  it('takes multipart/form-data as the service documents it, leaving image files out', async () => {
    const form = new FormData();
    form.append('name', 'Beanie');
    form.append('price', '15');
    form.append('description', '<p>Stylish hat suitable for the winter.</p>');
    form.append('category_ids[]', '9a12fab0-d282-4437-9460-c3d26662d11a');
    form.append('is_pinned', '1');
    form.append('publish', '0');
    form.append('product_weight', '250');
    form.append('image[0][image]', new Blob([new Uint8Array([0xff, 0xd8, 0xff])], { type: 'image/jpeg' }), 'a.jpg');
    const response = await post(form);
    expect(response.status).toBe(201);
    const product = (await response.json()) as Record<string, unknown>;
    expect(product).toMatchObject({
      business_id: business(),
      category_id: ['9a12fab0-d282-4437-9460-c3d26662d11a'],
      name: 'Beanie',
      description: '<p>Stylish hat suitable for the winter.</p>',
      currency: 'sgd',
      price: 15,
      price_display: 'SGD 15.00',
      price_stored: 1500,
      is_manageable: 1,
      is_pinned: true,
      status: 'draft',
      is_published: false,
      product_weight: 250,
      has_variations: false,
      variations: [],
      images: [],
    });
    const listed = await call(sandbox, 'GET', '/v1/products');
    expect(listed.body.data[0]).toEqual(product);
  });

  it('takes JSON and form-urlencoded alike, and names bad multipart fields', async () => {
    const json = await call(sandbox, 'POST', '/v1/products', { json: { name: 'Mug', price: 12.5, currency: 'USD' } });
    expect(json).toMatchObject({
      status: 201,
      body: { currency: 'usd', price_display: 'USD 12.50', status: 'published' },
    });
    const form = await call(sandbox, 'POST', '/v1/products', { form: 'name=Tea&price=3.20&channels[]=pos' });
    expect(form).toMatchObject({ status: 201, body: { price_stored: 320 } });
    const bad = new FormData();
    bad.append('name', 'Bad');
    bad.append('price', '-1');
    bad.append('quantity', 'lots');
    const refused = await post(bad);
    expect(refused.status).toBe(422);
    expect(errorFields((await refused.json()) as { errors?: unknown })).toEqual(['price', 'quantity']);
  });

  it('takes channels and id lists as the service’s own collection sends them: a JSON array as text', async () => {
    // collections/hitpay-products-api.postman_collection.json, "Create a Product": `channels` is one form
    // field whose value is `["<string>","<string>"]`, and so are `category_ids` and `location_ids`.
    const form = new FormData();
    form.append('name', 'Scarf');
    form.append('price', '22');
    form.append('channels', '["online_store","pos"]');
    form.append('category_ids', '["9a12fab0-d282-4437-9460-c3d26662d11a"]');
    form.append('location_ids', '[]');
    const response = await post(form);
    expect(response.status).toBe(201);
    expect(response.headers.get('x-sandbox-warning')).toBeNull();
    expect(await response.json()).toMatchObject({ category_id: ['9a12fab0-d282-4437-9460-c3d26662d11a'] });
    const bad = new FormData();
    bad.append('name', 'Scarf');
    bad.append('price', '22');
    bad.append('channels', '["online_store","market"]');
    bad.append('category_ids', 'not a list');
    const refused = await post(bad);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { errors: unknown }).errors).toEqual({
      'channels.1': ['must be one of online_store, pos, invoice'],
      category_ids: ['must be a list of ids (a JSON array as text in a form)'],
    });
  });

  it('keeps the body limit for multipart bodies, declared or chunked', async () => {
    const big = new FormData();
    big.append('name', 'Huge');
    big.append('price', '1');
    big.append('description', 'x'.repeat(70 * 1024));
    expect((await post(big)).status).toBe(413);
    const boundary = 'paykitboundary';
    const text = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n${'y'.repeat(70 * 1024)}\r\n--${boundary}--\r\n`;
    const bytes = new TextEncoder().encode(text);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 16 * 1024) controller.enqueue(bytes.slice(i, i + 16 * 1024));
        controller.close();
      },
    });
    const chunked = await fetch(`${sandbox.url}/v1/products`, {
      method: 'POST',
      headers: {
        'x-business-api-key': sandbox.seed.apiKey,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    const broken = await post('--nope\r\n', { 'content-type': 'multipart/form-data; boundary=other' });
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { code: string }).code).toBe('invalid_body');
  });
});

describe('POST /v1/invoices', () => {
  it('takes the service’s body and echoes it, numbered and pending', async () => {
    const created = await call(sandbox, 'POST', '/v1/invoices', {
      json: {
        customer: { name: 'Ann Lee', email: 'ann@example.test' },
        invoice_date: '2026-11-23',
        due_date: '2026-12-07',
        currency: 'SGD',
        amount: 120,
        payment_by: 'amount',
        payment_methods: ['paynow_online'],
        reference: 'Consulting, November',
        send_email: 0,
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      customer: { name: 'Ann Lee', email: 'ann@example.test' },
      invoice_number: expect.stringMatching(/^INV-\d{6}$/),
      invoice_date: '2026-11-23',
      due_date: '2026-12-07',
      currency: 'sgd',
      amount: 120,
      payment_by: 'amount',
      payment_methods: ['paynow_online'],
      reference: 'Consulting, November',
      send_email: false,
      status: 'pending',
    });
    const found = await call(sandbox, 'GET', '/v1/invoices?customer_email=ann@example.test&status=pending');
    expect(found.body.data.map((i: { id: string }) => i.id)).toEqual([created.body.id]);
  });

  it('names what the service requires', async () => {
    const bare = await call(sandbox, 'POST', '/v1/invoices', {
      json: { invoice_date: '2026-11-23', currency: 'SGD', amount: 5 },
    });
    expect(bare.status).toBe(422);
    expect(errorFields(bare.body)).toEqual(['customer', 'payment_by']);
    const nobody = await call(sandbox, 'POST', '/v1/invoices', { json: { currency: 'SGD', amount: 5 } });
    expect(errorFields(nobody.body)).toEqual(['customer', 'invoice_date', 'payment_by']);
    const numbered = await call(sandbox, 'POST', '/v1/invoices', {
      json: {
        customer_id: 'c1',
        invoice_date: '2026-11-23',
        currency: 'SGD',
        amount: 5,
        payment_by: 'amount',
        auto_invoice_number: 0,
      },
    });
    expect(errorFields(numbered.body)).toEqual(['invoice_number']);
    // paykit's own first body (customer_email, amount, currency) is not the service's: refused, naming what is.
    const unnamed = await call(sandbox, 'POST', '/v1/invoices', {
      json: { customer_email: 'bo@example.test', amount: 7, currency: 'SGD' },
    });
    expect(errorFields(unnamed.body)).toEqual(['customer', 'invoice_date', 'payment_by']);
  });
});

describe('a transfer’s beneficiary', () => {
  it('carries bank_routing_number when its beneficiary has one, as the service’s Bangladeshi example does', async () => {
    // transfers OpenAPI: the 201 example's BDT beneficiary has `bank_routing_number: '060261726'`; its list
    // example's Singapore beneficiary has none. Paid in the business's currency here, so the balance covers it.
    const routed = await call(sandbox, 'POST', '/_sandbox/beneficiaries', {
      json: {
        business_id: business(),
        holder_name: 'SHAH ALAM HERA',
        account_number: '1503201781283001',
        bank_routing_number: '060261726',
      },
    });
    expect(routed).toMatchObject({ status: 201, body: { bank_routing_number: '060261726' } });
    const transfer = await call(sandbox, 'POST', '/v1/transfers', {
      json: { beneficiary_id: routed.body.id, source_currency: 'sgd', source_amount: 1 },
    });
    expect(transfer.status).toBe(201);
    expect(transfer.body.beneficiary).toMatchObject({ id: routed.body.id, bank_routing_number: '060261726' });
    const listed = await call(sandbox, 'GET', `/v1/transfers?beneficiary_id=${routed.body.id}`);
    expect(listed.body.data[0].beneficiary.bank_routing_number).toBe('060261726');
    const plain = await call(sandbox, 'GET', `/v1/transfers?beneficiary_id=${sgdBeneficiary}`);
    expect(plain.body.data[0].beneficiary).not.toHaveProperty('bank_routing_number');
    const blank = await call(sandbox, 'POST', '/_sandbox/beneficiaries', {
      json: { business_id: business(), holder_name: 'X', account_number: '1', bank_routing_number: '' },
    });
    expect(blank.status).toBe(422);
  });
});
