/**
 * The payment request of spec sections 2.7 and 4.7: the create body (JSON or form) and the resource.
 */
import * as z from 'zod';
import { parseAmount } from '../amounts.js';
import {
  amount,
  booleanish,
  dateTime,
  email,
  id,
  recordCurrency,
  requestCurrency,
  responseAmount,
  webUrl,
} from './fields.js';
import { listOf } from './list.js';

/**
 * Statuses paykit knows. The spec names only `pending`; the others are what the sandbox uses and what events imply,
 * and `expired` the service's OpenAPI ("no longer payable because time ran out": `expiry_date`/`expires_after`).
 */
export const paymentRequestStatuses = ['pending', 'completed', 'failed', 'canceled', 'expired'] as const;

/** A status paykit knows. Responses may carry others; they are kept as text and treated as not final. */
export type PaymentRequestStatus = (typeof paymentRequestStatuses)[number];

/** A payment method identifier such as `paynow_online`, `card` or `wifi_card_reader`. */
export const paymentMethod = z
  .string()
  .regex(/^[a-z0-9_]{1,64}$/, 'must be a payment method identifier such as paynow_online');

/** A delay such as `30 mins`, `2 hours` or `1 day` (the real service names the units mins, hours and days). */
const expiresAfter = z
  .string()
  .regex(
    /^\d{1,4} ?(min|mins|minute|minutes|hour|hours|day|days)$/,
    'must be a delay such as "30 mins", "2 hours" or "1 day"',
  );

/** A time in Singapore as the real service takes it: `YYYY-MM-DD HH:mm:ss`. */
const singaporeDateTime = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'must be a Singapore time as YYYY-MM-DD HH:mm:ss')
  .refine((value) => !Number.isNaN(Date.parse(`${value.replace(' ', 'T')}+08:00`)), 'must be a real date and time');

/** The buyer's address; the real service requires these parts when an address is sent. */
const postalAddress = z.strictObject({
  line1: z.string().min(1).max(255),
  line2: z.string().max(255).optional(),
  city: z.string().min(1).max(255),
  state: z.string().min(1).max(255),
  country: z.string().min(1).max(255),
  postal_code: z.string().min(1).max(32),
});

/** Merchant's key-value pairs: text values of at most 500 characters, at most 50 pairs (the real service's rule). */
const metadata = z
  .record(z.string().min(1).max(255), z.string().max(500, 'values must be at most 500 characters'))
  .refine((value) => Object.keys(value).length <= 50, 'must have at most 50 keys');

/** An identifier of the real service's own records (staff, locations): a UUID. */
const uuidLike = z.guid('must be a UUID');

/**
 * Every field of `POST /v1/payment-requests`: the spec's (4.7, 2.7) and, where it is silent, the ones the real
 * service documents (its OpenAPI description; the sandbox README lists each choice). Bounds the spec does not
 * state are the real service's (`purpose` and `reference_number` at most 255, `redirect_url` at most 1028).
 */
export const paymentRequestCreateFields = {
  amount,
  currency: requestCurrency,
  email: email.optional(),
  name: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters').optional(),
  phone: z
    .string()
    .regex(/^\+?[0-9][0-9 ()-]{2,31}$/, 'must be a phone number such as +6591234567')
    .optional(),
  purpose: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters').optional(),
  reference_number: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters').optional(),
  redirect_url: webUrl.refine((url) => url.length <= 1028, 'must be at most 1028 characters').optional(),
  webhook: webUrl.optional(),
  payment_methods: z
    .array(paymentMethod)
    .min(1, 'must name at least one method')
    .max(20, 'must name at most 20 methods')
    .refine((methods) => new Set(methods).size === methods.length, 'must not repeat a method')
    .optional(),
  wifi_terminal_id: z.string().min(1).max(64, 'must be at most 64 characters').optional(),
  staff_id: uuidLike.optional(),
  location_id: uuidLike.optional(),
  business_location_id: uuidLike.optional(),
  allow_repeated_payments: booleanish.optional(),
  expiry_date: singaporeDateTime.optional(),
  expires_after: expiresAfter.optional(),
  add_admin_fee: booleanish.optional(),
  send_email: booleanish.optional(),
  send_sms: booleanish.optional(),
  address: postalAddress.optional(),
  generate_qr: booleanish.optional(),
  metadata: metadata.optional(),
  /** Saves the card for later charges (a saved-card billing record, spec 2.3). The spec shows no field name. */
  save_card: booleanish.optional(),
  platform_commission_amount: amount.optional(),
};

/** The names of every field {@link paymentRequestCreateSchema} knows; anything else is not documented anywhere. */
export const PAYMENT_REQUEST_CREATE_FIELDS: readonly string[] = Object.freeze(Object.keys(paymentRequestCreateFields));

/** The rules between fields of a payment request (spec 5.4): a commission below `amount`, and not on a repeatable request. */
export function checkCommission(
  body: {
    amount: number;
    platform_commission_amount?: number | undefined;
    allow_repeated_payments?: boolean | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if (body.platform_commission_amount === undefined) return;
  const commission = parseAmount(body.platform_commission_amount);
  const total = parseAmount(body.amount);
  if (commission.ok && total.ok && commission.minor >= total.minor) {
    ctx.addIssue({ code: 'custom', path: ['platform_commission_amount'], message: 'must be less than amount' });
  }
  if (body.allow_repeated_payments) {
    ctx.addIssue({
      code: 'custom',
      path: ['platform_commission_amount'],
      message: 'cannot be used on a payment request that allows repeated payments',
    });
  }
}

/**
 * The amounts of a payment request in its currency: no more decimals than the currency has (its ISO 4217 minor
 * unit as `Intl.NumberFormat` reports it, at most two: `1250.50` is no amount in JPY). Amounts and currency
 * already passed their own rules.
 */
export function checkCurrencyDecimals(
  body: { amount: number; currency: string; platform_commission_amount?: number | undefined },
  ctx: z.RefinementCtx,
): void {
  for (const path of ['amount', 'platform_commission_amount'] as const) {
    const value = body[path];
    if (value === undefined) continue;
    const parsed = parseAmount(value, body.currency);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', path: [path], message: parsed.reason });
  }
}

/**
 * The body of `POST /v1/payment-requests`, strictly: unknown fields are refused (for code that wants a typo to
 * fail), `amount` > 0 with at most two decimals and no more than its currency has (none in JPY), `currency` normalised to upper case, URLs https (http only
 * for localhost), and `platform_commission_amount` > 0, at most two decimals, strictly below `amount`, and
 * not on a request that allows repeated payments (spec 5.4).
 *
 * `amount` and `currency` are required by paykit (and by the real service); the spec does not say.
 */
export const paymentRequestCreateSchema = z
  .strictObject(paymentRequestCreateFields)
  .superRefine(checkCommission)
  .superRefine(checkCurrencyDecimals);

/** What goes into {@link paymentRequestCreateSchema}: numbers may be strings, booleans may be text. */
export type PaymentRequestCreateInput = z.input<typeof paymentRequestCreateSchema>;
/** A validated create body, ready to send. */
export type PaymentRequestCreate = z.output<typeof paymentRequestCreateSchema>;

/**
 * A payment request as the API answers with it. Parsed leniently: unknown fields pass through, but
 * `id`, `status`, `url`, `amount` and `currency` must be there (without them nothing can be done safely).
 */
export const paymentRequestSchema = z.looseObject({
  id,
  status: z.string().min(1),
  url: z.string().min(1),
  amount: responseAmount,
  currency: recordCurrency,
  email: z.string().nullish(),
  // The real service's documented fields (typed here, all optional: the spec does not show them).
  name: z.string().nullish(),
  phone: z.string().nullish(),
  purpose: z.string().nullish(),
  reference_number: z.string().nullish(),
  redirect_url: z.string().nullish(),
  webhook: z.string().nullish(),
  payment_methods: z.array(z.string()).nullish(),
  send_email: z.boolean().nullish(),
  send_sms: z.boolean().nullish(),
  expiry_date: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  allow_repeated_payments: z.boolean().nullish(),
  platform_commission_amount: z.union([z.number(), z.string()]).nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
});

/** A payment request as the API answers with it. */
export type PaymentRequest = z.output<typeof paymentRequestSchema>;

/** A page of payment requests (see {@link listOf}). */
export const paymentRequestListSchema = listOf(paymentRequestSchema);

/** A page of payment requests. */
export type PaymentRequestList = z.output<typeof paymentRequestListSchema>;
