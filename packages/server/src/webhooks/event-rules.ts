/**
 * What each webhook event claims about its resource, and so what a signed body and a re-fetched resource must
 * show for the event to be believed. One table, read by the consistency check before anything is fetched
 * (`status` of the signed body) and by the confirmation after (the resource as the API has it now).
 *
 * The service's "Event Webhooks" page says when each event is sent: `charge.created` once a payment is
 * completed, `charge.updated` once it is refunded or partly refunded; spec 6 adds `charge.failed` and
 * `payment_request.completed` / `.failed`; transfers have one event per status.
 */
import {
  chargeSchema,
  invoiceSchema,
  orderSchema,
  paymentRequestSchema,
  payoutSchema,
  transferSchema,
  type WebhookEventObject,
  type WebhookEventType,
} from '@paykit/core';
import type * as z from 'zod';

/** Each kind's schema: a signed body must parse as the kind its `Hitpay-Event-Object` names. */
export const OBJECT_SCHEMAS: Readonly<Record<WebhookEventObject, z.ZodType<{ id: string } & Record<string, unknown>>>> =
  {
    charge: chargeSchema,
    payment_request: paymentRequestSchema,
    payout: payoutSchema,
    invoice: invoiceSchema,
    order: orderSchema,
    transfer: transferSchema,
  };

/** The rule of one event. */
interface EventRule {
  /** The status the body carries when the event is sent (absent: any). */
  readonly sentWith?: string;
  /** Statuses the resource may have now for the event to be true (absent: it only has to exist). */
  readonly confirmedBy?: readonly string[];
  /**
   * The event can happen to one resource more than once (`updated`): each status it reaches is its own fact,
   * so a refund after a partial refund is acted on too.
   */
  readonly repeats?: true;
}

const TRANSFER_FINAL = ['paid', 'failed', 'canceled'];

/** Every event's rule. A `Record` over the whole union, so a new event must choose its rule. */
export const EVENT_RULES: Readonly<Record<WebhookEventType, EventRule>> = {
  // A paid charge may have been refunded since; it was still paid.
  'charge.created': { sentWith: 'succeeded', confirmedBy: ['succeeded', 'refunded', 'partially_refunded'] },
  'charge.updated': { repeats: true },
  'charge.failed': { sentWith: 'failed', confirmedBy: ['failed'] },
  'payment_request.completed': { sentWith: 'completed', confirmedBy: ['completed'] },
  'payment_request.failed': { sentWith: 'failed', confirmedBy: ['failed'] },
  'payout.created': {},
  'order.created': {},
  'order.updated': { repeats: true },
  'invoice.created': {},
  'invoice.updated': { repeats: true },
  'transfer.created': {},
  'transfer.updated': { repeats: true },
  // A transfer moves scheduled -> processing -> paid, failed or canceled: a late `scheduled` is still true of a
  // transfer that has moved on.
  'transfer.scheduled': { sentWith: 'scheduled', confirmedBy: ['scheduled', 'processing', ...TRANSFER_FINAL] },
  'transfer.processing': { sentWith: 'processing', confirmedBy: ['processing', ...TRANSFER_FINAL] },
  'transfer.paid': { sentWith: 'paid', confirmedBy: ['paid'] },
  'transfer.failed': { sentWith: 'failed', confirmedBy: ['failed'] },
  'transfer.canceled': { sentWith: 'canceled', confirmedBy: ['canceled'] },
};

/**
 * The fact an event states, the key it is acted on once by: `payment_request.completed:<id>`, and for events
 * that repeat, the status reached as well (`charge.updated:<id>:refunded`). Either format of one fact makes the
 * same key, so a notification and an event webhook of one payment run the hook once.
 */
export function factOf(type: WebhookEventType, id: string, status: string | undefined): string {
  return EVENT_RULES[type].repeats ? `${type}:${id}:${status ?? ''}` : `${type}:${id}`;
}
