/**
 * Subscription plans (`/v1/subscription-plan`, covered by the payments scopes, spec 5.2 rule 1). Shape: paykit's.
 */
import * as z from 'zod';
import { amount, id, recordCurrency, recordMoney, requestCurrency } from './fields.js';

/** Billing cycles paykit's sandbox knows. The spec lists `save_card` for saved cards and no others. */
export const subscriptionCycles = ['weekly', 'monthly', 'yearly'] as const;

/** The body of `POST /v1/subscription-plan`. */
export const subscriptionPlanCreateSchema = z.strictObject({
  name: z.string().min(1, 'must not be empty').max(255),
  amount,
  currency: requestCurrency,
  cycle: z.enum(subscriptionCycles, { error: `must be one of ${subscriptionCycles.join(', ')}` }),
});

/** What goes into {@link subscriptionPlanCreateSchema}. */
export type SubscriptionPlanCreateInput = z.input<typeof subscriptionPlanCreateSchema>;

/** A subscription plan. */
export const subscriptionPlanSchema = z.looseObject({
  id,
  name: z.string(),
  amount: recordMoney,
  currency: recordCurrency,
  cycle: z.string(),
  created_at: z.string().optional(),
});

/** A subscription plan. */
export type SubscriptionPlan = z.output<typeof subscriptionPlanSchema>;
