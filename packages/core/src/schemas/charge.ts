/**
 * A charge: one attempt to collect a payment request, or a charge of a saved card. The spec does not show the
 * charge record; this is the real service's, as its public OpenAPI describes it (charges OpenAPI, "Get All
 * Charges" and "Get Charge Details"; the "Event Webhooks" page adds `business_id`, `refunded_at` and
 * `failed_reason`). Parsed leniently: where the service's own examples disagree (`exchange_rate` a string or a
 * number, `executor` an object or a string), each form is read.
 */
import * as z from 'zod';
import { dateTime, id, recordCurrency } from './fields.js';

/** Charge statuses the sandbox writes: a charge is pending only while it is being decided. */
export const chargeStatuses = ['pending', 'succeeded', 'failed', 'refunded', 'partially_refunded'] as const;

/** A charge's status as the sandbox writes it (the service's list filter names more, such as `void`). */
export type ChargeStatus = (typeof chargeStatuses)[number];

/**
 * A method logo's URLs in its sizes and forms, with the names the service gives it. Every key is optional here:
 * the service's OpenAPI requires them all, but the reader gains nothing by refusing a charge that lacks one.
 */
const methodLogo = z.looseObject({
  sm: z.string().optional(),
  md: z.string().optional(),
  lg: z.string().optional(),
  svg: z.string().optional(),
  svg_square: z.string().optional(),
  png_square: z.string().optional(),
  method: z.string().optional(),
  iconName: z.string().optional(),
  displayName: z.string().optional(),
});

/**
 * How a charge was paid: `name` the method (`card`, `paynow_online`, ...), `code` the service's code for it
 * (its detail example shows the provider's, `stripe_sg`; the list example has none), `type` (`charge`), the
 * provider's own reference, two logos, and for a card `data` with its brand, last four digits and country.
 */
export const chargePaymentMethodSchema = z.looseObject({
  name: z.string(),
  code: z.string().nullish(),
  type: z.string().nullish(),
  provider_reference: z.string().nullish(),
  display_logo: methodLogo.nullish(),
  method_logo: methodLogo.nullish(),
  data: z
    .looseObject({
      brand: z.string().nullish(),
      last4: z.string().nullish(),
      country_code: z.string().nullish(),
      country: z.string().nullish(),
    })
    .nullish(),
});

/** How a charge was paid. */
export type ChargePaymentMethod = z.output<typeof chargePaymentMethodSchema>;

/** A charge as the API (or the sandbox) answers with it. */
export const chargeSchema = z.looseObject({
  id,
  business_id: z.string().nullish(),
  status: z.string().min(1),
  amount: z.number(),
  currency: recordCurrency,
  // The currency it settles in and at what rate; the processing fee as a fixed part plus `discount_fee` at
  // `discount_fee_rate` percent; what the merchant keeps (`amount_without_fees`) and what went back.
  home_currency: recordCurrency.optional(),
  exchange_rate: z.union([z.string(), z.number()]).transform(String).nullish(),
  amount_without_fees: z.number().optional(),
  refunded_amount: z.number().optional(),
  refunded_at: dateTime.nullish(),
  fixed_fee: z.number().optional(),
  discount_fee: z.number().optional(),
  discount_fee_rate: z.number().optional(),
  remark: z.string().nullish(),
  failed_reason: z.string().nullish(),
  payment_method: chargePaymentMethodSchema.nullish(),
  customer_id: z.string().nullish(),
  customer: z
    .looseObject({
      name: z.string().nullish(),
      email: z.string().nullish(),
      // A string in the detail example, untyped in the list's schema: a number is read as its digits.
      phone_number: z.union([z.string(), z.number()]).transform(String).nullish(),
    })
    .nullish(),
  payment_request_id: z.string().nullish(),
  // A saved card's charge: null payment_request_id, and the recurring billing record it charged (paykit's
  // field; the service names the record as `target_id` with `target_type: 'business_recurring_plan'`).
  recurring_billing_id: z.string().nullish(),
  target_id: z.string().nullish(),
  target_type: z.string().nullish(),
  webhook_status: z.boolean().optional(),
  order_reference_number: z.string().nullish(),
  // An object (`id`, `display_name`, `email`) in the list's schema, a string in the detail's.
  executor: z
    .union([
      z.looseObject({ id: z.string().nullish(), display_name: z.string().nullish(), email: z.string().nullish() }),
      z.string(),
    ])
    .nullish(),
  location: z
    .looseObject({ id: z.string().nullish(), name: z.string().nullish(), address: z.string().nullish() })
    .nullish(),
  channel: z.string().nullish(),
  admin_fee: z.boolean().optional(),
  refunds: z.array(z.looseObject({})).optional(),
  webhook_logs: z.array(z.looseObject({})).optional(),
  terminal_id: z.string().nullish(),
  closed_at: dateTime.nullish(),
  created_at: dateTime.optional(),
  updated_at: dateTime.optional(),
});

/** A charge. */
export type Charge = z.output<typeof chargeSchema>;
