/**
 * Balance transactions (spec 2.6, 4.6): the ledger of the business, listed by date range with cursors.
 */
import * as z from 'zod';
import { isoDate, offsetDateTime, recordMoney } from './fields.js';

/** One ledger entry. `debit` is negative on outgoing entries; `currency` is upper case here (spec 2.6). */
export const balanceTransactionSchema = z.looseObject({
  datetime: offsetDateTime,
  description: z.string(),
  charge_id: z.string().nullish(),
  order_id: z.string().nullish(),
  payout_id: z.string().nullish(),
  transfer_id: z.string().nullish(),
  debit: recordMoney.nullish(),
  credit: recordMoney.nullish(),
  currency: z.string().transform((code) => code.toUpperCase()),
});

/** A ledger entry. */
export type BalanceTransaction = z.output<typeof balanceTransactionSchema>;

/** A page of the ledger: `meta.per_page` is a string in the spec. */
export const balanceTransactionListSchema = z.looseObject({
  data: z.array(balanceTransactionSchema),
  meta: z.looseObject({
    per_page: z.union([z.string(), z.number()]).transform(String),
    next_cursor: z.string().nullable(),
    prev_cursor: z.string().nullable(),
  }),
});

/** A page of the ledger. */
export type BalanceTransactionList = z.output<typeof balanceTransactionListSchema>;

/** A day as the list's range takes it: `YYYY-MM-DD`, and a day the calendar has. */
const listDate = isoDate.refine((day) => !Number.isNaN(Date.parse(day)), 'must be a date such as 2026-11-22');

/** The range of the list; `created_at_to` must not be before `created_at_from`. */
const range = { created_at_from: listDate.optional(), created_at_to: listDate.optional() };
const rangeInOrder = (q: { created_at_from?: string | undefined; created_at_to?: string | undefined }) =>
  !q.created_at_from || !q.created_at_to || q.created_at_to >= q.created_at_from;
const rangeOrder = { path: ['created_at_to'], message: 'must be on or after created_at_from' };

/**
 * The filters of the list (the operation table's `query` column): the date range. The client checks what it sends
 * with it and the sandbox reads what it gets with it; the paging parameters are the table's, unknown ones are left out.
 */
export const balanceTransactionFiltersSchema = z.object(range).refine(rangeInOrder, rangeOrder);

/** The filters of the list as a caller gives them. */
export type BalanceTransactionFilters = z.input<typeof balanceTransactionFiltersSchema>;

/** The whole query of the list, strictly: the date range, a cursor and a page size of at most 100. */
export const balanceTransactionQuerySchema = z
  .strictObject({
    ...range,
    cursor: z.string().min(1).max(512).optional(),
    per_page: z.coerce
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(100, 'must be at most 100')
      .optional(),
  })
  .refine(rangeInOrder, rangeOrder);

/** What goes into {@link balanceTransactionQuerySchema}. */
export type BalanceTransactionQuery = z.input<typeof balanceTransactionQuerySchema>;
