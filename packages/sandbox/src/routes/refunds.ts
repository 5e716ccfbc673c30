/**
 * Refunds (spec 4.5): `POST /v1/refunds` (and the spec's `/v1/refund`, the same row's alias) refunds a charge in
 * whole or in part; `GET /v1/refunds/{id}` reads one.
 */
import { formatMinor, majorToMinor, minorToMajor, PaykitError } from '@paykit/core';
import type { HandlersOf } from '../operation-call.js';
import { isoUtcMicros, isoWithoutOffset } from '../clock.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { chargeJson } from '../serialize.js';
import { sendEvent } from '../webhooks/send.js';

/** The refund operations. */
export function refundHandlers(sandbox: SandboxContext): HandlersOf<'refunds'> {
  const { state } = sandbox;
  return {
    'refunds.create': async ({ caller, body }) => {
      const business = caller.business;
      const input = await body();
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
      const now = sandbox.clocks.now(business.id);
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
      sendEvent(
        sandbox,
        'charge.updated',
        chargeJson(charge, sandbox.publicUrl()),
        charge.platformBusinessId ?? business.id,
        {
          urls: input.webhook ? [input.webhook] : [],
        },
      );
      return record;
    },
    'refunds.get': ({ params, businessId }) => {
      const found = state.resources.get('refunds', params.id, businessId);
      if (!found) throw notFound('Refund not found');
      return found;
    },
  };
}
