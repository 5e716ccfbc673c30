/**
 * The commerce family (spec 4.10, scope `commerce:*`): products, invoices and orders. The spec names the
 * operations but shows no shapes; these are paykit's (and its sandbox's), kept small and parsed leniently.
 */
import * as z from 'zod';
import { amount, booleanish, email, id, recordCurrency, recordMoney, requestCurrency } from './fields.js';

const name = z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

/** A count of 0 or more, as a number or as text (multipart and form bodies carry text). */
const count = z
  .union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number').transform(Number)], {
    error: 'must be a whole number of 0 or more',
  })
  .pipe(z.number().int('must be a whole number').min(0, 'must be 0 or more'));

/** The service's `'1'`/`'0'` flags, also taken as booleans and `true`/`false` (JSON callers send those). */
const flag = z.union([booleanish, z.literal(1).transform(() => true), z.literal(0).transform(() => false)]);

/** A list of ids (`category_ids[]` in a form). */
const ids = z.array(z.string().min(1).max(255), { error: 'must be a list of ids' }).max(100);

/** Where a product is sold, as the service names its channels. */
export const productChannels = ['online_store', 'pos', 'invoice'] as const;

/**
 * The body of `POST /v1/products`, as the service documents it (its products OpenAPI; multipart/form-data,
 * which the sandbox also takes as JSON or form-urlencoded). `name` and `price` are required; `currency`
 * defaults to the business's. Variations, locations and image files are not taken by the sandbox.
 */
export const productCreateSchema = z.strictObject({
  name,
  price: amount,
  currency: requestCurrency.optional(),
  description: z.string().max(65_535).optional(),
  headline: z.string().max(255, 'must be at most 255 characters').optional(),
  barcode: z.string().max(255, 'must be at most 255 characters').optional(),
  stock_keeping_unit: z.string().max(255, 'must be at most 255 characters').optional(),
  quantity: count.optional(),
  quantity_alert_level: count.optional(),
  category_ids: ids.optional(),
  location_ids: ids.optional(),
  channels: z
    .array(z.enum(productChannels, { error: `must be one of ${productChannels.join(', ')}` }))
    .max(productChannels.length)
    .optional(),
  open_amount: flag.optional(),
  is_manageable: flag.optional(),
  is_pinned: flag.optional(),
  publish: flag.optional(),
  product_weight: count.optional(),
  delivery_method_required: flag.optional(),
});

/** What goes into {@link productCreateSchema}. */
export type ProductCreateInput = z.input<typeof productCreateSchema>;

/** A product, as the service answers with it (the sandbox's carries no variations or images). */
export const productSchema = z.looseObject({
  id,
  name: z.string(),
  description: z.string().nullish(),
  price: recordMoney,
  currency: recordCurrency,
  price_display: z.string().optional(),
  price_stored: z.number().optional(),
  status: z.string().optional(),
  is_published: z.boolean().optional(),
  category_id: z.array(z.string()).optional(),
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
