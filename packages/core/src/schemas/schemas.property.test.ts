/**
 * Every schema @paykit/core exports, under random and hostile input (fast-check):
 * - `safeParse` never throws, whatever it is given;
 * - a refusal always becomes a `validation_failed` body whose field paths name a real field (or `(body)`),
 *   with short, readable messages (a 5,000-character value is never echoed back);
 * - what a request schema accepts keeps paykit's invariants: money positive, finite, at most two decimals and
 *   in range; currencies upper case; no field the schema does not know; and the output parses again to itself.
 * The last test fails when a schema is exported without a row here, so a new schema cannot skip this suite.
 */
import fc from 'fast-check';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import * as core from '../index.js';
import { MAX_AMOUNT_MINOR } from '../amounts.js';
import { parseWebUrl } from '../safe-url.js';
import { toErrorBody } from '../validation.js';

/** An object with an own `key` property, as `JSON.parse` makes it (assignment would set the prototype of `__proto__`). */
function withOwn(target: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  return target;
}

const huge = 'x'.repeat(5_000);

/** What an attacker, a careless caller or a broken upstream puts where a field belongs. */
const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    NaN,
    -0,
    0,
    Infinity,
    -Infinity,
    1e308,
    -1e308,
    5e-324,
    2 ** 53 + 2,
    '12.345',
    '1e3',
    '0x10',
    ' 12',
    '-0',
    'NaN',
    '٣',
    '１２',
    '\u0000',
    '\u202e',
    '',
    ' ',
    '<script>alert(1)</script>',
    '__proto__',
    huge,
    '9'.repeat(320),
    [],
    ['a'],
    {},
    null,
    undefined,
    true,
    'true',
    JSON.parse('{"__proto__":{"polluted":true}}'),
  ),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.double(),
  fc.integer(),
  fc.anything({
    withBigInt: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withTypedArray: true,
    withSparseArray: true,
    withBoxedValues: true,
  }),
);

/** Values near the rules for fields that are money: some valid, most just outside. */
const moneyLike = fc.oneof(
  fc.integer({ min: 1, max: MAX_AMOUNT_MINOR }).map((minor) => (minor / 100).toFixed(2)),
  fc.integer({ min: 1, max: MAX_AMOUNT_MINOR }).map((minor) => minor / 100),
  fc.constantFrom('0.00', '0.001', '999999999.99', '1000000000.00', '-1.00', '12.5', '12.'),
);

/** Per field name: values that keep the field plausible, so the properties see acceptances and not only refusals. */
const plausible: Record<string, fc.Arbitrary<unknown>> = {
  amount: moneyLike,
  price: moneyLike,
  platform_commission_amount: moneyLike,
  currency: fc.oneof(fc.constantFrom('SGD', 'sgd', 'uSd', 'SG', 'SGDX', 'S1D'), fc.string({ maxLength: 4 })),
  email: fc.oneof(fc.emailAddress(), fc.constantFrom('a@b', 'no-at', `${'a'.repeat(250)}@b.test`)),
  customer_email: fc.emailAddress(),
  redirect_url: fc.oneof(
    fc.webUrl(),
    fc.constantFrom('http://localhost:3000/x', 'http://evil.test/', 'javascript:alert(1)'),
  ),
  webhook: fc.webUrl(),
  url: fc.oneof(fc.webUrl(), fc.constantFrom('http://127.0.0.1:4000/hooks', 'http://hooks.test/', 'ftp://hooks.test/')),
  event_types: fc.oneof(
    fc.array(fc.constantFrom(...core.webhookEventTypes), { maxLength: 4 }),
    fc.array(fc.constantFrom('charge.created', 'charge.deleted', 'Charge.Created', ''), { maxLength: 3 }),
  ),
  payment_methods: fc.array(fc.constantFrom('paynow_online', 'card', 'Card', 'card'), { maxLength: 22 }),
  allow_repeated_payments: fc.constantFrom(true, false, 'true', 'false', '1', '0', 'yes'),
  save_card: fc.constantFrom(true, false, 'true', '0', 'on'),
  metadata: fc.dictionary(
    fc.string({ maxLength: 45 }),
    fc.oneof(fc.string({ maxLength: 501 }), fc.double(), fc.boolean()),
    {
      maxKeys: 22,
    },
  ),
  per_page: fc.oneof(
    fc.integer({ min: -5, max: 150 }),
    fc.integer({ min: -5, max: 150 }).map(String),
    fc.constant('1.5'),
  ),
  created_at_from: fc.constantFrom('2026-11-01', '2026-12-31', '2026-1-1'),
  created_at_to: fc.constantFrom('2026-11-22', '2026-10-01', '2026-11-22T00:00:00'),
  grant_type: fc.constantFrom('authorization_code', 'refresh_token', 'client_credentials', 'password'),
  scope: fc.oneof(
    fc.array(fc.constantFrom(...core.SCOPES, 'admin', ''), { maxLength: 4 }).map((s) => s.join(' ')),
    fc.constant(`payments ${huge}`),
  ),
  code_challenge: fc.oneof(fc.string({ minLength: 40, maxLength: 130 }), fc.constant('a'.repeat(43))),
  code_challenge_method: fc.constantFrom('S256', 'plain', 's256'),
  cycle: fc.constantFrom('weekly', 'monthly', 'yearly', 'daily'),
  send_email: fc.constantFrom('true', 'false', true),
  due_date: fc.constantFrom('2026-12-01', '01/12/2026'),
  phone: fc.constantFrom('+65 6123 4567', '123', '+65-6123-4567', 'call me'),
};

/** One request schema: a body it accepts with every field filled, and whether its output is again valid input. */
interface RequestRow {
  schema: z.ZodType;
  valid: Record<string, unknown>;
  /** Fields beyond `valid` the schema knows (union members that cannot all be filled at once). */
  alsoKnows?: readonly string[];
  /** False when the output is a different shape from the input (a scope list becomes an array). */
  reparses?: boolean;
  /**
   * Unknown fields are refused (strict objects). The API's request bodies are not strict: the real service ignores
   * fields it does not know, so the client sends them on and the sandbox drops them with a warning.
   */
  strict?: boolean;
}

const requestRows: Record<string, RequestRow> = {
  paymentRequestCreateSchema: {
    schema: core.paymentRequestCreateSchema,
    strict: true,
    valid: {
      amount: '12.50',
      currency: 'sgd',
      email: 'shopper@example.test',
      purpose: 'Order 1',
      redirect_url: 'https://shop.test/return',
      webhook: 'https://shop.test/hooks',
      payment_methods: ['paynow_online', 'card'],
      wifi_terminal_id: 'terminal-1',
      allow_repeated_payments: 'false',
      save_card: false,
      platform_commission_amount: '1.50',
    },
  },
  shopperChoiceSchema: {
    schema: core.shopperChoiceSchema,
    strict: true,
    valid: {
      amount: '12.50',
      currency: 'SGD',
      purpose: 'Order 1',
      email: 'shopper@example.test',
      payment_methods: ['card'],
      merchant: 'business-1',
      reference: 'sku-1',
      metadata: { cart: 'c1', items: 2, gift: false },
    },
  },
  refundCreateSchema: {
    schema: core.refundCreateSchema,
    valid: {
      amount: '5.00',
      payment_id: 'charge-1',
      webhook: 'https://shop.test/hooks',
      send_email: 'true',
      email: 'shopper@example.test',
    },
  },
  recurringBillingChargeSchema: {
    schema: core.recurringBillingChargeSchema,
    valid: { amount: '5.00', currency: 'SGD' },
  },
  recurringBillingUpdateSchema: {
    schema: core.recurringBillingUpdateSchema,
    alsoKnows: ['plan_id'],
    valid: {
      save_card: 'true',
      name: 'Card on file',
      description: 'Kept for the club',
      amount: 12,
      currency: 'SGD',
      cycle: 'custom',
      cycle_repeat: '3',
      cycle_frequency: 'month',
      customer_email: 'a@example.com',
      customer_name: 'Ann',
      start_date: '2026-12-01',
      redirect_url: 'https://shop.test/return',
      reference: 'cust_1',
      payment_methods: ['card', 'giro'],
      send_email: true,
      webhook: 'https://shop.test/hook',
    },
  },
  recurringBillingCreateSchema: {
    schema: core.recurringBillingCreateSchema,
    // With save_card true a plan_id is refused, so the valid body cannot hold both.
    alsoKnows: ['plan_id'],
    valid: {
      save_card: 'true',
      save_payment_method: 'false',
      start_date_method: 'sign_up_date',
      name: 'Card on file',
      amount: '9.90',
      currency: 'SGD',
      cycle: 'custom',
      cycle_repeat: 2,
      cycle_frequency: 'week',
      customer_email: 'a@example.com',
      customer_name: 'Ann',
      start_date: '2026-12-01',
      redirect_url: 'https://shop.test/return',
      reference: 'cust_1',
      payment_methods: ['card'],
      send_email: 'false',
      times_to_be_charged: 3,
      webhook: 'https://shop.test/hook',
    },
  },
  productCreateSchema: {
    schema: core.productCreateSchema,
    valid: { name: 'Tea', description: 'Green', price: '9.90', currency: 'sgd' },
  },
  invoiceCreateSchema: {
    schema: core.invoiceCreateSchema,
    valid: {
      customer: { name: 'Buyer', email: 'buyer@example.test' },
      invoice_date: '2026-11-23',
      payment_by: 'amount',
      amount: 100,
      currency: 'SGD',
      description: 'November',
      due_date: '2026-12-01',
    },
  },
  customerCreateSchema: {
    schema: core.customerCreateSchema,
    valid: { name: 'Ada', email: 'ada@example.test', phone: '+65 6123 4567' },
  },
  subscriptionPlanCreateSchema: {
    schema: core.subscriptionPlanCreateSchema,
    valid: { name: 'Monthly tea', amount: '20.00', currency: 'SGD', cycle: 'monthly' },
  },
  transferCreateSchema: {
    schema: core.transferCreateSchema,
    valid: { beneficiary_id: 'beneficiary-1', source_amount: '250.00', source_currency: 'SGD', reference: 'rent' },
  },
  transferEstimateSchema: {
    schema: core.transferEstimateSchema,
    valid: { beneficiary_id: 'beneficiary-1', source_currency: 'SGD', source_amount: '100.00' },
    alsoKnows: ['payment_amount'],
  },
  webhookEndpointCreateSchema: {
    schema: core.webhookEndpointCreateSchema,
    valid: { name: 'Orders', url: 'https://shop.test/hooks', event_types: ['charge.created', 'order.updated'] },
  },
  webhookEndpointUpdateSchema: {
    schema: core.webhookEndpointUpdateSchema,
    valid: { name: 'Orders', url: 'http://localhost:3000/hooks', event_types: ['transfer.paid'] },
  },
  // List filters (the operation table's `query` column): unknown parameters are left out, not refused.
  balanceTransactionFiltersSchema: {
    schema: core.balanceTransactionFiltersSchema,
    valid: { created_at_from: '2026-11-01', created_at_to: '2026-11-22' },
  },
  recurringBillingListFiltersSchema: {
    schema: core.recurringBillingListFiltersSchema,
    valid: {
      status: 'scheduled',
      customer_email: 'a@example.test',
      reference: 'r1',
      business_recurring_plans_id: 'p1',
    },
  },
  invoiceListFiltersSchema: {
    schema: core.invoiceListFiltersSchema,
    valid: { customer_email: 'a@example.test', status: 'pending', reference: 'r1' },
  },
  transferListFiltersSchema: {
    schema: core.transferListFiltersSchema,
    valid: { beneficiary_id: 'b1', status: 'scheduled' },
  },
  balanceTransactionQuerySchema: {
    schema: core.balanceTransactionQuerySchema,
    strict: true,
    valid: { created_at_from: '2026-11-01', created_at_to: '2026-11-22', cursor: 'c1', per_page: '50' },
  },
  authorizeParamsSchema: {
    schema: core.authorizeParamsSchema,
    strict: true,
    reparses: false,
    valid: {
      client_id: 'client-1',
      redirect_uri: 'https://platform.test/callback',
      response_type: 'code',
      scope: 'business:read payments:create',
      state: 's'.repeat(43),
      code_challenge: 'c'.repeat(43),
      code_challenge_method: 'S256',
    },
  },
  tokenRequestSchema: {
    schema: core.tokenRequestSchema,
    strict: true,
    alsoKnows: ['refresh_token'],
    valid: {
      grant_type: 'authorization_code',
      client_id: 'client-1',
      client_secret: 'secret-1',
      redirect_uri: 'https://platform.test/callback',
      code: 'code-1',
      code_verifier: 'v'.repeat(43),
    },
  },
  callbackParamsSchema: {
    schema: core.callbackParamsSchema,
    alsoKnows: ['error', 'error_description'],
    valid: { code: 'code-1', state: 's'.repeat(43) },
  },
};

/** One field schema, and what must hold of every value it accepts. */
const fieldRows: Record<string, { schema: z.ZodType; holds: (out: unknown) => boolean; near?: fc.Arbitrary<unknown> }> =
  {
    amount: { schema: core.amount, holds: isMoney, near: moneyLike },
    requestCurrency: {
      schema: core.requestCurrency,
      holds: (out) => /^[A-Z]{3}$/.test(out as string),
      near: plausible.currency,
    },
    recordCurrency: { schema: core.recordCurrency, holds: (out) => out === (out as string).toLowerCase() },
    email: {
      schema: core.email,
      holds: (out) => typeof out === 'string' && out.length <= 254 && out.includes('@'),
      near: plausible.email,
    },
    webUrl: { schema: core.webUrl, holds: (out) => parseWebUrl(out) !== undefined, near: plausible.redirect_url },
    booleanish: { schema: core.booleanish, holds: (out) => typeof out === 'boolean', near: plausible.save_card },
    pkceValue: {
      schema: core.pkceValue,
      holds: (out) => typeof out === 'string' && /^[A-Za-z0-9._~-]{43,128}$/.test(out),
      near: fc.stringMatching(/^[A-Za-z0-9._~+/=-]{30,140}$/),
    },
    responseAmount: {
      schema: core.responseAmount,
      holds: (out) => typeof out === 'string' && /^\d{1,9}\.\d{2}$/.test(out),
      near: moneyLike,
    },
    recordMoney: {
      schema: core.recordMoney,
      holds: (out) => typeof out === 'number' && Number.isFinite(out),
      near: fc.oneof(moneyLike, fc.constant('9'.repeat(320)), fc.constant(`-${'9'.repeat(320)}.5`)),
    },
    dateTime: { schema: core.dateTime, holds: (out) => typeof out === 'string' },
    localDateTime: { schema: core.localDateTime, holds: (out) => !Number.isNaN(Date.parse(`${out as string}Z`)) },
    offsetDateTime: { schema: core.offsetDateTime, holds: (out) => typeof out === 'string' },
    utcMicrosDateTime: { schema: core.utcMicrosDateTime, holds: (out) => (out as string).endsWith('Z') },
    isoDate: { schema: core.isoDate, holds: (out) => /^\d{4}-\d{2}-\d{2}$/.test(out as string) },
    id: { schema: core.id, holds: (out) => typeof out === 'string' && out.length > 0 },
    resourceId: {
      schema: core.resourceId,
      holds: (out) => typeof out === 'string' && out.length >= 1 && out.length <= 255,
    },
    paymentMethod: { schema: core.paymentMethod, holds: (out) => /^[a-z0-9_]{1,64}$/.test(out as string) },
    scopeList: {
      schema: core.scopeList,
      holds: (out) =>
        Array.isArray(out) && out.length > 0 && out.every((s) => (core.SCOPES as readonly string[]).includes(s)),
      near: plausible.scope,
    },
  };

/** The schemas of what the API answers: lenient, but they must still never throw and never yield NaN. */
const responseRows: Record<string, z.ZodType> = {
  paymentRequestSchema: core.paymentRequestSchema,
  paymentRequestListSchema: core.paymentRequestListSchema,
  chargeSchema: core.chargeSchema,
  chargePaymentMethodSchema: core.chargePaymentMethodSchema,
  webhookEndpointSchema: core.webhookEndpointSchema,
  webhookEndpointListSchema: core.webhookEndpointListSchema,
  paymentNotificationSchema: core.paymentNotificationSchema,
  errorBodySchema: core.errorBodySchema,
  listMetaSchema: core.listMetaSchema,
  tokenResponseSchema: core.tokenResponseSchema,
  oauthErrorSchema: core.oauthErrorSchema,
  businessInfoSchema: core.businessInfoSchema,
  payoutSchema: core.payoutSchema,
  refundSchema: core.refundSchema,
  recurringBillingSchema: core.recurringBillingSchema,
  recurringBillingChargeResultSchema: core.recurringBillingChargeResultSchema,
  beneficiarySchema: core.beneficiarySchema,
  staffMemberSchema: core.staffMemberSchema,
  balanceTransactionSchema: core.balanceTransactionSchema,
  balanceTransactionListSchema: core.balanceTransactionListSchema,
  productSchema: core.productSchema,
  invoiceSchema: core.invoiceSchema,
  orderSchema: core.orderSchema,
  customerSchema: core.customerSchema,
  subscriptionPlanSchema: core.subscriptionPlanSchema,
  transferSchema: core.transferSchema,
  transferEstimateResultSchema: core.transferEstimateResultSchema,
  accountStatusSchema: core.accountStatusSchema,
  terminalSchema: core.terminalSchema,
  staticQrCodeSchema: core.staticQrCodeSchema,
};

const MONEY_FIELDS = new Set(['amount', 'price', 'platform_commission_amount']);

/** Positive, finite, at most two decimals, and at most the largest amount paykit sends. */
function isMoney(value: unknown): boolean {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return false;
  const minor = Math.round(value * 100);
  return minor / 100 === value && minor <= MAX_AMOUNT_MINOR;
}

/** The top-level field names a schema knows, when it is an object schema. */
function shapeKeys(schema: z.ZodType): string[] | undefined {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape as object) : undefined;
}

/** safeParse must not throw; a refusal must make a clean `validation_failed` body naming known fields. */
function parseCleanly(schema: z.ZodType, input: unknown, known: readonly string[] | undefined) {
  let result: ReturnType<z.ZodType['safeParse']> | undefined;
  expect(() => (result = schema.safeParse(input))).not.toThrow();
  if (!result) throw new Error('unreachable');
  if (result.success) return result;
  const body = toErrorBody(result.error);
  expect(body.code).toBe('validation_failed');
  expect(body.errors?.length).toBeGreaterThan(0);
  for (const error of body.errors ?? []) {
    expect(error.path).toMatch(/\S/);
    expect(error.message).toMatch(/\S/);
    // A refusal names the rule; it never echoes a long value back to whoever sent it.
    expect(error.message.length).toBeLessThan(300);
    if (known) expect(['(body)', ...known]).toContain(error.path.split('.')[0]);
  }
  expect(body.message.length).toBeLessThan(600);
  return result;
}

/** A body that started valid, with up to three fields dropped, replaced or added. */
function mutatedBody(row: RequestRow): fc.Arbitrary<Record<string, unknown>> {
  const keys = [...Object.keys(row.valid), ...(row.alsoKnows ?? [])];
  const edit = fc.oneof(
    fc.record({ drop: fc.constantFrom(...keys) }),
    fc.constantFrom(...keys, '__proto__', 'constructor', 'extra').chain((key) =>
      // `plausible.__proto__` is Object.prototype: only own entries are generators.
      fc.record({
        key: fc.constant(key),
        value: Object.hasOwn(plausible, key) ? fc.oneof(plausible[key]!, hostile) : hostile,
      }),
    ),
  );
  return fc.array(edit, { maxLength: 3 }).map((edits) => {
    const body = { ...row.valid };
    for (const change of edits) {
      if ('drop' in change) delete body[change.drop];
      else withOwn(body, change.key, change.value);
    }
    return body;
  });
}

describe('request schemas under random and hostile bodies', () => {
  for (const [name, row] of Object.entries(requestRows)) {
    const known = [...Object.keys(row.valid), ...(row.alsoKnows ?? [])];

    it(`${name}: accepts its valid body`, () => {
      expect(row.schema.safeParse(row.valid).success).toBe(true);
    });

    it(`${name}: never throws, refuses with field paths, and what it accepts keeps the invariants`, () => {
      fc.assert(
        fc.property(
          fc.oneof({ arbitrary: mutatedBody(row), weight: 4 }, { arbitrary: hostile, weight: 1 }),
          (input) => {
            const result = parseCleanly(row.schema, input, known);
            if (!result.success) return;
            const out = result.data as Record<string, unknown>;
            expect(typeof out).toBe('object');
            expect(Array.isArray(out)).toBe(false);
            if (row.strict) for (const key of Object.keys(out)) expect(known).toContain(key);
            for (const [key, value] of Object.entries(out)) {
              if (MONEY_FIELDS.has(key) && value !== undefined && name !== 'shopperChoiceSchema') {
                expect(isMoney(value), `${key}=${String(value)}`).toBe(true);
              }
              if (key === 'currency' && value !== undefined && name !== 'shopperChoiceSchema')
                expect(value).toMatch(/^[A-Z]{3}$/);
            }
            if (out.platform_commission_amount !== undefined) {
              expect(out.platform_commission_amount as number).toBeLessThan(out.amount as number);
              expect(out.allow_repeated_payments).not.toBe(true);
            }
            if (row.reparses !== false) expect(row.schema.parse(out)).toEqual(out);
          },
        ),
        { numRuns: 300 },
      );
      expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    });
  }

  it('authorizeParamsSchema: a PKCE challenge always comes with S256, and the scopes are known', () => {
    fc.assert(
      fc.property(mutatedBody(requestRows.authorizeParamsSchema!), (input) => {
        const result = core.authorizeParamsSchema.safeParse(input);
        if (!result.success) return;
        expect(result.data.code_challenge === undefined).toBe(result.data.code_challenge_method === undefined);
        expect(fieldRows.scopeList!.holds(result.data.scope)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('webhook endpoint bodies: a URL the sandbox and the service may post to, and known events, once each', () => {
    for (const name of ['webhookEndpointCreateSchema', 'webhookEndpointUpdateSchema'] as const) {
      fc.assert(
        fc.property(mutatedBody(requestRows[name]!), (input) => {
          const result = requestRows[name]!.schema.safeParse(input);
          if (!result.success) return;
          const { url, event_types: types } = result.data as { url?: unknown; event_types?: string[] };
          if (url !== undefined) expect(parseWebUrl(url)).toBeDefined();
          if (types === undefined) return;
          expect(types.length).toBeGreaterThan(0);
          expect(new Set(types).size).toBe(types.length);
          for (const type of types) expect(core.isWebhookEventType(type)).toBe(true);
        }),
        { numRuns: 300 },
      );
    }
  });

  it('balanceTransactionQuerySchema: a page size is a whole number from 1 to 100, and the range is in order', () => {
    fc.assert(
      fc.property(mutatedBody(requestRows.balanceTransactionQuerySchema!), (input) => {
        const result = core.balanceTransactionQuerySchema.safeParse(input);
        if (!result.success) return;
        const { per_page, created_at_from, created_at_to } = result.data as Record<string, unknown>;
        if (per_page !== undefined) {
          expect(Number.isInteger(per_page)).toBe(true);
          expect(per_page).toBeGreaterThanOrEqual(1);
          expect(per_page).toBeLessThanOrEqual(100);
        }
        if (created_at_from && created_at_to) expect(created_at_to >= created_at_from).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('field schemas under random and hostile values', () => {
  for (const [name, row] of Object.entries(fieldRows)) {
    it(`${name}: never throws, and every value it accepts holds its rule`, () => {
      fc.assert(
        fc.property(row.near ? fc.oneof(row.near, hostile) : hostile, (input) => {
          const result = parseCleanly(row.schema, input, undefined);
          if (result.success) expect(row.holds(result.data), `${name} accepted ${String(input)}`).toBe(true);
        }),
        { numRuns: 200 },
      );
    });
  }
});

describe('response schemas under random and hostile answers', () => {
  for (const [name, schema] of Object.entries(responseRows)) {
    it(`${name}: never throws, and never yields a number that is not finite`, () => {
      const known = shapeKeys(schema);
      const fields = known ?? ['data', 'meta'];
      const answer = fc.oneof(
        hostile,
        fc.dictionary(fc.constantFrom(...fields), hostile),
        fc.array(fc.dictionary(fc.constantFrom(...fields), hostile), { maxLength: 3 }),
        fc.record({ data: fc.array(hostile, { maxLength: 3 }), meta: hostile }, { requiredKeys: ['data'] }),
      );
      fc.assert(
        fc.property(answer, (input) => {
          const result = parseCleanly(schema, input, known);
          if (!result.success || !known) return;
          for (const key of known) {
            const value = (result.data as Record<string, unknown>)[key];
            if (typeof value === 'number') expect(Number.isFinite(value), `${key}=${value}`).toBe(true);
          }
        }),
        { numRuns: 200 },
      );
    });
  }
});

describe('coverage', () => {
  it('every schema @paykit/core exports has a row in this suite', () => {
    const exported = Object.entries(core)
      .filter(([, value]) => value instanceof z.ZodType)
      .map(([name]) => name)
      .sort();
    const covered = [...Object.keys(requestRows), ...Object.keys(fieldRows), ...Object.keys(responseRows)].sort();
    expect(covered).toEqual(exported);
  });
});
