import { describe, expect, it } from 'vitest';
import { decodeForm } from '../form.js';
import { toErrorBody } from '../validation.js';
import { paymentRequestCreateBodySchema } from './payment-request-body.js';
import { paymentRequestCreateSchema, paymentRequestSchema } from './payment-request.js';

const valid = { amount: 12.5, currency: 'sgd' };

function fieldErrors(input: unknown) {
  const result = paymentRequestCreateSchema.safeParse(input);
  if (result.success) throw new Error(`expected ${JSON.stringify(input)} to be refused`);
  return toErrorBody(result.error).errors ?? [];
}

describe('paymentRequestCreateSchema', () => {
  it('normalises a minimal JSON body', () => {
    expect(paymentRequestCreateSchema.parse(valid)).toEqual({ amount: 12.5, currency: 'SGD' });
  });

  it('reads the form-urlencoded body with payment_methods[]', () => {
    const form = decodeForm(
      new URLSearchParams(
        'amount=19.99&currency=SGD&email=a%40b.test&purpose=Order+1&redirect_url=https%3A%2F%2Fshop.test%2Freturn' +
          '&payment_methods[]=paynow_online&payment_methods[]=card&platform_commission_amount=1.50&allow_repeated_payments=false',
      ),
    );
    expect(paymentRequestCreateSchema.parse(form)).toEqual({
      amount: 19.99,
      currency: 'SGD',
      email: 'a@b.test',
      purpose: 'Order 1',
      redirect_url: 'https://shop.test/return',
      payment_methods: ['paynow_online', 'card'],
      platform_commission_amount: 1.5,
      allow_repeated_payments: false,
    });
  });

  it('names the field and the rule for each broken field', () => {
    expect(
      fieldErrors({ amount: '1.005', currency: 'SGDX', email: 'nope', redirect_url: 'javascript:alert(1)' }),
    ).toEqual([
      { path: 'amount', message: 'must have at most two decimal places' },
      { path: 'currency', message: 'must be a three-letter currency code such as SGD' },
      { path: 'email', message: 'must be an email address' },
      { path: 'redirect_url', message: 'must be an https URL (http only for localhost)' },
    ]);
  });

  it('says which required field is missing', () => {
    expect(fieldErrors({})).toEqual([
      { path: 'amount', message: 'is required' },
      { path: 'currency', message: 'is required' },
    ]);
  });

  it('refuses unknown fields, including prototype-polluting ones', () => {
    expect(fieldErrors(JSON.parse('{"amount":1,"currency":"SGD","__proto__":{"admin":true}}'))[0]?.path).toBe('(body)');
    expect(({} as Record<string, unknown>)['admin']).toBeUndefined();
    expect(fieldErrors({ ...valid, price_override: 1 })[0]?.message).toMatch(/price_override/);
  });

  it('refuses plain http webhooks to remote hosts but allows the local sandbox', () => {
    expect(fieldErrors({ ...valid, webhook: 'http://merchant.test/hook' })[0]?.path).toBe('webhook');
    expect(paymentRequestCreateSchema.parse({ ...valid, webhook: 'http://127.0.0.1:3000/hook' }).webhook).toBe(
      'http://127.0.0.1:3000/hook',
    );
  });

  describe('platform_commission_amount (spec 5.4)', () => {
    it('accepts a commission one cent below the amount', () => {
      expect(
        paymentRequestCreateSchema.parse({ ...valid, platform_commission_amount: 12.49 }).platform_commission_amount,
      ).toBe(12.49);
    });
    it.each([
      [12.5, 'must be less than amount'],
      [12.51, 'must be less than amount'],
      [0, 'must be greater than 0'],
      [-1, 'must be greater than 0'],
      [0.001, 'must have at most two decimal places'],
    ])('refuses %s: %s', (commission, message) => {
      expect(fieldErrors({ ...valid, platform_commission_amount: commission })).toEqual([
        { path: 'platform_commission_amount', message },
      ]);
    });
    it('refuses a commission on a request that allows repeated payments', () => {
      expect(fieldErrors({ ...valid, platform_commission_amount: 1, allow_repeated_payments: 'true' })).toEqual([
        {
          path: 'platform_commission_amount',
          message: 'cannot be used on a payment request that allows repeated payments',
        },
      ]);
    });
  });

  it('refuses repeated and malformed payment methods', () => {
    expect(fieldErrors({ ...valid, payment_methods: ['card', 'card'] })[0]?.message).toBe('must not repeat a method');
    expect(fieldErrors({ ...valid, payment_methods: ['<script>'] })[0]?.path).toBe('payment_methods.0');
  });
});

describe("the real service's documented fields", () => {
  it('are accepted and normalised: booleans from text, Singapore times, delays, address, metadata', () => {
    const out = paymentRequestCreateSchema.parse({
      ...valid,
      name: 'Harvey Friesen',
      phone: '+65 9123 4567',
      reference_number: 'R-1',
      send_email: 'true',
      send_sms: false,
      add_admin_fee: '0',
      expiry_date: '2030-05-26 15:10:00',
      expires_after: '5 minutes',
      address: { line1: '1 Main St', city: 'Singapore', state: 'Central', country: 'SG', postal_code: '179030' },
      metadata: { car_model: 'toyota' },
      staff_id: '98888a24-d6b2-430d-9063-d2be76d443cd',
    });
    expect(out).toMatchObject({ send_email: true, send_sms: false, add_admin_fee: false, expires_after: '5 minutes' });
  });

  it('are refused with a reason when malformed', () => {
    const paths = (input: Record<string, unknown>) => fieldErrors({ ...valid, ...input }).map((e) => e.path);
    expect(paths({ expiry_date: '2030-05-26T15:10:00' })).toEqual(['expiry_date']);
    expect(paths({ expiry_date: '2030-02-31 25:00:00' })).toEqual(['expiry_date']);
    expect(paths({ expires_after: '30 seconds' })).toEqual(['expires_after']);
    expect(paths({ send_sms: 'yes' })).toEqual(['send_sms']);
    expect(paths({ address: { line1: 'x' } })).toEqual([
      'address.city',
      'address.state',
      'address.country',
      'address.postal_code',
    ]);
    expect(paths({ metadata: { k: 'v'.repeat(501) } })).toEqual(['metadata.k']);
    expect(paths({ metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) })).toEqual([
      'metadata',
    ]);
    expect(paths({ staff_id: 'staff-1' })).toEqual(['staff_id']);
    expect(paths({ reference_number: 'r'.repeat(256) })).toEqual(['reference_number']);
  });
});

describe('paymentRequestCreateBodySchema (what the operation sends)', () => {
  it('keeps a field nobody documents, where the strict schema refuses it', () => {
    const body = { ...valid, reference_number: 'R-1', future_field: 'x' };
    expect(paymentRequestCreateSchema.safeParse(body).success).toBe(false);
    expect(paymentRequestCreateBodySchema.parse(body)).toEqual({
      amount: 12.5,
      currency: 'SGD',
      reference_number: 'R-1',
      future_field: 'x',
    });
  });

  it('still validates the known fields and the commission rules', () => {
    expect(paymentRequestCreateBodySchema.safeParse({ ...valid, send_sms: 'yes', extra: 1 }).success).toBe(false);
    expect(
      paymentRequestCreateBodySchema.safeParse({ ...valid, platform_commission_amount: 20, extra: 1 }).success,
    ).toBe(false);
  });
});

describe('paymentRequestSchema (responses)', () => {
  const response = {
    id: '6f1c7c3e-3d1a-4e55-9d54-0b8d2f7f9a10',
    status: 'pending',
    url: 'https://checkout.test/6f1c',
    amount: '12.50',
    currency: 'SGD',
    created_at: '2026-11-22T10:00:00',
    some_new_field: { kept: true },
  };

  it('keeps unknown fields and normalises amount and currency', () => {
    expect(paymentRequestSchema.parse({ ...response, amount: 12.5 })).toEqual({ ...response, currency: 'sgd' });
  });

  it('refuses a response without the fields paykit needs', () => {
    const { url: _url, ...withoutUrl } = response;
    expect(paymentRequestSchema.safeParse(withoutUrl).success).toBe(false);
  });
});
