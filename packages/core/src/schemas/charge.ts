/**
 * A charge: one attempt to collect a payment request. The spec does not show the charge record; this is the
 * shape the sandbox answers with, documented as paykit's, and parsed leniently.
 */
import * as z from 'zod';
import { dateTime, id, recordCurrency } from './fields.js';

/** Charge statuses the sandbox uses. */
export const chargeStatuses = ['pending', 'succeeded', 'failed', 'refunded', 'partially_refunded'] as const;

/** A charge as the API (or the sandbox) answers with it. */
export const chargeSchema = z.looseObject({
  id,
  status: z.string().min(1),
  amount: z.number(),
  currency: recordCurrency,
  payment_request_id: z.string().nullish(),
  // A saved card's charge: null payment_request_id, and the recurring billing record it charged.
  recurring_billing_id: z.string().nullish(),
  payment_method: z.string().nullish(),
  business_id: z.string().nullish(),
  // The fee and currency fields of the service's charges: the currency it settles in and at what rate, and the
  // processing fee as a fixed part plus `discount_fee` at `discount_fee_rate` percent.
  home_currency: recordCurrency.optional(),
  exchange_rate: z.union([z.string(), z.number()]).transform(String).nullish(),
  fixed_fee: z.number().optional(),
  discount_fee: z.number().optional(),
  discount_fee_rate: z.number().optional(),
  created_at: dateTime.optional(),
});

/** A charge. */
export type Charge = z.output<typeof chargeSchema>;
