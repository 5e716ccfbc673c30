/**
 * The commerce family (spec 4.10, scope `commerce:*`): products, invoices and orders. The spec names the
 * operations but shows no shapes; these are paykit's (and its sandbox's), kept small and parsed leniently.
 */
import * as z from 'zod';
import {
  amount,
  booleanish,
  email,
  id,
  isoDate,
  recordCurrency,
  recordMoney,
  requestCurrency,
  webUrl,
} from './fields.js';

const name = z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

/** A count of 0 or more, as a number or as text (multipart and form bodies carry text). */
const count = z
  .union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number').transform(Number)], {
    error: 'must be a whole number of 0 or more',
  })
  .pipe(z.number().int('must be a whole number').min(0, 'must be 0 or more'));

/** The service's `'1'`/`'0'` flags, also taken as booleans and `true`/`false` (JSON callers send those). */
const flag = z.union([booleanish, z.literal(1).transform(() => true), z.literal(0).transform(() => false)]);

/**
 * A list as a JSON body or `name[]` form fields send it, or as the service's own client collection sends it in
 * its multipart product form: one field whose text is a JSON array (`channels` = `["pos","online_store"]`,
 * collections/hitpay-products-api.postman_collection.json in api-evangelist/hitpay, "Create a Product").
 * The text is read as JSON first, then checked as the list, so a bad item is named as in any other list.
 */
function listOrJsonText<T extends z.ZodType<unknown[], unknown[]>>(list: T, what: string) {
  return z
    .union([z.array(z.unknown()), z.string()], { error: `must be ${what}` })
    .transform((value, ctx): unknown[] => {
      if (Array.isArray(value)) return value;
      try {
        const parsed: unknown = JSON.parse(value);
        if (Array.isArray(parsed)) return parsed;
      } catch {
        // Not JSON: refused below, as any other text.
      }
      ctx.issues.push({ code: 'custom', message: `must be ${what} (a JSON array as text in a form)`, input: value });
      return z.NEVER;
    })
    .pipe(list);
}

/** A list of ids (`category_ids[]` in a form, or a JSON array as text). */
const ids = listOrJsonText(
  z.array(z.string().min(1).max(255), { error: 'must be a list of ids' }).max(100),
  'a list of ids',
);

/** Where a product is sold, as the service names its channels. */
export const productChannels = ['online_store', 'pos', 'invoice'] as const;

/**
 * The body of `POST /v1/products`, as the service documents it (its products OpenAPI; multipart/form-data,
 * which the sandbox also takes as JSON or form-urlencoded). `name` and `price` are required; `currency`
 * defaults to the business's. Variations, locations and image files are not taken by the sandbox.
 */
export const productCreateSchema = z.looseObject({
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
  channels: listOrJsonText(
    z
      .array(z.enum(productChannels, { error: `must be one of ${productChannels.join(', ')}` }))
      .max(productChannels.length, `must have at most ${productChannels.length} channels`),
    'a list of channels',
  ).optional(),
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

/** How an invoice is priced: by an amount, or by products (the sandbox invoices by amount only). */
export const invoicePaymentBy = ['amount', 'product'] as const;

/**
 * The body of `POST /v1/invoices`, as the service documents it (its invoices OpenAPI): `invoice_date`,
 * `currency`, `amount` and `payment_by` with a `customer` (`name`, `email`) or a `customer_id`;
 * `invoice_number` when `auto_invoice_number` is off. Partial payments, discounts, recipients and invoicing by
 * product are not taken by the sandbox.
 */
export const invoiceCreateSchema = z
  .looseObject({
    customer: z
      .strictObject({
        name: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters'),
        email,
      })
      .optional(),
    customer_id: z.string().min(1).max(255).optional(),
    invoice_date: isoDate.optional(),
    due_date: isoDate.optional(),
    auto_invoice_number: flag.optional(),
    invoice_number: z.string().min(1).max(255, 'must be at most 255 characters').optional(),
    currency: requestCurrency,
    payment_methods: z.array(z.string().min(1).max(100)).max(50).optional(),
    amount,
    subtotal: amount.optional(),
    payment_by: z
      .enum(invoicePaymentBy, { error: `must be one of ${invoicePaymentBy.join(', ')}` })
      .refine((by) => by === 'amount', 'must be amount: the sandbox does not invoice by product')
      .optional(),
    tax_setting: z.string().max(255).optional(),
    send_email: flag.optional(),
    webhook: webUrl.optional(),
    reference: z.string().max(255, 'must be at most 255 characters').optional(),
    description: z.string().max(2000).optional(),
    footer: z.string().max(2000).optional(),
    allow_partial_payments: flag.optional(),
  })
  .superRefine((invoice, ctx) => {
    if (invoice.customer === undefined && invoice.customer_id === undefined) {
      ctx.addIssue({ code: 'custom', path: ['customer'], message: 'is required when customer_id is not present' });
    }
    if (invoice.invoice_date === undefined) {
      ctx.addIssue({ code: 'custom', path: ['invoice_date'], message: 'is required' });
    }
    if (invoice.payment_by === undefined) {
      ctx.addIssue({ code: 'custom', path: ['payment_by'], message: 'is required' });
    }
    if (invoice.auto_invoice_number === false && invoice.invoice_number === undefined) {
      ctx.addIssue({ code: 'custom', path: ['invoice_number'], message: 'is required when auto_invoice_number is 0' });
    }
    if (
      invoice.due_date !== undefined &&
      invoice.invoice_date !== undefined &&
      invoice.due_date < invoice.invoice_date
    ) {
      ctx.addIssue({ code: 'custom', path: ['due_date'], message: 'must be on or after invoice_date' });
    }
  });

/** What goes into {@link invoiceCreateSchema}. */
export type InvoiceCreateInput = z.input<typeof invoiceCreateSchema>;

/** The filters of the invoice list (the operation table's `query` column), as the service names them. */
export const invoiceListFiltersSchema = z.object({
  customer_email: z.string().optional(),
  status: z.string().optional(),
  reference: z.string().optional(),
});

/** The filters of the invoice list as a caller gives them. */
export type InvoiceListFilters = z.input<typeof invoiceListFiltersSchema>;

/** An invoice. The service documents no answer for it; the sandbox's echoes the request's fields. */
export const invoiceSchema = z.looseObject({
  id,
  status: z.string(),
  customer: z.looseObject({ name: z.string().nullish(), email: z.string().nullish() }).nullish(),
  customer_id: z.string().nullish(),
  invoice_number: z.string().nullish(),
  invoice_date: z.string().nullish(),
  due_date: z.string().nullish(),
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
