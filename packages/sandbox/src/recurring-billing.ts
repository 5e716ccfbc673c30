/**
 * Recurring billing records (the real service's name; spec 2.3 calls them saved-card billing records): how one is
 * made, how its checkout saves a card, and how a saved card is charged. The record's JSON is what `GET
 * /v1/recurring-billing/{id}` answers, kept in the resource store under `recurring_billing`. Shapes the spec does
 * not show follow the real service's OpenAPI; the sandbox README lists each choice.
 */
import {
  majorToMinor,
  minorToMajor,
  PaykitError,
  SAVE_CARD_WITH_PLAN,
  type recurringBillingCreateSchema,
  type recurringBillingUpdateSchema,
} from '@paykit/core';
import type * as z from 'zod';
import { isoWithoutOffset } from './clock.js';
import type { SandboxContext } from './context.js';
import { newId } from './ids.js';
import { chargeJson } from './serialize.js';
import type { ResourceOf } from './resources.js';
import type { WireOf } from './wire.js';
import type { ChargeRecord } from './state.js';
import { recurringBillingCharge } from './charge-records.js';
import { sendEvent, sendRecurringBillingNotification } from './webhooks/send.js';

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
  const now = isoWithoutOffset(new Date());
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
  record.updated_at = isoWithoutOffset(new Date());
  return record;
}

/** The sandbox's test cards: any number that passes the Luhn check, with the brand read from its prefix. */
export interface TestCard {
  brand: 'visa' | 'mastercard' | 'amex' | 'card';
  last4: string;
}

/**
 * Reads a card number typed on the checkout (spaces and dashes allowed). Undefined when it is not 13 to 19
 * digits passing the Luhn check: the page then asks again.
 */
export function readTestCard(typed: string): TestCard | undefined {
  const digits = typed.replace(/[\s-]/g, '');
  if (!/^\d{13,19}$/.test(digits) || !luhn(digits)) return undefined;
  const brand = /^4/.test(digits)
    ? 'visa'
    : /^(5[1-5]|2[2-7])/.test(digits)
      ? 'mastercard'
      : /^3[47]/.test(digits)
        ? 'amex'
        : 'card';
  return { brand, last4: digits.slice(-4) };
}

/** Saves the card on the record: it becomes `active` and 4.2 shows the brand and last four. */
export function saveCard(record: RecurringBillingJson, card: TestCard): void {
  record.payment_method = { card: { brand: card.brand, last4: card.last4 } };
  record.status = 'active';
  record.updated_at = isoWithoutOffset(new Date());
}

/** What a charge of a saved card answers (the real service's shape, core's `recurringBillingChargeResultSchema`). */
export type RecurringBillingChargeAnswer = WireOf<'recurringBilling.charge'>;

/**
 * Charges the saved card of `record`: a succeeded charge in the charges list and the ledger, the record's
 * `times_charged` and `total_charge` moved on, `charge.created` sent to the business's endpoints that listen, and
 * the notification form to the record's own `webhook` when it has one (webhooks/send.ts).
 */
export function chargeRecurringBilling(
  sandbox: SandboxContext,
  record: RecurringBillingJson,
  businessId: string,
  charge: { amountMinor: number; currency: string },
): RecurringBillingChargeAnswer {
  if (record.status === 'canceled') throw new PaykitError('conflict', 'This recurring billing was canceled');
  if (!record.payment_method) {
    throw new PaykitError('conflict', 'No card is saved on this recurring billing yet: open its url first');
  }
  const { state } = sandbox;
  const currency = charge.currency.toLowerCase();
  const created: ChargeRecord = recurringBillingCharge(
    record,
    businessId,
    { amountMinor: charge.amountMinor, currency },
    new Date(),
  );
  state.charges.set(created.id, created);
  created.status = 'succeeded';
  state.ledger.recordCharge({
    chargeId: created.id,
    businessId,
    platformBusinessId: null,
    amountMinor: charge.amountMinor,
    commissionMinor: null,
    currency,
  });
  record.times_charged = (record.times_charged ?? 0) + 1;
  // total_charge starts at 0: a total, so 0 is taken as nothing charged yet.
  const chargedBefore = majorToMinor(record.total_charge ?? 0, { field: 'total_charge', allowZero: true });
  record.total_charge = minorToMajor(chargedBefore + charge.amountMinor);
  record.updated_at = isoWithoutOffset(new Date());
  sendRecurringBillingNotification(sandbox, record, created);
  sendEvent(sandbox, 'charge.created', chargeJson(created), businessId);
  return {
    payment_id: created.id,
    recurring_billing_id: record.id,
    amount: minorToMajor(charge.amountMinor),
    currency,
    status: 'succeeded',
  };
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}
