/**
 * The fact a payment request's final status states, as the hook gets it when the status was read from the API
 * by the shopper's return or by a reconcile sweep: the same event, under the same key, as its webhooks make, so
 * that whichever path learns it first runs the hook and the others find it done.
 */
import type { PaymentRequest } from '@paykit/core';
import type { ConfirmedEvent, FactSource } from './confirmed-event.js';
import { factOf } from '../webhooks/event-rules.js';

/** The event of a completed or failed payment request; `undefined` while it is open (pending, canceled). */
export function paymentRequestFact(
  request: PaymentRequest,
  source: Exclude<FactSource, 'webhook'>,
): ConfirmedEvent | undefined {
  const type =
    request.status === 'completed'
      ? 'payment_request.completed'
      : request.status === 'failed'
        ? 'payment_request.failed'
        : undefined;
  if (type === undefined) return undefined;
  return { type, fact: factOf(type, request.id, request.status), source, paymentRequest: request };
}
