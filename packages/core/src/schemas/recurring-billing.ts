/**
 * Recurring billing records (the real service's name; spec 2.3 and 4.2 call them saved-card billing records),
 * their creation, and the charge of a saved card.
 * Where the spec is silent (the create and charge bodies, the charge's answer) the shapes are the real
 * service's public description (OpenAPI "Recurring Billing" and "Charge"); the sandbox README lists each choice.
 */
import * as z from 'zod';
import {
  amount,
  booleanish,
  email,
  id,
  isoDate,
  localDateTime,
  recordCurrency,
  recordMoney,
  requestCurrency,
  resourceId,
  webUrl,
  wholeNumber,
} from './fields.js';
import { subscriptionCycleFrequencies, subscriptionCycles } from './subscription-plan.js';

/** 0/1 integers that the record uses for flags. */
const flag = z.union([z.literal(0), z.literal(1), z.boolean()]);

/** A recurring billing record. `payment_method.card` carries the card's brand and last four digits. */
export const recurringBillingSchema = z.looseObject({
  id,
  business_recurring_plans_id: z.string().nullish(),
  customer_name: z.string(),
  customer_email: z.string(),
  customer_phone_number: z.string().nullish(),
  customer_phone_number_country_code: z.string().nullish(),
  name: z.string(),
  description: z.string().nullish(),
  reference: z.string().nullish(),
  cycle: z.string(),
  cycle_repeat: z.unknown().nullish(),
  cycle_frequency: z.unknown().nullish(),
  currency: recordCurrency,
  price: recordMoney,
  amount: recordMoney,
  times_to_be_charged: z.number().int().nullish(),
  times_charged: z.number().int().nullish(),
  status: z.string(),
  send_email: flag.optional(),
  save_card: flag.optional(),
  redirect_url: z.string().nullish(),
  payment_methods: z.array(z.string()).optional(),
  payment_provider_charge_method: z.string().nullish(),
  created_at: localDateTime,
  updated_at: localDateTime,
  pause_from: z.string().nullish(),
  pause_until: z.string().nullish(),
  expires_at: z.string().nullish(),
  url: z.string().nullish(),
  dbs_dda_reference: z.string().nullish(),
  total_charge: recordMoney.nullish(),
  payment_method: z
    .looseObject({ card: z.looseObject({ brand: z.string(), last4: z.string().regex(/^\d{4}$/) }) })
    .nullish(),
});

/** A recurring billing record. */
export type RecurringBilling = z.output<typeof recurringBillingSchema>;

/** Payment methods a recurring billing may offer (OpenAPI enum). */
export const recurringPaymentMethods = ['card', 'giro', 'shopee_recurring'] as const;

/** The service's text when `save_card` is true and a `plan_id` is given (its 422 example). */
export const SAVE_CARD_WITH_PLAN = 'When save_card true, you disallow to set plan_id.';

/** The fields create and update share (the OpenAPI lists the same ones for both). */
const recurringFields = () => ({
  plan_id: resourceId.nullish(),
  save_card: booleanish.optional(),
  save_payment_method: booleanish.optional(),
  start_date_method: z.enum(['sign_up_date', 'no_initial_charge']).nullish(),
  name: z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters').optional(),
  amount: amount.optional(),
  currency: requestCurrency.optional(),
  cycle: z.enum(subscriptionCycles, { error: `must be one of ${subscriptionCycles.join(', ')}` }).optional(),
  cycle_repeat: wholeNumber(1, 999).optional(),
  cycle_frequency: z
    .enum(subscriptionCycleFrequencies, { error: `must be one of ${subscriptionCycleFrequencies.join(', ')}` })
    .optional(),
  customer_name: z.string().max(255, 'must be at most 255 characters').optional(),
  start_date: isoDate.optional(),
  redirect_url: webUrl.optional(),
  reference: z.string().max(255, 'must be at most 255 characters').optional(),
  payment_methods: z
    .array(z.enum(recurringPaymentMethods, { error: `must be one of ${recurringPaymentMethods.join(', ')}` }))
    .min(1, 'must name at least one method')
    .optional(),
  send_email: booleanish.optional(),
  webhook: webUrl.optional(),
});

/** A `custom` cycle needs its repeat count and unit (the service's 422 texts). */
function customCycleRule(
  input: { cycle?: string | undefined; cycle_repeat?: number | undefined; cycle_frequency?: string | undefined },
  missing: (path: string, message: string) => void,
): void {
  if (input.cycle !== 'custom') return;
  if (input.cycle_repeat === undefined) missing('cycle_repeat', 'is required when cycle is custom');
  if (input.cycle_frequency === undefined) missing('cycle_frequency', 'is required when cycle is custom');
}

/**
 * The body of `POST /v1/recurring-billing` (the real service's "Create Recurring Billing"): a subscription, or,
 * with `save_card=true`, a record whose checkout `url` saves a card for later charges. Its rules are the
 * OpenAPI's: `customer_email` always; with `save_card` no `plan_id`, and `name` and `amount`; without
 * `save_card` a `start_date`, and without a `plan_id` a `name`, `amount` and `cycle`; a `custom` cycle needs
 * `cycle_repeat` and `cycle_frequency`. `webhook` is in the service's own example request. Loose: a field
 * this schema does not know is passed on, not refused (the service may take more than it documents).
 */
export const recurringBillingCreateSchema = z
  .looseObject({
    ...recurringFields(),
    customer_email: email,
    times_to_be_charged: wholeNumber(1, 100).optional(),
  })
  .superRefine((input, ctx) => {
    const saveCard = input.save_card === true || input.save_payment_method === true;
    const missing = (path: string, message = 'is required') => ctx.addIssue({ code: 'custom', path: [path], message });
    if (saveCard && input.plan_id) missing('save_card', SAVE_CARD_WITH_PLAN);
    if ((saveCard || !input.plan_id) && input.name === undefined) missing('name');
    if (saveCard && !input.plan_id && input.amount === undefined) missing('amount');
    if (!saveCard && !input.plan_id && input.cycle === undefined) missing('cycle');
    if (!saveCard && input.start_date === undefined) missing('start_date', 'is required when save_card is not true');
    customCycleRule(input, missing);
  });

/** What goes into {@link recurringBillingCreateSchema}. */
export type RecurringBillingCreateInput = z.input<typeof recurringBillingCreateSchema>;

/**
 * The body of `PUT /v1/recurring-billing/{id}` (the real service's "Update Recurring Billing"): any of the
 * create fields, plus `description`; a change of cycle takes effect at the end of the current one (not run by
 * the sandbox). A `plan_id` replaces the cycle and amount with the plan's; it is refused with `save_card`
 * (the body's or the record's, which the sandbox checks). Loose like the create body.
 */
export const recurringBillingUpdateSchema = z
  .looseObject({
    ...recurringFields(),
    customer_email: email.optional(),
    description: z.string().max(65_535, 'must be at most 65535 characters').optional(),
  })
  .superRefine((input, ctx) => {
    const missing = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if ((input.save_card === true || input.save_payment_method === true) && input.plan_id) {
      missing('save_card', SAVE_CARD_WITH_PLAN);
    }
    customCycleRule(input, missing);
  });

/** What goes into {@link recurringBillingUpdateSchema}. */
export type RecurringBillingUpdateInput = z.input<typeof recurringBillingUpdateSchema>;

/**
 * The body of `POST /v1/charge/recurring-billing/{id}`: `amount` and `currency`, both required as the real
 * service requires them (OpenAPI "Charge the saved card"), so a charge that works against the sandbox works
 * against the service.
 */
export const recurringBillingChargeSchema = z.looseObject({
  amount,
  currency: requestCurrency,
});

/** What goes into {@link recurringBillingChargeSchema}. */
export type RecurringBillingChargeInput = z.input<typeof recurringBillingChargeSchema>;

/**
 * The answer to a charge of a saved card (OpenAPI "Charge the saved card"): the payment's id, the recurring
 * billing's id, the amount, the currency (lower case in the service's example) and the status.
 */
export const recurringBillingChargeResultSchema = z.looseObject({
  payment_id: id,
  recurring_billing_id: id,
  amount: recordMoney,
  currency: recordCurrency,
  status: z.string().min(1),
});

/** The answer to a charge of a saved card. */
export type RecurringBillingChargeResult = z.output<typeof recurringBillingChargeResultSchema>;

/** The statuses the service's list of records filters by ("Get All Recurring Billing"). */
export const recurringBillingStatuses = ['active', 'scheduled', 'retrying', 'inactive', 'canceled'] as const;

/**
 * The filters of the list of records (the operation table's `query` column). Without `status` the service lists
 * the `active` ones.
 */
export const recurringBillingListFiltersSchema = z.object({
  status: z
    .enum(recurringBillingStatuses, { error: `must be one of ${recurringBillingStatuses.join(', ')}` })
    .optional(),
  customer_email: z.string().optional(),
  reference: z.string().optional(),
  business_recurring_plans_id: z.string().optional(),
});

/** The filters of the list of records as a caller gives them. */
export type RecurringBillingListFilters = z.input<typeof recurringBillingListFiltersSchema>;
