/**
 * Payouts (spec 2.1): the API only reads them, so a test makes one of the whole available balance here and moves
 * it through its statuses (spec 3), with the ledger kept consistent. A payout that reaches `paid` sends
 * `payout.created` (the service's "Event Webhooks": "once a payout is successfully completed").
 */
import { majorToMinor, minorToMajor, PaykitError, payoutStatuses } from '@paykit/core';
import { Hono } from 'hono';
import * as z from 'zod';
import { isoWithoutOffset } from '../../clock.js';
import type { SandboxContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { sendEvent } from '../../webhooks/send.js';
import { businessOf } from './businesses.js';
import { controlBody } from './body.js';

const payoutBody = z.strictObject({ business_id: z.string() });
const payoutStatusBody = z
  .strictObject({
    status: z.enum(payoutStatuses),
    failure_code: z.string().min(1).optional(),
    failure_message: z.string().optional(),
  })
  .refine((b) => b.status !== 'failed' || b.failure_code !== undefined, {
    path: ['failure_code'],
    message: 'is required when the payout failed (spec 3, rule 1)',
  });

/** `POST /_sandbox/payouts` and `POST /_sandbox/payouts/{id}/status`. */
export function payoutRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { state } = sandbox;

  routes.post('/payouts', async (c) => {
    const owner = businessOf(state, (await controlBody(payoutBody, c.req.raw)).business_id);
    const availableMinor = state.ledger.balanceMinor(owner.id);
    if (availableMinor <= 0) throw new PaykitError('conflict', 'There is no available balance to pay out');
    const now = sandbox.clocks.now(owner.id);
    const payout = state.resources.add('payouts', owner.id, {
      status: 'scheduled',
      currency: owner.currency,
      amount: minorToMajor(availableMinor),
      source_currency: owner.currency,
      source_amount: minorToMajor(availableMinor),
      bank_name: 'Sandbox Bank',
      bank_account: '****6789',
      remark: null,
      reference: null,
      failure_code: null,
      failure_message: null,
      arrival_date: new Date(now.getTime() + 2 * 86_400_000).toISOString().slice(0, 10),
      created_at: isoWithoutOffset(now),
      updated_at: isoWithoutOffset(now),
    });
    state.ledger.add({
      businessId: owner.id,
      description: `Payout ${payout.id} to the linked bank account`,
      chargeId: null,
      payoutId: payout.id,
      creditMinor: null,
      debitMinor: -availableMinor,
      currency: owner.currency,
    });
    return c.json(payout, 201);
  });

  routes.post('/payouts/:id/status', async (c) => {
    const input = await controlBody(payoutStatusBody, c.req.raw);
    const stored = state.resources.find('payouts', c.req.param('id'));
    if (!stored) throw notFound('Payout not found');
    const payout = stored.json;
    const returned =
      (input.status === 'failed' || input.status === 'canceled') &&
      payout.status !== 'failed' &&
      payout.status !== 'canceled';
    const completed = input.status === 'paid' && payout.status !== 'paid';
    Object.assign(payout, {
      status: input.status,
      failure_code: input.failure_code ?? null,
      failure_message: input.failure_message ?? null,
      updated_at: isoWithoutOffset(sandbox.clocks.now(stored.businessId)),
    });
    if (returned) {
      // Money that did not leave comes back to the available balance.
      state.ledger.add({
        businessId: stored.businessId,
        description: `Payout ${payout.id} ${input.status}: returned`,
        chargeId: null,
        payoutId: payout.id,
        creditMinor: majorToMinor(payout.amount),
        debitMinor: null,
        currency: payout.currency,
      });
    }
    if (completed) sendEvent(sandbox, 'payout.created', payout, stored.businessId);
    return c.json(payout);
  });

  return routes;
}
