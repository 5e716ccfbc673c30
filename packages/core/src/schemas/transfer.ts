/**
 * Transfers (`/v1/transfers`, `/v1/transfers/estimate`) and account status (`/v1/account-status`). The spec
 * names them only (4.10); the shapes follow the real service's public description (its transfers OpenAPI):
 * money leaves in `source_currency`/`source_amount` and arrives as `payment_currency`/`payment_amount` at
 * `exchange_rate` (payment units per source unit, a decimal string), with a `fee` someone pays.
 */
import * as z from 'zod';
import { amount, id, recordCurrency, requestCurrency } from './fields.js';

/** Who bears a transfer's fee (the service's `fee.paid_by` / `fee_payer`). */
export const transferFeePayers = ['payer', 'beneficiary'] as const;

/** Transfer statuses the service documents. */
export const transferStatuses = ['scheduled', 'processing', 'paid', 'failed', 'canceled'] as const;

/**
 * The amount fields shared by a transfer and its estimate: the beneficiary, the currency money leaves in, and
 * the amount on either side (one is enough; when both are given the beneficiary's `payment_amount` decides).
 */
const transferAmounts = {
  beneficiary_id: z.string({ error: 'is required' }).min(1, 'is required').max(255),
  source_currency: requestCurrency.optional(),
  source_amount: amount.optional(),
  payment_amount: amount.optional(),
};

interface AmountFields {
  source_currency?: string | undefined;
  source_amount?: number | undefined;
  payment_amount?: number | undefined;
}

/** Refuses a body that names no amount or no source currency, as the service does (its 422 names both). */
function needsAmountAndCurrency(body: AmountFields, ctx: z.RefinementCtx): void {
  if (body.source_currency === undefined) {
    ctx.addIssue({ code: 'custom', path: ['source_currency'], message: 'is required' });
  }
  if (body.source_amount === undefined && body.payment_amount === undefined) {
    ctx.addIssue({
      code: 'custom',
      path: ['source_amount'],
      message: 'is required when payment_amount is not present',
    });
  }
}

/** The body of `POST /v1/transfers/estimate`: what a transfer would cost, changing nothing. */
export const transferEstimateSchema = z.looseObject(transferAmounts).superRefine(needsAmountAndCurrency);

/** What goes into {@link transferEstimateSchema}. */
export type TransferEstimateInput = z.input<typeof transferEstimateSchema>;

/** What {@link transferEstimateSchema} yields (a transfer's body yields these fields too). */
export type TransferEstimateOutput = z.output<typeof transferEstimateSchema>;

/** The body of `POST /v1/transfers`: money to a saved beneficiary. */
export const transferCreateSchema = z
  .looseObject({
    ...transferAmounts,
    remitter_id: z.string().min(1).max(255).optional(),
    remark: z.string().max(120, 'must be at most 120 characters').optional(),
    reference: z.string().max(120, 'must be at most 120 characters').optional(),
  })
  .superRefine(needsAmountAndCurrency);

/** What goes into {@link transferCreateSchema}. */
export type TransferCreateInput = z.input<typeof transferCreateSchema>;

/** A transfer. */
export const transferSchema = z.looseObject({
  id,
  status: z.string(),
  beneficiary: z.looseObject({ id: z.string() }),
  payment_currency: recordCurrency,
  payment_amount: z.number(),
  source_currency: recordCurrency,
  source_amount: z.number(),
  exchange_rate: z.union([z.string(), z.number()]).transform(String),
  // The fee: its amount, its currency and who pays it (`payer` or `beneficiary`).
  fee: z.looseObject({ amount: z.number(), currency: recordCurrency, paid_by: z.string() }),
  remark: z.string().nullish(),
  reference: z.string().nullish(),
  created_at: z.string().optional(),
});

/** A transfer. */
export type Transfer = z.output<typeof transferSchema>;

/** The answer of `POST /v1/transfers/estimate`. */
export const transferEstimateResultSchema = z.looseObject({
  source_amount: z.number(),
  source_amount_fees: z.number(),
  source_currency: recordCurrency,
  exchange_rate: z.union([z.string(), z.number()]).transform(String),
  fx_pair: z.string().optional(),
  payment_amount: z.number(),
  payment_amount_fees: z.number(),
  payment_currency: recordCurrency,
  fee_payer: z.string().optional(),
  fee_currency: recordCurrency.optional(),
});

/** A transfer estimate. */
export type TransferEstimate = z.output<typeof transferEstimateResultSchema>;

/** The filters of the transfer list (the operation table's `query` column), as the service names them. */
export const transferListFiltersSchema = z.object({
  beneficiary_id: z.string().optional(),
  status: z.string().optional(),
});

/** The filters of the transfer list as a caller gives them. */
export type TransferListFilters = z.input<typeof transferListFiltersSchema>;

/** The account status: whether the business may take payments and receive payouts. */
export const accountStatusSchema = z.looseObject({
  payments_enabled: z.boolean(),
  payouts_enabled: z.boolean().optional(),
  status: z.string().optional(),
});

/** The account status. */
export type AccountStatus = z.output<typeof accountStatusSchema>;
