/**
 * A payout: a settlement of the available balance to the linked bank account (spec 2.1, 4.1).
 * Rule 3.1: a `failed` payout carries a `failure_code`.
 */
import * as z from 'zod';
import { id, isoDate, recordCurrency, recordMoney } from './fields.js';

/** The six payout statuses of spec 2.1. */
export const payoutStatuses = ['scheduled', 'processing', 'paid', 'failed', 'canceled', 'pending'] as const;

/** A payout status. */
export type PayoutStatus = (typeof payoutStatuses)[number];

/** A payout as `GET /v1/payouts/{id}` answers with it. */
export const payoutSchema = z
  .looseObject({
    id,
    status: z.enum(payoutStatuses),
    currency: recordCurrency,
    amount: recordMoney,
    source_currency: recordCurrency,
    source_amount: recordMoney,
    bank_name: z.string().nullish(),
    bank_account: z.string().nullish(),
    remark: z.string().nullish(),
    reference: z.string().nullish(),
    failure_code: z.string().nullish(),
    failure_message: z.string().nullish(),
    arrival_date: isoDate.nullish(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .refine((payout) => payout.status !== 'failed' || Boolean(payout.failure_code), {
    path: ['failure_code'],
    message: 'must be present when the payout failed',
  });

/** A payout. */
export type Payout = z.output<typeof payoutSchema>;
