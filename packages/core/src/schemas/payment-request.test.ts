import { describe, expect, it } from 'vitest';
import { decodeForm } from '../form.js';
import { toErrorBody } from '../validation.js';
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
