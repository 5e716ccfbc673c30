/**
 * The commerce family (spec 4.10, scope `commerce:*`): products, invoices and orders. The spec names the
 * operations but shows no shapes; these are paykit's (and its sandbox's), kept small and parsed leniently.
 */
import * as z from 'zod';
import { amount, email, id, recordCurrency, recordMoney, requestCurrency } from './fields.js';

const name = z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

/** The body of `POST /v1/products`. */
export const productCreateSchema = z.strictObject({
  name,
  description: z.string().max(2000).optional(),
  price: amount,
  currency: requestCurrency,
});

/** What goes into {@link productCreateSchema}. */
export type ProductCreateInput = z.input<typeof productCreateSchema>;

/** A product. */
export const productSchema = z.looseObject({
  id,
  name: z.string(),
  description: z.string().nullish(),
  price: recordMoney,
  currency: recordCurrency,
  created_at: z.string().optional(),
});

/** A product. */
export type Product = z.output<typeof productSchema>;

/** The body of `POST /v1/invoices`. */
export const invoiceCreateSchema = z.strictObject({
  customer_email: email,
  amount,
  currency: requestCurrency,
  description: z.string().max(2000).optional(),
  due_date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date such as 2026-11-22')
    .optional(),
});

/** What goes into {@link invoiceCreateSchema}. */
export type InvoiceCreateInput = z.input<typeof invoiceCreateSchema>;

/** An invoice. */
export const invoiceSchema = z.looseObject({
  id,
  status: z.string(),
  customer_email: z.string(),
  amount: recordMoney,
  currency: recordCurrency,
  url: z.string().nullish(),
  created_at: z.string().optional(),
});

/** An invoice. */
export type Invoice = z.output<typeof invoiceSchema>;

/** An order: what a paid payment request or invoice became. */
export const orderSchema = z.looseObject({
  id,
  status: z.string(),
  amount: recordMoney,
  currency: recordCurrency,
  payment_request_id: z.string().nullish(),
  created_at: z.string().optional(),
});

/** An order. */
export type Order = z.output<typeof orderSchema>;
