/**
 * Subscription plans (`/v1/subscription-plan`, covered by the payments scopes, spec 5.2 rule 1). The spec
 * names the operations only; the shapes follow the real service's public description (its subscription-plan
 * OpenAPI): a plan bills `amount` every `cycle`, and a `custom` cycle every `cycle_repeat` `cycle_frequency`s
 * (every 2 weeks: `cycle_repeat: 2, cycle_frequency: 'week'`).
 */
import * as z from 'zod';
import { amount, id, recordCurrency, recordMoney, requestCurrency, webUrl, wholeNumber } from './fields.js';

/** Billing cycles of a plan. `save_card` is a saved-card record's cycle (spec 2.3), not a plan's. */
export const subscriptionCycles = ['weekly', 'monthly', 'yearly', 'custom'] as const;

/** The unit of a `custom` cycle. */
export const subscriptionCycleFrequencies = ['day', 'week', 'month', 'year'] as const;

/** How a subscription's first charge is dated. */
export const subscriptionStartDateMethods = ['sign_up_date', 'customer_select_date', 'fixed_date'] as const;

/**
 * The body of `POST /v1/subscription-plan` (and of its update): `name`, `amount` and `cycle` are required;
 * `cycle_repeat` and `cycle_frequency` are required with a `custom` cycle and refused with any other (the
 * service answers `null` for them there); `fixed_date` goes with `start_date_method: 'fixed_date'` only.
 * `currency` defaults to the business's.
 */
export const subscriptionPlanCreateSchema = z
  .looseObject({
    name: z.string().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
    amount: amount.refine((value) => value <= 999_999.99, 'must be at most 999999.99'),
    currency: requestCurrency.optional(),
    cycle: z.enum(subscriptionCycles, { error: `must be one of ${subscriptionCycles.join(', ')}` }),
    cycle_repeat: wholeNumber(1, 1000).optional(),
    cycle_frequency: z
      .enum(subscriptionCycleFrequencies, { error: `must be one of ${subscriptionCycleFrequencies.join(', ')}` })
      .optional(),
    description: z.string().max(65_535).optional(),
    reference: z.string().max(255, 'must be at most 255 characters').optional(),
    redirect_url: webUrl.optional(),
    start_date_method: z
      .enum(subscriptionStartDateMethods, { error: `must be one of ${subscriptionStartDateMethods.join(', ')}` })
      .optional(),
    fixed_date: wholeNumber(1, 28).optional(),
    times_to_be_charged: wholeNumber(1, 100).optional(),
  })
  .superRefine((plan, ctx) => {
    for (const field of ['cycle_repeat', 'cycle_frequency'] as const) {
      if (plan.cycle === 'custom' && plan[field] === undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'is required when cycle is custom' });
      }
      if (plan.cycle !== 'custom' && plan[field] !== undefined) {
        ctx.addIssue({ code: 'custom', path: [field], message: 'only applies when cycle is custom' });
      }
    }
    if (plan.start_date_method === 'fixed_date' && plan.fixed_date === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['fixed_date'],
        message: 'is required when start_date_method is fixed_date',
      });
    }
    if (plan.start_date_method !== 'fixed_date' && plan.fixed_date !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['fixed_date'],
        message: 'only applies when start_date_method is fixed_date',
      });
    }
  });

/** What goes into {@link subscriptionPlanCreateSchema}. */
export type SubscriptionPlanCreateInput = z.input<typeof subscriptionPlanCreateSchema>;

/** What {@link subscriptionPlanCreateSchema} yields. */
export type SubscriptionPlanCreateOutput = z.output<typeof subscriptionPlanCreateSchema>;

/** A subscription plan, as the service answers with it. */
export const subscriptionPlanSchema = z.looseObject({
  id,
  name: z.string(),
  description: z.string().nullish(),
  amount: recordMoney,
  price: recordMoney.optional(),
  currency: recordCurrency,
  cycle: z.string(),
  cycle_repeat: z.number().nullish(),
  cycle_frequency: z.string().nullish(),
  reference: z.string().nullish(),
  created_at: z.string().optional(),
  updated_at: z.string().optional(),
});

/** A subscription plan. */
export type SubscriptionPlan = z.output<typeof subscriptionPlanSchema>;
