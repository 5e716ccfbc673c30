/**
 * When a fact happened, as compared with a store's horizon: the payment's own time, which does not move when the
 * request is edited later, and nothing guessed when the API gives no time.
 */
import type { Charge, PaymentRequest } from '@paykit/core';
import { describe, expect, it } from 'vitest';
import type { ConfirmedEvent } from '../handler/options.js';
import { factTime, readTime } from './fact-time.js';

const request = (fields: Partial<PaymentRequest> & Record<string, unknown>): PaymentRequest => ({
  id: 'pr_1',
  status: 'completed',
  url: 'https://checkout.test/pr_1',
  amount: '12.50',
  currency: 'SGD',
  created_at: '2026-11-01T09:00:00',
  updated_at: '2026-11-20T12:00:00',
  ...fields,
});
const paid = (paymentRequest: PaymentRequest, charge?: Charge): ConfirmedEvent => ({
  type: paymentRequest.status === 'completed' ? 'payment_request.completed' : 'payment_request.failed',
  fact: `payment_request.completed:${paymentRequest.id}`,
  source: 'return',
  paymentRequest,
  ...(charge ? { charge } : {}),
});

describe('factTime', () => {
  it('dates a paid request by its payment of that outcome, not by updated_at, which a later edit moves', () => {
    const payments = [
      { id: 'c1', status: 'failed', created_at: '2026-11-01T09:05:00' },
      { id: 'c2', status: 'succeeded', created_at: '2026-11-01T09:06:30' },
    ];
    expect(factTime(paid(request({ payments })))).toBe(Date.UTC(2026, 10, 1, 9, 6, 30));
    // Refunded since: still the payment that paid it.
    const refunded = [{ id: 'c2', status: 'refunded', created_at: '2026-11-01T09:06:30' }];
    expect(factTime(paid(request({ payments: refunded })))).toBe(Date.UTC(2026, 10, 1, 9, 6, 30));
    // A failed request by its failed payment.
    expect(factTime(paid(request({ status: 'failed', payments })))).toBe(Date.UTC(2026, 10, 1, 9, 5, 0));
  });

  it('falls back to the charge that told of it, then to updated_at, then to created_at', () => {
    const charge = { id: 'c2', status: 'succeeded', amount: 12.5, currency: 'sgd', created_at: '2026-11-01T09:07:00' };
    expect(factTime(paid(request({}), charge as Charge))).toBe(Date.UTC(2026, 10, 1, 9, 7, 0));
    expect(factTime(paid(request({ payments: 'not a list' })))).toBe(Date.UTC(2026, 10, 20, 12, 0, 0));
    expect(factTime(paid(request({ updated_at: undefined })))).toBe(Date.UTC(2026, 10, 1, 9, 0, 0));
    expect(factTime(paid(request({ updated_at: undefined, created_at: undefined })))).toBeUndefined();
  });

  it("dates a refund by refunded_at, and other charge events by the charge's creation", () => {
    const charge = {
      id: 'c3',
      status: 'refunded',
      amount: 5,
      currency: 'sgd',
      created_at: '2026-11-01T09:00:00',
      updated_at: '2026-11-25T00:00:00',
      refunded_at: '2026-11-02T10:00:00.123000Z',
    } as Charge;
    const base = { fact: 'f', source: 'webhook' as const, charge };
    expect(factTime({ ...base, type: 'charge.updated' })).toBe(Date.UTC(2026, 10, 2, 10, 0, 0, 123));
    expect(factTime({ ...base, type: 'charge.created' })).toBe(Date.UTC(2026, 10, 1, 9, 0, 0));
  });
});

describe('readTime', () => {
  it('reads the forms the API writes, without an offset as UTC, and nothing else', () => {
    expect(readTime('2026-11-22T10:00:00')).toBe(Date.UTC(2026, 10, 22, 10));
    expect(readTime('2026-11-22 10:00:00')).toBe(Date.UTC(2026, 10, 22, 10));
    expect(readTime('2026-11-22T10:00:00+08:00')).toBe(Date.UTC(2026, 10, 22, 2));
    expect(readTime('2026-11-22T10:00:00.123000Z')).toBe(Date.UTC(2026, 10, 22, 10, 0, 0, 123));
    for (const value of [undefined, null, 1_700_000_000_000, '', 'yesterday', '22/11/2026', '2026-13-40T99:00:00']) {
      expect(readTime(value)).toBeUndefined();
    }
  });
});
