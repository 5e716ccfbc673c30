/**
 * When a confirmed fact happened, by the payment service's clock: what is compared with the event store's
 * horizon (`EventStore.remembersFrom`), so that a fact the store may have forgotten is not acted on again.
 *
 * The time must not move once the fact happened: a payment request's `updated_at` may change after it was paid
 * (a later edit), which would make an old, forgotten payment look new. So a payment is dated by the payment
 * itself where the API shows it (the request's `payments[]`, documented by the service's "Get Payment Request
 * Status"; the charge that paid it), and by `updated_at` only when nothing steadier is there.
 */
import type { Charge, PaymentRequest } from '@paykit/core';
import type { ConfirmedEvent } from './confirmed-event.js';

/** Ms since the epoch, or `undefined` when the resource carries no time that can be read. */
export function factTime(event: ConfirmedEvent): number | undefined {
  if ('paymentRequest' in event) return paymentTime(event.paymentRequest, event.charge);
  if ('charge' in event) {
    const { charge } = event;
    // A refund's fact is dated by the refund; a charge created or failed by the charge.
    return event.type === 'charge.updated'
      ? (readTime(charge.refunded_at) ?? readTime(charge.updated_at))
      : (readTime(charge.created_at) ?? readTime(charge.updated_at));
  }
  const resource =
    'payout' in event
      ? event.payout
      : 'order' in event
        ? event.order
        : 'invoice' in event
          ? event.invoice
          : 'transfer' in event
            ? event.transfer
            : event.recurringBilling;
  return readTime(resource.updated_at) ?? readTime(resource.created_at);
}

/**
 * When a payment request was paid (or failed): its payment of that outcome in `payments[]`, else the charge the
 * event came with, else the request's `updated_at` (set when its status moved).
 */
function paymentTime(request: PaymentRequest, charge: Charge | undefined): number | undefined {
  const outcome = request.status === 'completed' ? ['succeeded', 'refunded', 'partially_refunded'] : ['failed'];
  const payments: unknown[] = Array.isArray(request.payments) ? request.payments : [];
  for (const payment of payments) {
    if (typeof payment !== 'object' || payment === null || !('status' in payment) || !('created_at' in payment)) {
      continue;
    }
    const at = readTime(payment.created_at);
    if (typeof payment.status === 'string' && outcome.includes(payment.status) && at !== undefined) return at;
  }
  return readTime(charge?.created_at) ?? readTime(request.updated_at) ?? readTime(request.created_at);
}

/**
 * A time as the API writes it: ISO 8601, with an offset or `Z`, or without one (payment requests' and charges'
 * `2026-11-22T10:00:00`), read as UTC as reconcile reads it. Anything else is `undefined`, never a guess.
 */
export function readTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) return undefined;
  const text = value.replace(' ', 'T');
  const at = Date.parse(/[zZ]|[+-]\d{2}:?\d{2}$/.test(text) ? text : `${text}Z`);
  return Number.isNaN(at) ? undefined : at;
}
