/**
 * `GET /v1/charges` and `GET /v1/charges/{id}` answer the real service's charge (its charges OpenAPI, "Get Charge
 * Details"; the "Event Webhooks" page's `business_id`, `refunded_at`, `failed_reason`): every field it names, in
 * its type, read by core's schema, and every value taken from the sandbox's own state: the request or saved
 * card paid, the refunds recorded, the fee the ledger debits.
 */
import { operations } from '@paykit/core';
import { call, submitPageForm } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [] } });
});
afterAll(() => sandbox.close());

type Json = Record<string, unknown>;

/** Each field of the service's charge and the JSON types its OpenAPI (and webhook example) give it. */
const OPENAPI_FIELDS: Readonly<Record<string, readonly string[]>> = {
  id: ['string'],
  business_id: ['string'],
  currency: ['string'],
  home_currency: ['string'],
  exchange_rate: ['string', 'null'],
  amount: ['number'],
  amount_without_fees: ['number'],
  refunded_amount: ['number'],
  refunded_at: ['string', 'null'],
  fixed_fee: ['number'],
  discount_fee: ['number'],
  discount_fee_rate: ['number'],
  remark: ['string', 'null'],
  status: ['string'],
  failed_reason: ['string', 'null'],
  payment_method: ['object'],
  customer_id: ['string', 'null'],
  customer: ['object', 'null'],
  payment_request_id: ['string', 'null'],
  webhook_status: ['boolean'],
  order_reference_number: ['string', 'null'],
  target_id: ['string', 'null'],
  target_type: ['string', 'null'],
  executor: ['object', 'null'],
  location: ['object', 'null'],
  channel: ['string'],
  admin_fee: ['boolean'],
  refunds: ['array'],
  webhook_logs: ['array'],
  terminal_id: ['string', 'null'],
  closed_at: ['string', 'null'],
  created_at: ['string'],
  updated_at: ['string'],
};

const jsonType = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);

/** Every field of the service's charge is there, in one of its types; the answer parses with core's schema. */
function expectServiceCharge(charge: Json): void {
  for (const [field, types] of Object.entries(OPENAPI_FIELDS)) {
    expect(charge, field).toHaveProperty(field);
    expect(types, `${field} is ${jsonType(charge[field])}`).toContain(jsonType(charge[field]));
  }
  expect(operations['charges.get'].response.safeParse(charge).success).toBe(true);
}

/** The list's entry and the detail of the charge of `requestId`, checked to be the same charge. */
async function chargeOf(requestId: string): Promise<Json> {
  const list = await call(sandbox, 'GET', '/v1/charges');
  expect(operations['charges.list'].response.safeParse(list.body).success).toBe(true);
  const listed = (list.body.data as Json[]).find((c) => c.payment_request_id === requestId);
  expect(listed).toBeDefined();
  const detail = (await call(sandbox, 'GET', `/v1/charges/${String(listed!.id)}`)).body as Json;
  expect(detail).toEqual(listed);
  expectServiceCharge(detail);
  return detail;
}

/** A payment request paid (or failed) through the control API with `method`. */
async function pay(body: Json, outcome: 'succeeded' | 'failed' = 'succeeded', method?: string): Promise<string> {
  const request = await call(sandbox, 'POST', '/v1/payment-requests', { json: body });
  expect(request.status, JSON.stringify(request.body)).toBe(200);
  const paid = await call(sandbox, 'POST', `/_sandbox/payment-requests/${request.body.id}/pay`, {
    json: { outcome, ...(method ? { payment_method: method } : {}) },
  });
  expect(paid.status).toBe(200);
  return request.body.id as string;
}

/** The balance-transaction amounts (credits positive, debits negative) that name `chargeId`. */
async function ledgerOf(chargeId: string): Promise<{ description: string; amount: number }[]> {
  const segment = sandbox.context.balanceProcessorSegment;
  const entries = (await call(sandbox, 'GET', `/v1/balances/${segment}/transactions?per_page=100`)).body.data as {
    charge_id: string;
    description: string;
    credit: number | null;
    debit: number | null;
  }[];
  return entries
    .filter((e) => e.charge_id === chargeId)
    .map((e) => ({ description: e.description, amount: e.credit ?? e.debit ?? 0 }));
}

const cents = (amount: number) => Math.round(amount * 100);

describe('a payment request’s charge', () => {
  it('is the service’s charge: payment_method object, channel, customer, reference, fees the ledger debits', async () => {
    const requestId = await pay(
      {
        amount: 70.56,
        currency: 'SGD',
        email: 'ann@example.test',
        name: 'Ann Lee',
        phone: '+6591234567',
        purpose: 'Order #1007',
        reference_number: '1007',
        payment_methods: ['paynow_online', 'card'],
      },
      'succeeded',
      'card',
    );
    const charge = await chargeOf(requestId);
    expect(charge).toMatchObject({
      business_id: sandbox.seed.businessId,
      status: 'succeeded',
      amount: 70.56,
      currency: 'sgd',
      home_currency: 'sgd',
      exchange_rate: '1.00000',
      // The processing fee the ledger debits (0.50 fixed + 3.4%), in the service's fields.
      fixed_fee: 0.5,
      discount_fee: 2.4,
      discount_fee_rate: 3.4,
      remark: 'Order #1007',
      failed_reason: null,
      payment_method: {
        code: 'card',
        name: 'card',
        type: 'charge',
        data: { brand: 'Visa', last4: '4242', country_code: 'US', country: 'United States of America' },
      },
      customer_id: null,
      customer: { name: 'Ann Lee', email: 'ann@example.test', phone_number: '+6591234567' },
      payment_request_id: requestId,
      webhook_status: false,
      order_reference_number: '1007',
      target_id: null,
      target_type: null,
      executor: null,
      location: null,
      channel: 'api_store',
      admin_fee: false,
      refunded_amount: 0,
      refunded_at: null,
      refunds: [],
      webhook_logs: [],
      terminal_id: null,
    });
    // Decided as it was made: it closed when it was created, and has not changed since.
    expect(charge.closed_at).toBe(charge.created_at);
    expect(charge.updated_at).toBe(charge.created_at);
    expect(String(charge.created_at)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
    // What the merchant keeps is what the ledger leaves of the amount: its credit less the fee it debits.
    const ledger = await ledgerOf(String(charge.id));
    const fee = cents(Number(charge.fixed_fee) + Number(charge.discount_fee));
    expect(ledger.map((e) => cents(e.amount)).sort((a, b) => b - a)).toEqual([7056, -fee]);
    expect(cents(Number(charge.amount_without_fees))).toBe(ledger.reduce((sum, e) => sum + cents(e.amount), 0));
    expect(charge.amount_without_fees).toBe(67.66);
  });

  it('payment_method carries the detail example’s logos (served images) and a provider reference', async () => {
    const requestId = await pay({ amount: 5, currency: 'SGD' }, 'succeeded', 'card');
    const charge = await chargeOf(requestId);
    const method = charge.payment_method as Json;
    const logo = (icon: string, displayName: string) => ({
      sm: `${sandbox.url}/icons/methods/sm/${icon}.png`,
      md: `${sandbox.url}/icons/methods/md/${icon}.png`,
      lg: `${sandbox.url}/icons/methods/lg/${icon}.png`,
      svg: `${sandbox.url}/icons/methods/svg/${icon}.svg`,
      svg_square: `${sandbox.url}/icons/methods/svg_square/${icon}.svg`,
      png_square: `${sandbox.url}/icons/methods/png_square/${icon}.png`,
      method: icon,
      iconName: icon,
      displayName,
    });
    // charges OpenAPI, "Get Charge Details": display_logo the card's brand, method_logo the method.
    expect(method.display_logo).toEqual(logo('visa', 'Visa'));
    expect(method.method_logo).toEqual(logo('card', 'Cards'));
    expect(method.provider_reference).toMatch(/^ch_[0-9a-f]{24}$/);
    const listed = (await call(sandbox, 'GET', '/v1/charges?per_page=100')).body.data as Json[];
    expect(listed.find((c) => c.id === charge.id)).toEqual(charge);
    for (const url of Object.values(logo('visa', 'Visa')).filter((v) => v.startsWith('http'))) {
      const image = await fetch(url);
      expect(image.status, url).toBe(200);
      expect(image.headers.get('content-type')).toBe(url.endsWith('.svg') ? 'image/svg+xml' : 'image/png');
      await image.arrayBuffer();
    }
    expect((await fetch(`${sandbox.url}/icons/methods/xl/visa.png`)).status).toBe(404);
    expect((await fetch(`${sandbox.url}/icons/methods/svg/visa.png`)).status).toBe(404);
    // A method without a card: both logos are the method's.
    const paynow = (await chargeOf(await pay({ amount: 5, currency: 'SGD' }, 'succeeded', 'paynow_online')))
      .payment_method as Json;
    expect(paynow.display_logo).toEqual(logo('paynow_online', 'paynow_online'));
    expect(paynow.method_logo).toEqual(paynow.display_logo);
  });

  it('shows its refunds: refunded_amount, refunded_at and each refund, after a partial and a full refund', async () => {
    const requestId = await pay({ amount: 50, currency: 'SGD' });
    const before = await chargeOf(requestId);
    const first = await call(sandbox, 'POST', '/v1/refunds', { json: { payment_id: before.id, amount: 12.5 } });
    expect(first.status).toBe(200);
    const partial = await chargeOf(requestId);
    expect(partial).toMatchObject({
      status: 'partially_refunded',
      refunded_amount: 12.5,
      refunded_at: first.body.refunded_at,
      updated_at: expect.any(String),
      // Unchanged by a refund: the fee was debited when it was paid; it closed then.
      amount_without_fees: before.amount_without_fees,
      closed_at: before.closed_at,
      created_at: before.created_at,
    });
    // Each refund as the refund record shows it.
    const refund = (await call(sandbox, 'GET', `/v1/refunds/${first.body.id}`)).body as Json;
    expect(partial.refunds).toEqual([
      {
        id: refund.id,
        amount_refunded: 12.5,
        currency: refund.currency,
        status: refund.status,
        refunded_at: refund.refunded_at,
        created_at: refund.created_at,
      },
    ]);
    expect(Date.parse(String(partial.updated_at))).toBeGreaterThanOrEqual(Date.parse(String(before.updated_at)));

    const second = await call(sandbox, 'POST', '/v1/refunds', { json: { payment_id: before.id, amount: 37.5 } });
    expect(second.status).toBe(200);
    const full = await chargeOf(requestId);
    expect(full).toMatchObject({ status: 'refunded', refunded_amount: 50, refunded_at: second.body.refunded_at });
    expect((full.refunds as Json[]).map((r) => r.id)).toEqual([first.body.id, second.body.id]);
  });

  it('a failed PayNow charge: no card, no fee (the ledger has none), its reason, closed; no customer named', async () => {
    const requestId = await pay({ amount: 20, currency: 'SGD', payment_methods: ['paynow_online'] }, 'failed');
    const charge = await chargeOf(requestId);
    expect(charge).toMatchObject({
      status: 'failed',
      payment_method: { code: 'paynow_online', name: 'paynow_online', type: 'charge', data: null },
      fixed_fee: 0,
      discount_fee: 0,
      amount_without_fees: 20,
      failed_reason: expect.stringMatching(/declined/),
      customer: null,
      order_reference_number: null,
      remark: null,
      closed_at: charge.created_at,
    });
    expect(await ledgerOf(String(charge.id))).toEqual([]);
  });

  it('a card-reader charge names its terminal', async () => {
    const terminal = await call(sandbox, 'POST', '/_sandbox/terminals', {
      json: { business_id: sandbox.seed.businessId, name: 'Counter' },
    });
    const requestId = await pay(
      { amount: 4, currency: 'SGD', payment_methods: ['wifi_card_reader'], wifi_terminal_id: terminal.body.id },
      'succeeded',
      'wifi_card_reader',
    );
    expect(await chargeOf(requestId)).toMatchObject({
      terminal_id: terminal.body.id,
      channel: 'api_store',
      payment_method: { code: 'wifi_card_reader', data: { brand: 'Visa', last4: '4242' } },
    });
  });
});

describe('a saved card’s charge', () => {
  it('names the record, its customer and the card saved on it, on the recurring channel', async () => {
    const record = await call(sandbox, 'POST', '/v1/recurring-billing', {
      json: {
        customer_email: 'bo@example.test',
        customer_name: 'Bo Tan',
        save_card: true,
        name: 'Card on file',
        amount: 5,
      },
    });
    expect(record.status).toBe(200);
    await submitPageForm(String(record.body.url), 'card_number=5555555555554444&outcome=save');
    const charged = await call(sandbox, 'POST', `/v1/charge/recurring-billing/${record.body.id}`, {
      json: { amount: 7.25, currency: 'SGD' },
    });
    expect(charged.status).toBe(200);
    const charge = (await call(sandbox, 'GET', `/v1/charges/${charged.body.payment_id}`)).body as Json;
    expectServiceCharge(charge);
    expect(charge).toMatchObject({
      status: 'succeeded',
      payment_request_id: null,
      recurring_billing_id: record.body.id,
      target_id: record.body.id,
      target_type: 'business_recurring_plan',
      channel: 'api_recurring_dashboard',
      remark: 'Card on file',
      order_reference_number: null,
      customer: { name: 'Bo Tan', email: 'bo@example.test', phone_number: null },
      payment_method: { code: 'card', name: 'card', data: { brand: 'Mastercard', last4: '4444' } },
      terminal_id: null,
    });
  });
});
