/**
 * Subscription plans (the service's subscription-plan API; spec 4.10 names them): create, list (page-numbered),
 * read, update (the whole plan again) and delete. Saved cards and subscriptions on them are recurring-billing.ts.
 */
import { majorToMinor, type SubscriptionPlanCreateOutput } from '@paykit/core';
import type { HandlersOf } from '../operation-call.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { subscriptionPlanJson } from '../serialize.js';

/** The business's plan `id`, or 404 (another business's plan is not found either). */
export function subscriptionPlanOf(sandbox: SandboxContext, id: string, businessId: string) {
  const found = sandbox.state.resources.get('subscription_plans', id, businessId);
  if (!found) throw notFound('Subscription plan not found');
  return found;
}

/** The subscription-plan operations. */
export function subscriptionPlanHandlers(sandbox: SandboxContext): HandlersOf<'subscriptionPlans'> {
  const { state } = sandbox;

  /** A plan's record from a validated body; `createdAt` kept on an update. */
  const planRecord = (input: SubscriptionPlanCreateOutput, currency: string, createdAt: Date, now: Date) =>
    subscriptionPlanJson({
      name: input.name,
      description: input.description ?? null,
      cycle: input.cycle,
      cycleRepeat: input.cycle_repeat ?? null,
      cycleFrequency: input.cycle_frequency ?? null,
      currency: input.currency ?? currency,
      amountMinor: majorToMinor(input.amount),
      reference: input.reference ?? null,
      createdAt,
      updatedAt: now,
    });
  const plan = (id: string, businessId: string) => subscriptionPlanOf(sandbox, id, businessId);

  return {
    // The service's create answers 200 with the plan (its subscription-plan OpenAPI), not 201.
    'subscriptionPlans.create': async ({ caller, body }) => {
      const input = await body();
      return state.resources.add(
        'subscription_plans',
        caller.business.id,
        planRecord(
          input,
          caller.business.currency,
          sandbox.clocks.now(caller.business.id),
          sandbox.clocks.now(caller.business.id),
        ),
      );
    },
    'subscriptionPlans.list': ({ businessId }) => state.resources.list('subscription_plans', businessId),
    'subscriptionPlans.get': ({ params, businessId }) => plan(params.id, businessId),
    // An update takes the whole plan again, as the service's does; existing subscriptions are not changed.
    'subscriptionPlans.update': async ({ params, businessId, body }) => {
      const found = plan(params.id, businessId);
      const input = await body();
      const createdAt = new Date(`${String(found.created_at)}Z`);
      const updated = planRecord(input, String(found.currency), createdAt, sandbox.clocks.now(businessId));
      // The stored date has no offset (UTC): it is kept as written.
      Object.assign(found, updated, { created_at: found.created_at });
      return found;
    },
    'subscriptionPlans.delete': ({ c, params, businessId }) => {
      plan(params.id, businessId);
      state.resources.delete('subscription_plans', params.id);
      return c.body(null, 204);
    },
  };
}
