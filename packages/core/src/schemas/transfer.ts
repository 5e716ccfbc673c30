/**
 * Transfers (`/v1/transfers`) and account status (`/v1/account-status`). The spec names them only; these
 * shapes are paykit's.
 */
import * as z from 'zod';
import { amount, id, recordCurrency, recordMoney, requestCurrency } from './fields.js';

/** The body of `POST /v1/transfers`: money to a beneficiary. */
export const transferCreateSchema = z.strictObject({
  beneficiary_id: z.string().min(1, 'is required').max(255),
  amount,
  currency: requestCurrency,
  reference: z.string().max(255).optional(),
});

/** What goes into {@link transferCreateSchema}. */
export type TransferCreateInput = z.input<typeof transferCreateSchema>;

/** A transfer. */
export const transferSchema = z.looseObject({
  id,
  status: z.string(),
  beneficiary_id: z.string(),
  amount: recordMoney,
  currency: recordCurrency,
  reference: z.string().nullish(),
  created_at: z.string().optional(),
});

/** A transfer. */
export type Transfer = z.output<typeof transferSchema>;

/** The account status: whether the business may take payments and receive payouts. */
export const accountStatusSchema = z.looseObject({
  payments_enabled: z.boolean(),
  payouts_enabled: z.boolean().optional(),
  status: z.string().optional(),
});

/** The account status. */
export type AccountStatus = z.output<typeof accountStatusSchema>;
