/**
 * Recurring billing records (the real service's name; spec 2.3 calls them saved-card billing records): how one is
 * made and updated, and how its checkout saves a card (charging it is `recurring-billing-charge.ts`). The record's
 * JSON is what `GET /v1/recurring-billing/{id}` answers, kept in the resource store under `recurring_billing`.
 * Shapes the spec does not show follow the real service's OpenAPI; the sandbox README lists each choice.
 */
import {
  PaykitError,
  SAVE_CARD_WITH_PLAN,
  type recurringBillingCreateSchema,
  type recurringBillingUpdateSchema,
} from '@paykit/core';
import type * as z from 'zod';
import { isoWithoutOffset } from './clock.js';
import type { SandboxContext } from './context.js';
import { newId } from './ids.js';
import type { ResourceOf } from './resources.js';
import type { TestCard } from './test-cards.js';

/** A recurring billing record as stored and answered (core's `recurringBillingSchema`). */
export type RecurringBillingJson = ResourceOf<'recurring_billing'>;

/** A subscription plan a record takes its name, amount and cycle from. */
type PlanJson = ResourceOf<'subscription_plans'>;

type CreateInput = z.output<typeof recurringBillingCreateSchema>;
type UpdateInput = z.output<typeof recurringBillingUpdateSchema>;

/** The path, under the sandbox's origin, of a record's checkout (the real one is `.../recurring-plan/{id}`). */
export const recurringCheckoutPath = (id: string): string => `/checkout/recurring-plan/${encodeURIComponent(id)}`;

/**
 * A new record from a validated create body. Before its checkout saves a card the status is `scheduled`
 * (one of the statuses the service's list filter names) and `payment_method` is null; the checkout makes it
 * `active` with the card's brand and last four.
 */
export function createRecurringBilling(
  sandbox: SandboxContext,
  businessId: string,
  input: CreateInput,
  plan: PlanJson | undefined,
): RecurringBillingJson {
  const business = sandbox.state.businesses.get(businessId);
  const saveCard = input.save_card === true || input.save_payment_method === true;
  const now = isoWithoutOffset(sandbox.clocks.now(businessId));
  const amount = input.amount ?? plan?.amount ?? 0;
  const id = newId();
  return sandbox.state.resources.add('recurring_billing', businessId, {
    id,
    business_recurring_plans_id: input.plan_id ?? null,
    customer_name: input.customer_name ?? '',
    customer_email: input.customer_email,
    customer_phone_number: null,
    customer_phone_number_country_code: null,
    name: input.name ?? plan?.name ?? '',
    description: plan?.description ?? '',
    reference: input.reference ?? '',
    cycle: saveCard ? 'save_card' : (input.cycle ?? plan?.cycle ?? 'monthly'),
    cycle_repeat: input.cycle === 'custom' ? (input.cycle_repeat ?? null) : (plan?.cycle_repeat ?? null),
    cycle_frequency: input.cycle === 'custom' ? (input.cycle_frequency ?? null) : (plan?.cycle_frequency ?? null),
    currency: (input.currency ?? plan?.currency ?? business?.currency ?? 'sgd').toLowerCase(),
    price: amount,
    amount,
    times_to_be_charged: saveCard ? null : (input.times_to_be_charged ?? 1),
    times_charged: saveCard ? null : 0,
    status: 'scheduled',
    send_email: input.send_email ? 1 : 0,
    save_card: saveCard ? 1 : 0,
    redirect_url: input.redirect_url ?? '',
    payment_methods: input.payment_methods ?? ['card'],
    payment_provider_charge_method: 'card',
    created_at: now,
    updated_at: now,
    pause_from: null,
    pause_until: null,
    expires_at: null,
    url: `${sandbox.publicUrl()}${recurringCheckoutPath(id)}`,
    dbs_dda_reference: `RP${id.replace(/-/g, '').slice(0, 9).toUpperCase()}`,
    total_charge: 0,
    payment_method: null,
    ...(input.webhook ? { webhook: input.webhook } : {}),
  });
}

/**
 * Applies a validated update body (the service's "Update Recurring Billing"). A `plan_id` takes the plan's
 * cycle and amount (the service: "it will update cycle, cycle_repeat, cycle_frequency and amount with the
 * values from Subscription plan") and is refused on a saved-card record with the service's text; otherwise
 * each field given replaces the record's. `start_date` and `start_date_method` are checked and not stored
 * (the record of 2.3 has no such field). A canceled record is not changed (409).
 */
export function updateRecurringBilling(
  record: RecurringBillingJson,
  input: UpdateInput,
  plan: PlanJson | undefined,
  now: Date,
): RecurringBillingJson {
  if (record.status === 'canceled') throw new PaykitError('conflict', 'This recurring billing was canceled');
  const saveCard = input.save_card ?? input.save_payment_method;
  if (input.plan_id && (record.save_card === 1 || saveCard === true)) {
    throw new PaykitError('validation_failed', SAVE_CARD_WITH_PLAN, {
      errors: [{ path: 'save_card', message: SAVE_CARD_WITH_PLAN }],
    });
  }
  const set = (field: string, value: unknown) => {
    if (value !== undefined) record[field] = value;
  };
  if (plan) {
    record.business_recurring_plans_id = plan.id;
    for (const field of ['cycle', 'cycle_repeat', 'cycle_frequency', 'amount']) set(field, plan[field] ?? null);
    set('price', plan.amount);
  }
  set('name', input.name);
  set('description', input.description);
  set('payment_methods', input.payment_methods);
  if (input.cycle !== undefined) {
    record.cycle = input.cycle;
    record.cycle_repeat = input.cycle === 'custom' ? (input.cycle_repeat ?? null) : null;
    record.cycle_frequency = input.cycle === 'custom' ? (input.cycle_frequency ?? null) : null;
  }
  if (saveCard !== undefined) {
    record.save_card = saveCard ? 1 : 0;
    if (saveCard) record.cycle = 'save_card';
  }
  set('customer_email', input.customer_email);
  set('customer_name', input.customer_name);
  set('redirect_url', input.redirect_url);
  set('reference', input.reference);
  set('amount', input.amount);
  set('price', input.amount);
  set('currency', input.currency?.toLowerCase());
  set('webhook', input.webhook);
  if (input.send_email !== undefined) record.send_email = input.send_email ? 1 : 0;
  record.updated_at = isoWithoutOffset(now);
  return record;
}

/** Saves the card on the record: it becomes `active` and 4.2 shows the brand and last four. */
export function saveCard(record: RecurringBillingJson, card: TestCard, now: Date): void {
  record.payment_method = { card: { brand: card.brand, last4: card.last4 } };
  record.status = 'active';
  record.updated_at = isoWithoutOffset(now);
}
