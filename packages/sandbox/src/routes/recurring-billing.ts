/**
 * Recurring billing and saved cards under `/v1` (spec 2.3, 4.2, 4.10; the real service's "Recurring Billing"
 * and "Charge the saved card" where the spec is silent): create (with `save_card` its checkout `url` saves a
 * card), list, read, update (`PUT`), cancel (`DELETE`), and charge the saved card.
 */
import { majorToMinor } from '@paykit/core';
import type { HandlersOf } from '../operation-call.js';
import { isoWithoutOffset } from '../clock.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { subscriptionPlanOf } from './subscription-plans.js';
import { createRecurringBilling, updateRecurringBilling, type RecurringBillingJson } from '../recurring-billing.js';
import { restartCycles, scheduleCycles } from '../recurring-cycles.js';
import { chargeRecurringBilling } from '../recurring-billing-charge.js';
import { sendRecordCanceled, sendRecordUpdated } from '../webhooks/recurring-billing-events.js';

/** The recurring billing operations. */
export function recurringBillingHandlers(sandbox: SandboxContext): HandlersOf<'recurringBilling'> {
  const { state } = sandbox;

  const record = (id: string, businessId: string, message: string): RecurringBillingJson => {
    const found = state.resources.get('recurring_billing', id, businessId);
    if (!found) throw notFound(message);
    return found;
  };

  const planOf = (id: string, businessId: string) => subscriptionPlanOf(sandbox, id, businessId);

  return {
    'recurringBilling.create': async ({ businessId, body }) => {
      // Undocumented fields are ignored, as the service does, and named so that a typo is seen.
      const input = await body();
      const plan = input.plan_id ? planOf(input.plan_id, businessId) : undefined;
      // The service's original description shows 200 (no body); the record is what 4.2 answers for it.
      const created = createRecurringBilling(sandbox, businessId, input, plan);
      scheduleCycles(sandbox, businessId, created, input.start_date);
      return created;
    },

    // The service shows no answer for this list: the cursor list of its other lists (per_page a number).
    'recurringBilling.list': ({ businessId, filters }) => {
      const { status = 'active', ...wanted } = filters();
      const matches = (item: RecurringBillingJson) =>
        Object.entries(wanted).every(([field, value]) => value === undefined || item[field] === value);
      return state.resources
        .list('recurring_billing', businessId)
        .filter((item) => item.status === status)
        .filter(matches);
    },

    // Spec 4.2: the text for an unknown id names a missing subscription plan record.
    'recurringBilling.get': ({ params, businessId }) =>
      record(params.id, businessId, 'Subscription plan record not found'),

    'recurringBilling.update': async ({ params, businessId, body }) => {
      const found = record(params.id, businessId, 'Recurring billing record not found');
      const input = await body();
      const plan = input.plan_id ? planOf(input.plan_id, businessId) : undefined;
      const updated = updateRecurringBilling(found, input, plan, sandbox.clocks.now(businessId));
      if (input.start_date !== undefined) restartCycles(sandbox, updated.id, input.start_date);
      sendRecordUpdated(sandbox, businessId, updated);
      return updated;
    },

    'recurringBilling.cancel': ({ params, businessId }) => {
      const found = record(params.id, businessId, 'Recurring billing record not found');
      const statusBefore = found.status;
      found.status = 'canceled';
      found.updated_at = isoWithoutOffset(sandbox.clocks.now(businessId));
      sendRecordCanceled(sandbox, businessId, found, statusBefore);
      return found;
    },

    'recurringBilling.charge': async ({ params, businessId, body }) => {
      const found = record(params.id, businessId, 'Recurring billing record not found');
      // `amount` and `currency` are required, as the real service requires them (a 422 names a missing one).
      const input = await body();
      const amountMinor = majorToMinor(input.amount);
      return chargeRecurringBilling(sandbox, found, businessId, { amountMinor, currency: input.currency });
    },
  };
}
