/**
 * Money that moves after a payment: refunds (spec 4.5), payouts (4.1), the balance-transactions ledger (4.6)
 * and subscription plans (saved cards and their charges are routes/recurring-billing.ts). All under `/v1`, behind authentication.
 */
import { formatMinor, majorToMinor, minorToMajor, PaykitError, type SubscriptionPlanCreateOutput } from '@paykit/core';
import { Hono, type Context } from 'hono';
import { isoUtcMicros, isoWithOffset, isoWithoutOffset } from '../clock.js';
import type { SandboxContext } from '../context.js';
import type { SandboxEnv } from '../env.js';
import { parseOperationBody } from '../operation-body.js';
import { notFound } from '../errors.js';
import { paginate, readPageSize, recordsNumberedList } from '../paginate.js';
import { chargeJson, subscriptionPlanJson } from '../serialize.js';
import { sendEvent } from '../webhooks/send.js';

/** The routes. */
export function moneyRoutes(sandbox: SandboxContext) {
  const routes = new Hono<SandboxEnv>();
  const { state } = sandbox;

  const refund = async (c: Context<SandboxEnv>) => {
    const business = c.get('caller').business;
    const input = await parseOperationBody(c, 'refunds.create');
    // `payment_id` names the charge (or the payment request whose charge it is).
    const charge =
      state.charges.get(input.payment_id) ??
      [...state.charges.values()].find((ch) => ch.paymentRequestId === input.payment_id && ch.status !== 'failed');
    if (!charge || charge.businessId !== business.id) throw notFound('Payment not found');
    if (charge.status !== 'succeeded' && charge.status !== 'partially_refunded') {
      throw new PaykitError('conflict', `A ${charge.status} payment cannot be refunded`);
    }
    const already = charge.refunds.reduce((sum, r) => sum + r.amountMinor, 0);
    const amountMinor = majorToMinor(input.amount);
    if (amountMinor > charge.amountMinor - already) {
      const remaining = formatMinor(charge.amountMinor - already);
      throw new PaykitError('validation_failed', `amount must not exceed the ${remaining} that remains refundable`, {
        errors: [{ path: 'amount', message: `must not exceed ${remaining}` }],
      });
    }
    const now = new Date();
    const record = state.resources.add('refunds', business.id, {
      refunded_by: business.name,
      payment_id: charge.id,
      amount_refunded: minorToMajor(amountMinor),
      total_amount: minorToMajor(charge.amountMinor),
      currency: charge.currency,
      status: 'succeeded',
      payment_method: charge.paymentMethod,
      provider_fee: null,
      provider_fee_currency: null,
      refunded_at: isoUtcMicros(now),
      created_at: isoWithoutOffset(now),
    });
    charge.status = amountMinor + already === charge.amountMinor ? 'refunded' : 'partially_refunded';
    // The charge answers its refunds itself (`refunded_amount`, `refunded_at`, `refunds`), as the service's does.
    charge.refunds.push({ id: record.id, amountMinor, at: now });
    charge.updatedAt = now;
    state.ledger.add({
      businessId: business.id,
      description: `Refund ${record.id} of charge ${charge.id}`,
      chargeId: charge.id,
      creditMinor: null,
      debitMinor: -amountMinor,
      currency: charge.currency,
    });
    // The refund changes the charge, which the service announces as `charge.updated` ("once a payment is refunded /
    // partially refunded"); the refund's own `webhook` (spec 6 rule 4, its format not shown) gets that event too.
    sendEvent(sandbox, 'charge.updated', chargeJson(charge), charge.platformBusinessId ?? business.id, {
      urls: input.webhook ? [input.webhook] : [],
    });
    return record;
  };
  routes.post('/refund', async (c) => c.json(await refund(c)));
  routes.post('/refunds', async (c) => c.json(await refund(c)));
  routes.get('/refunds/:id', (c) => {
    const found = state.resources.get('refunds', c.req.param('id'), c.get('caller').business.id);
    if (!found) throw notFound('Refund not found');
    return c.json(found);
  });

  routes.get('/payouts/:id', (c) => {
    const found = state.resources.get('payouts', c.req.param('id'), c.get('caller').business.id);
    if (!found) throw notFound('Payout not found');
    return c.json(found);
  });

  routes.get('/balances/:segment/transactions', (c) => {
    if (c.req.param('segment') !== sandbox.balanceProcessorSegment) throw notFound('No such balance processor');
    const from = dateParam(c.req.query('created_at_from'), 'created_at_from');
    const to = dateParam(c.req.query('created_at_to'), 'created_at_to');
    if (from && to && to < from) {
      throw new PaykitError('validation_failed', 'created_at_to must be on or after created_at_from', {
        errors: [{ path: 'created_at_to', message: 'must be on or after created_at_from' }],
      });
    }
    const day = (at: Date) => at.toISOString().slice(0, 10);
    const entries = state.ledger.entries
      .filter((e) => e.businessId === c.get('caller').business.id)
      .filter((e) => (!from || day(e.at) >= from) && (!to || day(e.at) <= to))
      .reverse();
    const page = paginate(entries, (e) => e.id, {
      cursor: c.req.query('cursor'),
      perPage: readPageSize(c.req.query('per_page'), 'per_page'),
      cursorName: 'cursor',
    });
    return c.json({
      data: page.data.map((e) => ({
        datetime: isoWithOffset(e.at),
        description: e.description,
        charge_id: e.chargeId,
        order_id: null,
        payout_id: e.payoutId,
        transfer_id: e.transferId ?? '',
        debit: e.debitMinor === null ? null : minorToMajor(e.debitMinor),
        credit: e.creditMinor === null ? null : minorToMajor(e.creditMinor),
        currency: e.currency.toUpperCase(),
      })),
      meta: page.meta,
    });
  });

  /** A plan's record from a validated body; `createdAt` kept on an update. */
  const planRecord = (input: SubscriptionPlanCreateOutput, currency: string, createdAt: Date) =>
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
      updatedAt: new Date(),
    });
  const plan = (id: string, businessId: string) => {
    const found = state.resources.get('subscription_plans', id, businessId);
    if (!found) throw notFound('Subscription plan not found');
    return found;
  };
  // The service's create answers 200 with the plan (its subscription-plan OpenAPI), not 201.
  routes.post('/subscription-plan', async (c) => {
    const business = c.get('caller').business;
    const input = await parseOperationBody(c, 'subscriptionPlans.create');
    return c.json(
      state.resources.add('subscription_plans', business.id, planRecord(input, business.currency, new Date())),
    );
  });
  // Page-numbered, 20 a page unless asked, as the service's subscription-plan list.
  routes.get('/subscription-plan', (c) =>
    c.json(recordsNumberedList(state.resources.list('subscription_plans', c.get('caller').business.id), c.req, 20)),
  );
  routes.get('/subscription-plan/:id', (c) => c.json(plan(c.req.param('id'), c.get('caller').business.id)));
  // An update takes the whole plan again, as the service's does; existing subscriptions are not changed.
  routes.put('/subscription-plan/:id', async (c) => {
    const business = c.get('caller').business;
    const found = plan(c.req.param('id'), business.id);
    const input = await parseOperationBody(c, 'subscriptionPlans.update');
    const createdAt = new Date(`${String(found.created_at)}Z`);
    const updated = planRecord(input, String(found.currency), createdAt);
    // The stored date has no offset (UTC): it is kept as written.
    Object.assign(found, updated, { created_at: found.created_at });
    return c.json(found);
  });
  routes.delete('/subscription-plan/:id', (c) => {
    plan(c.req.param('id'), c.get('caller').business.id);
    state.resources.delete('subscription_plans', c.req.param('id'));
    return c.body(null, 204);
  });

  return routes;
}

function dateParam(value: string | undefined, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new PaykitError('validation_failed', `${name} must be a date such as 2026-11-22`, {
      errors: [{ path: name, message: 'must be a date such as 2026-11-22' }],
    });
  }
  return value;
}
