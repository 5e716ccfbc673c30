import { describe, expect, it } from 'vitest';
import { balanceTransactionListSchema, balanceTransactionQuerySchema } from './balance-transaction.js';
import { beneficiarySchema } from './beneficiary.js';
import { payoutSchema } from './payout.js';
import { refundCreateSchema, refundSchema } from './refund.js';
import { recurringBillingSchema } from './recurring-billing.js';
import { staffMemberSchema } from './staff.js';

const payout = {
  id: '6f1c1b36-1111-4000-8000-000000000001',
  status: 'paid',
  currency: 'sgd',
  amount: 100.5,
  source_currency: 'sgd',
  source_amount: 100.5,
  created_at: '2026-11-22T10:00:00',
  updated_at: '2026-11-22T10:00:00',
};

describe('resource schemas', () => {
  it('requires a failure_code on a failed payout, and knows only the six statuses', () => {
    expect(payoutSchema.safeParse(payout).success).toBe(true);
    const failed = payoutSchema.safeParse({ ...payout, status: 'failed' });
    expect(failed.success).toBe(false);
    expect(failed.error?.issues[0]?.path).toEqual(['failure_code']);
    expect(payoutSchema.safeParse({ ...payout, status: 'failed', failure_code: 'account_closed' }).success).toBe(true);
    expect(payoutSchema.safeParse({ ...payout, status: 'sent' }).success).toBe(false);
  });

  it('reads each date-time in the format the spec gives for that field', () => {
    const refund = {
      id: 'r1',
      payment_id: 'p1',
      amount_refunded: 5,
      total_amount: 10,
      currency: 'SGD',
      refunded_at: '2026-11-22T02:00:00.123456Z',
      created_at: '2026-11-22T10:00:00',
    };
    expect(refundSchema.parse(refund)).toMatchObject({ currency: 'sgd', status: 'succeeded' });
    expect(refundSchema.safeParse({ ...refund, refunded_at: '2026-11-22T02:00:00Z' }).success).toBe(false);
    expect(refundSchema.safeParse({ ...refund, created_at: '2026-11-22T10:00:00+08:00' }).success).toBe(false);
    const staff = {
      id: 's1',
      name: 'Ann',
      role: { id: 'r', title: 'Admin' },
      email: 'a@b.c',
      invited_at: '2026-11-22T02:00:00.000001Z',
      locations: [],
    };
    expect(staffMemberSchema.safeParse(staff).success).toBe(true);
    const beneficiary = {
      id: 'b1',
      status: 'approved',
      country: 'SG',
      currency: 'SGD',
      holder_name: 'Ann',
      account_number: '123',
      created_at: '2026-11-22T10:00:00+08:00',
      updated_at: '2026-11-22T10:00:00+0800',
    };
    expect(beneficiarySchema.parse(beneficiary)).toMatchObject({ country: 'sg', currency: 'sgd' });
    expect(beneficiarySchema.safeParse({ ...beneficiary, created_at: '2026-11-22T10:00:00' }).success).toBe(false);
  });

  it('keeps unknown fields of responses', () => {
    expect(payoutSchema.parse({ ...payout, new_field: 1 })).toHaveProperty('new_field', 1);
  });

  it('reads the saved card brand and last four digits', () => {
    const card = recurringBillingSchema.parse({
      id: 'c1',
      customer_name: 'Ann',
      customer_email: 'a@b.c',
      name: 'Card',
      cycle: 'save_card',
      currency: 'sgd',
      price: 0,
      amount: 0,
      status: 'active',
      created_at: '2026-11-22T10:00:00',
      updated_at: '2026-11-22T10:00:00',
      payment_method: { card: { brand: 'visa', last4: '4242' } },
    });
    expect(card.payment_method?.card.last4).toBe('4242');
  });

  it('checks refund requests and balance queries strictly', () => {
    expect(refundCreateSchema.safeParse({ amount: '1.005', payment_id: 'p' }).success).toBe(false);
    expect(refundCreateSchema.safeParse({ amount: 1, payment_id: 'p', send_email: true }).success).toBe(false);
    const range = balanceTransactionQuerySchema.safeParse({
      created_at_from: '2026-11-22',
      created_at_to: '2026-11-21',
    });
    expect(range.error?.issues[0]?.path).toEqual(['created_at_to']);
    expect(balanceTransactionQuerySchema.safeParse({ per_page: 101 }).success).toBe(false);
    const list = balanceTransactionListSchema.parse({
      data: [
        { datetime: '2026-11-22T10:00:00+08:00', description: 'Charge', credit: 10, debit: null, currency: 'sgd' },
      ],
      meta: { per_page: 100, next_cursor: null, prev_cursor: null },
    });
    expect(list.meta.per_page).toBe('100');
    expect(list.data[0]?.currency).toBe('SGD');
  });
});
