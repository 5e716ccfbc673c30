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

/** The query of the list: a date range (`to` >= `from`), a cursor and a page size of at most 100. */
export const balanceTransactionQuerySchema = z
  .strictObject({
    created_at_from: isoDate.optional(),
    created_at_to: isoDate.optional(),
    cursor: z.string().min(1).max(512).optional(),
    per_page: z.coerce
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(100, 'must be at most 100')
      .optional(),
  })
  .refine((q) => !q.created_at_from || !q.created_at_to || q.created_at_to >= q.created_at_from, {
    path: ['created_at_to'],
    message: 'must be on or after created_at_from',
  });

/** What goes into {@link balanceTransactionQuerySchema}. */
export type BalanceTransactionQuery = z.input<typeof balanceTransactionQuerySchema>;
