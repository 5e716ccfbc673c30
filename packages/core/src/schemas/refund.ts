/**
 * Refunds (spec 2.2, 4.5): the request (its documented fields checked, any other kept: the service ignores them)
 * and the refund the API answers with.
 */
import * as z from 'zod';
import { amount, email, id, localDateTime, recordCurrency, recordMoney, utcMicrosDateTime, webUrl } from './fields.js';

/** The body of `POST /v1/refund` (or `/v1/refunds`). `amount` is what remains to be refunded, or part of it. */
export const refundCreateSchema = z.looseObject({
  amount,
  payment_id: z.string().min(1, 'is required').max(255),
  webhook: webUrl.optional(),
  send_email: z.enum(['true', 'false'], { error: 'must be "true" or "false"' }).optional(),
  email: email.optional(),
});

/** What goes into {@link refundCreateSchema}. */
export type RefundCreateInput = z.input<typeof refundCreateSchema>;

/** A refund. Dates: `refunded_at` UTC with microseconds and `Z`; `created_at` without offset. */
export const refundSchema = z.looseObject({
  id,
  refunded_by: z.string().nullish(),
  payment_id: z.string(),
  amount_refunded: recordMoney.default(0),
  total_amount: recordMoney.default(0),
  currency: recordCurrency,
  status: z.string().default('succeeded'),
  payment_method: z.string().nullish(),
  provider_fee: recordMoney.nullish(),
  provider_fee_currency: z.string().nullish(),
  refunded_at: utcMicrosDateTime,
  created_at: localDateTime,
});

/** A refund. */
export type Refund = z.output<typeof refundSchema>;
