/**
 * The payment request of spec sections 2.7 and 4.7: the create body (JSON or form) and the resource.
 */
import * as z from 'zod';
import { parseAmount } from '../money.js';
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

/** Statuses paykit knows. The spec names only `pending`; the others are what the sandbox uses and what events imply. */
export const paymentRequestStatuses = ['pending', 'completed', 'failed', 'canceled'] as const;

/** A status paykit knows. Responses may carry others; they are kept as text and treated as not final. */
export type PaymentRequestStatus = (typeof paymentRequestStatuses)[number];

/** A payment method identifier such as `paynow_online`, `card` or `wifi_card_reader`. */
export const paymentMethod = z
  .string()
  .regex(/^[a-z0-9_]{1,64}$/, 'must be a payment method identifier such as paynow_online');

/**
 * The body of `POST /v1/payment-requests`, validated strictly before anything is sent: unknown fields are
 * refused, `amount` > 0 with at most two decimals, `currency` normalised to upper case, URLs https (http only
 * for localhost), and `platform_commission_amount` > 0, at most two decimals, strictly below `amount`, and
 * not on a request that allows repeated payments (spec 5.4).
 *
 * `amount` and `currency` are required by paykit; the spec does not say which fields are required.
 */
export const paymentRequestCreateSchema = z
  .strictObject({
    amount,
    currency: requestCurrency,
    email: email.optional(),
    purpose: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters').optional(),
    redirect_url: webUrl.optional(),
    webhook: webUrl.optional(),
    payment_methods: z
      .array(paymentMethod)
      .min(1, 'must name at least one method')
      .max(20, 'must name at most 20 methods')
      .refine((methods) => new Set(methods).size === methods.length, 'must not repeat a method')
      .optional(),
    wifi_terminal_id: z.string().min(1).max(64, 'must be at most 64 characters').optional(),
    allow_repeated_payments: booleanish.optional(),
    /** Saves the card for later charges (a saved-card billing record, spec 2.3). The spec shows no field name. */
    save_card: booleanish.optional(),
    platform_commission_amount: amount.optional(),
  })
  .superRefine((body, ctx) => {
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
  });

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
  purpose: z.string().nullish(),
  redirect_url: z.string().nullish(),
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
