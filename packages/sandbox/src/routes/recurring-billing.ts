/**
 * Recurring billing and saved cards under `/v1` (spec 2.3, 4.2, 4.10; the real service's "Recurring Billing"
 * and "Charge the saved card" where the spec is silent): create (with `save_card` its checkout `url` saves a
 * card), list, read, update (`PUT`), cancel (`DELETE`), and charge the saved card.
 */
import { majorToMinor, PaykitError } from '@paykit/core';
import { Hono } from 'hono';
import { isoWithoutOffset } from '../clock.js';
import type { SandboxContext } from '../context.js';
import type { SandboxEnv } from '../env.js';
import { parseOperationBody } from '../operation-body.js';
import { notFound } from '../errors.js';
import { recordsCursorList } from '../paginate.js';
import { chargeSavedCard, createSavedCardRecord, updateSavedCardRecord, type SavedCardJson } from '../saved-cards.js';

/** Statuses the real list filter names; `active` is its default. */
const LIST_STATUSES = ['active', 'scheduled', 'retrying', 'inactive', 'canceled'];

/** The routes, mounted under `/v1` behind authentication. */
export function recurringBillingRoutes(sandbox: SandboxContext) {
  const routes = new Hono<SandboxEnv>();
  const { state } = sandbox;

  const record = (id: string, businessId: string, message: string): SavedCardJson => {
    const found = state.resources.get('saved_cards', id, businessId);
    if (!found) throw notFound(message);
    return found;
  };

  const planOf = (id: string, businessId: string) => {
    const plan = state.resources.get('subscription_plans', id, businessId);
    if (!plan) throw notFound('Subscription plan not found');
    return plan;
  };

  routes.post('/recurring-billing', async (c) => {
    const businessId = c.get('caller').business.id;
    // Undocumented fields are ignored, as the service does, and named so that a typo is seen.
    const input = await parseOperationBody(c, 'savedCards.create');
    const plan = input.plan_id ? planOf(input.plan_id, businessId) : undefined;
    // The service's original description shows 200 (no body); the record is what 4.2 answers for it.
    return c.json(createSavedCardRecord(sandbox, businessId, input, plan));
  });

  routes.get('/recurring-billing', (c) => {
    const query = c.req.query();
    const status = query.status ?? 'active';
    if (!LIST_STATUSES.includes(status)) {
      throw new PaykitError('validation_failed', `status must be one of ${LIST_STATUSES.join(', ')}`, {
        errors: [{ path: 'status', message: `must be one of ${LIST_STATUSES.join(', ')}` }],
      });
    }
    const matches = (item: SavedCardJson, field: string, value: string | undefined) =>
      value === undefined || item[field] === value;
    const mine = state.resources
      .list('saved_cards', c.get('caller').business.id)
      .filter((item) => item.status === status)
      .filter((item) => matches(item, 'customer_email', query.customer_email))
      .filter((item) => matches(item, 'reference', query.reference))
      .filter((item) => matches(item, 'business_recurring_plans_id', query.business_recurring_plans_id));
    // The service shows no answer for this list: the cursor list of its other lists (per_page a number).
    return c.json(recordsCursorList(mine, c.req, 20));
  });

  // Spec 4.2: the text for an unknown id names a missing subscription plan record.
  routes.get('/recurring-billing/:id', (c) =>
    c.json(record(c.req.param('id'), c.get('caller').business.id, 'Subscription plan record not found')),
  );

  routes.put('/recurring-billing/:id', async (c) => {
    const businessId = c.get('caller').business.id;
    const found = record(c.req.param('id'), businessId, 'Recurring billing record not found');
    const input = await parseOperationBody(c, 'savedCards.update');
    const plan = input.plan_id ? planOf(input.plan_id, businessId) : undefined;
    return c.json(updateSavedCardRecord(found, input, plan));
  });

  routes.delete('/recurring-billing/:id', (c) => {
    const found = record(c.req.param('id'), c.get('caller').business.id, 'Recurring billing record not found');
    found.status = 'canceled';
    found.updated_at = isoWithoutOffset(new Date());
    return c.json(found);
  });

  routes.post('/charge/recurring-billing/:id', async (c) => {
    const businessId = c.get('caller').business.id;
    const found = record(c.req.param('id'), businessId, 'Recurring billing record not found');
    // `amount` and `currency` are required, as the real service requires them (a 422 names a missing one).
    const input = await parseOperationBody(c, 'savedCards.charge');
    const amountMinor = majorToMinor(input.amount);
    return c.json(chargeSavedCard(sandbox, found, businessId, { amountMinor, currency: input.currency }));
  });

  return routes;
}
