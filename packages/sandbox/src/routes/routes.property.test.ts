/**
 * The sandbox's /v1 write routes under random and hostile bodies (fast-check), over real HTTP: never a 5xx,
 * a refusal is always JSON with a message and a stable code, and a refused request changes nothing at all
 * (no record, no ledger entry, no half-applied update). The emulator is what every other test trusts, so it
 * must refuse as cleanly as the API it stands for.
 */
import { call } from '@paykit/test-support/sandbox-calls';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_KINDS } from '../resources.js';
import { startSandbox, type RunningSandbox } from '../start.js';

const CODES = [
  'validation_failed',
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
  'duplicate_parameter',
  'not_found',
  'conflict',
];

let sandbox: RunningSandbox;
let pendingId: string;
let chargeId: string;
let beneficiaryId: string;
let endpointId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const create = () => call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: '40.00', currency: 'SGD' } });
  pendingId = (await create()).body.id;
  const paid = (await create()).body.id;
  await call(sandbox, 'POST', `/_sandbox/payment-requests/${paid}/pay`, { json: { outcome: 'succeeded' } });
  chargeId = [...sandbox.context.state.charges.values()].find((charge) => charge.paymentRequestId === paid)!.id;
  // A balance that refunds cannot drain, so that transfers are refused for what they say, not for the order
  // in which the tests ran.
  const funds = (
    await call(sandbox, 'POST', '/v1/payment-requests', { json: { amount: '100000.00', currency: 'SGD' } })
  ).body.id;
  await call(sandbox, 'POST', `/_sandbox/payment-requests/${funds}/pay`, { json: { outcome: 'succeeded' } });
  beneficiaryId = (
    await call(sandbox, 'POST', '/_sandbox/beneficiaries', {
      json: { business_id: sandbox.seed.businessId, holder_name: 'Ada', account_number: '123456' },
    })
  ).body.id;
  endpointId = (
    await call(sandbox, 'POST', '/_sandbox/webhook-endpoints', {
      json: { business_id: sandbox.seed.businessId, url: 'https://shop.test/hooks' },
    })
  ).body.id;
});
afterAll(() => sandbox.close());

/** Everything a write could touch, as text: equal before and after means nothing was written. */
function fingerprint(): string {
  const { state } = sandbox.context;
  return JSON.stringify({
    paymentRequests: [...state.paymentRequests.values()],
    charges: [...state.charges.values()],
    ledger: state.ledger.entries,
    resources: RESOURCE_KINDS.map((kind) => state.resources.list(kind, sandbox.seed.businessId)),
    webhookEndpoints: [...state.webhookEndpoints.values()],
  });
}

const hostile = fc.oneof(
  fc.anything(),
  fc.constantFrom(
    NaN,
    -0,
    1e308,
    '12.345',
    '1e3',
    '-1.00',
    '0.00',
    '\u0000',
    '٣',
    '<script>',
    'x'.repeat(3000),
    [],
    {},
  ),
);
/** Mostly plausible values (some of them just outside the rules), sometimes hostile ones. */
const near = (...values: fc.Arbitrary<unknown>[]) => fc.oneof({ arbitrary: fc.oneof(...values), weight: 3 }, hostile);
const money = near(fc.constantFrom('1.00', '12.5', 3, '999999999.99', '1000000000.00'));
const currency = near(fc.constantFrom('SGD', 'sgd', 'usd', 'SG'));
const email = near(fc.constantFrom('shopper@example.test', 'a@b'), fc.emailAddress());
const url = near(
  fc.constantFrom('https://shop.test/return', 'http://localhost:3000/r', 'http://evil.test/'),
  fc.webUrl(),
);
const name = near(fc.constantFrom('Tea', ''), fc.string({ maxLength: 300 }));
const eventTypes = near(
  fc.array(fc.constantFrom('charge.created', 'order.updated', 'transfer.paid', 'charge.deleted'), { maxLength: 3 }),
);

/** A value read when the property runs (the ids exist only after `beforeAll`). */
const later = (read: () => string) => fc.constant(null).map(read);

/**
 * One write route: a body it accepts, and per field values near and far from valid. Bodies are the valid one
 * with some fields overridden, or only the random fields, so that both the success and the refusal paths run.
 */
const routes: {
  label: string;
  method: string;
  path: () => string;
  valid: () => Record<string, unknown>;
  fields: Record<string, fc.Arbitrary<unknown>>;
  /** An accepted body that repeats what is stored writes nothing (an update that changes no field). */
  mayChangeNothing?: boolean;
}[] = [
  {
    label: 'POST /v1/payment-requests',
    method: 'POST',
    path: () => '/v1/payment-requests',
    valid: () => ({ amount: '12.50', currency: 'SGD' }),
    fields: {
      amount: money,
      currency,
      email,
      redirect_url: url,
      payment_methods: near(fc.array(fc.constantFrom('card', 'paynow_online', 'wifi_card_reader'))),
      platform_commission_amount: money,
    },
  },
  {
    label: 'PUT /v1/payment-requests/{pending id}',
    method: 'PUT',
    path: () => `/v1/payment-requests/${pendingId}`,
    valid: () => ({ amount: '20.00', currency: 'SGD' }),
    fields: { amount: money, currency, purpose: hostile },
  },
  {
    label: 'POST /v1/refunds',
    method: 'POST',
    path: () => '/v1/refunds',
    valid: () => ({ amount: '1.00', payment_id: chargeId }),
    fields: {
      amount: money,
      payment_id: fc.oneof(
        later(() => chargeId),
        hostile,
      ),
      send_email: hostile,
    },
  },
  {
    label: 'POST /v1/products',
    method: 'POST',
    path: () => '/v1/products',
    valid: () => ({ name: 'Tea', price: '9.90', currency: 'SGD' }),
    fields: { name, price: money, currency, description: hostile },
  },
  {
    label: 'POST /v1/invoices',
    method: 'POST',
    path: () => '/v1/invoices',
    valid: () => ({
      customer: { name: 'Buyer', email: 'buyer@example.test' },
      invoice_date: '2026-11-23',
      payment_by: 'amount',
      amount: '100.00',
      currency: 'SGD',
    }),
    fields: {
      // A valid customer often enough that near-valid bodies reach the success path.
      customer: fc.oneof(fc.constant({ name: 'Bo', email: 'bo@example.test' }), fc.record({ name, email }), hostile),
      amount: money,
      currency,
      due_date: hostile,
    },
  },
  {
    label: 'POST /v1/customers',
    method: 'POST',
    path: () => '/v1/customers',
    valid: () => ({ name: 'Ada', email: 'ada@example.test' }),
    fields: { name, email, phone: hostile },
  },
  {
    label: 'POST /v1/transfers',
    method: 'POST',
    path: () => '/v1/transfers',
    valid: () => ({ beneficiary_id: beneficiaryId, source_amount: '1.00', source_currency: 'SGD' }),
    fields: {
      beneficiary_id: fc.oneof(
        later(() => beneficiaryId),
        hostile,
      ),
      source_amount: money,
      source_currency: currency,
    },
  },
  {
    label: 'POST /v1/subscription-plan',
    method: 'POST',
    path: () => '/v1/subscription-plan',
    valid: () => ({ name: 'Monthly', amount: '20.00', currency: 'SGD', cycle: 'monthly' }),
    fields: {
      name,
      amount: money,
      currency,
      cycle: fc.oneof(fc.constantFrom('monthly', 'daily'), hostile),
    },
  },
  {
    label: 'POST /v1/webhook-events',
    method: 'POST',
    path: () => '/v1/webhook-events',
    valid: () => ({ name: 'Hooks', url: 'https://shop.test/hooks', event_types: ['charge.created'] }),
    fields: { name, url, event_types: eventTypes },
  },
  {
    label: 'PUT /v1/webhook-events/{id}',
    method: 'PUT',
    path: () => `/v1/webhook-events/${endpointId}`,
    valid: () => ({ name: 'Renamed' }),
    fields: { name, url, event_types: eventTypes },
    mayChangeNothing: true,
  },
  {
    label: 'POST /v1/charge/recurring-billing/{unknown id}',
    method: 'POST',
    path: () => '/v1/charge/recurring-billing/no-such-card',
    valid: () => ({}),
    fields: { amount: money },
  },
];

/** Any value as form text; objects without a usable `toString` (`{ toString: undefined }`) as JSON. */
function asText(value: unknown): string {
  try {
    return String(value);
  } catch {
    return JSON.stringify(value) ?? '';
  }
}

/** A body as JSON, as a form (what PHP-style clients send), or as something that is neither. */
function encode(fields: Record<string, unknown>, how: 'json' | 'form' | 'text'): { type: string; body: string } {
  if (how === 'json') return { type: 'application/json', body: JSON.stringify(fields) ?? '' };
  if (how === 'text') return { type: 'text/plain', body: 'amount=1' };
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value)) for (const item of value) form.append(`${key}[]`, asText(item));
    else form.append(key, asText(value));
  }
  return { type: 'application/x-www-form-urlencoded', body: String(form) };
}

describe('sandbox write routes under random and hostile bodies', () => {
  for (const route of routes) {
    it(`${route.label}: never a 5xx, and a refusal writes nothing`, async () => {
      let accepted = 0;
      const random = fc.record(route.fields, { requiredKeys: [] });
      // The valid body with one or two fields changed reaches deeper rules than a body of random fields.
      const nearValid = random.map((fields) => ({
        ...route.valid(),
        ...Object.fromEntries(Object.entries(fields).slice(0, 2)),
      }));
      const body = fc.oneof(nearValid, random);
      await fc.assert(
        fc.asyncProperty(
          body,
          fc.constantFrom('json', 'json', 'form', 'text') as fc.Arbitrary<'json' | 'form' | 'text'>,
          async (fields, how) => {
            const { type, body: text } = encode(fields, how);
            const before = fingerprint();
            const response = await fetch(`${sandbox.url}${route.path()}`, {
              method: route.method,
              headers: { 'content-type': type, 'x-business-api-key': sandbox.seed.apiKey },
              body: text,
            });
            const answer = (await response.json()) as { message?: string; code?: string };
            expect(response.status, `${how} ${text.slice(0, 200)} -> ${JSON.stringify(answer)}`).toBeLessThan(500);
            if (response.ok) {
              accepted += 1;
              // The fingerprint does see writes: without this, "unchanged" below could hold trivially.
              if (!route.mayChangeNothing) expect(fingerprint()).not.toBe(before);
              return;
            }
            expect(CODES).toContain(answer.code);
            expect(answer.message?.length).toBeGreaterThan(0);
            expect(fingerprint()).toBe(before);
          },
        ),
        // The valid body first, as JSON, then 100 random ones: the success path (and the check that an accepted
        // write changes the fingerprint) is always taken, not only when the random draws happen to reach it. Left to
        // chance, POST /v1/refunds drew no acceptable refund in 100 runs once (a fresh-clone CI run at 29b9c9b).
        { numRuns: 100, examples: [[route.valid(), 'json']] },
      );
      // The property must have seen the success path, or it only ever checked refusals.
      if (!route.label.includes('unknown id')) expect(accepted).toBeGreaterThan(0);
    });
  }
});
