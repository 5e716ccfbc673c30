/**
 * What each webhook event claims about its resource, and so what a signed body and a re-fetched resource must
 * show for the event to be believed. One table, read by the consistency check before anything is fetched
 * (`status` of the signed body) and by the confirmation after (the resource as the API has it now).
 *
 * The service's "Event Webhooks" page says when each event is sent: `charge.created` once a payment is
 * completed, `charge.updated` once it is refunded or partly refunded, `payout.created` once a payout is
 * completed, `order.created` / `invoice.created` / `transfer.created` once the object is created, `order.updated`
 * once an order's status is updated, `transfer.updated` once a transfer is updated; spec 6 adds `charge.failed`
 * and `payment_request.completed` / `.failed`; transfers have one event per status; the page's newer version adds
 * `recurring_billing.method_attached` (a payment method attached to a subscription), `.method_detached` (one
 * detached) and `.subscription_updated` (status changes and edits). Every rule says what confirms it
 * (`confirmedBy`): without a salt the re-fetch is the only proof there is.
 */
import {
  chargeSchema,
  invoiceSchema,
  orderSchema,
  paymentRequestSchema,
  payoutSchema,
  recurringBillingSchema,
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
    recurring_billing: recurringBillingSchema,
  };

/** The rule of one event. */
interface EventRule {
  /** The status the body carries when the event is sent (absent: any). */
  readonly sentWith?: string;
  /**
   * What the resource as the API has it now must show for the event to be believed: one of these statuses, or
   * `'exists'` for an event that claims no status (the API answering the resource is the proof). Required, so
   * that a new event cannot be acted on before someone decided what confirms it.
   */
  readonly confirmedBy: readonly [string, ...string[]] | 'exists';
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
  // Sent once a payment is refunded or partly refunded, and only then: a charge the API shows `succeeded` was
  // never refunded, whatever the delivery says (a partial refund then a full one are two facts, by status).
  'charge.updated': { confirmedBy: ['refunded', 'partially_refunded'], repeats: true },
  'charge.failed': { sentWith: 'failed', confirmedBy: ['failed'] },
  'payment_request.completed': { sentWith: 'completed', confirmedBy: ['completed'] },
  'payment_request.failed': { sentWith: 'failed', confirmedBy: ['failed'] },
  // "Once a payout is successfully completed": the money left. One the API shows scheduled or processing has not
  // been paid yet, and one that failed or was canceled since never reached the bank (its money came back).
  'payout.created': { confirmedBy: ['paid'] },
  // Created events claim no status: an order or transfer may have moved on since, and still was created.
  'order.created': { confirmedBy: 'exists' },
  // The docs name no status for an update: the fact is the status the API shows now (its key), so a delivery
  // can only tell the hook what is true, once per status.
  'order.updated': { confirmedBy: 'exists', repeats: true },
  // The service has no read of one invoice: only a signed body is believed (the webhook route refuses an unsigned
  // one), and that body is the invoice.
  'invoice.created': { confirmedBy: 'exists' },
  'invoice.updated': { confirmedBy: 'exists', repeats: true },
  'transfer.created': { confirmedBy: 'exists' },
  'transfer.updated': { confirmedBy: 'exists', repeats: true },
  // A transfer moves scheduled -> processing -> paid, failed or canceled: a late `scheduled` is still true of a
  // transfer that has moved on.
  'transfer.scheduled': { sentWith: 'scheduled', confirmedBy: ['scheduled', 'processing', ...TRANSFER_FINAL] },
  'transfer.processing': { sentWith: 'processing', confirmedBy: ['processing', ...TRANSFER_FINAL] },
  'transfer.paid': { sentWith: 'paid', confirmedBy: ['paid'] },
  'transfer.failed': { sentWith: 'failed', confirmedBy: ['failed'] },
  'transfer.canceled': { sentWith: 'canceled', confirmedBy: ['canceled'] },
  // The docs name no status for these: the record the API answers is the proof. A record's method can be attached
  // again (a new card) and the record updated many times: each status the API shows is its own fact, as for
  // `order.updated`, so a second update that leaves the status as it was is not offered again.
  'recurring_billing.method_attached': { confirmedBy: 'exists', repeats: true },
  'recurring_billing.method_detached': { confirmedBy: 'exists', repeats: true },
  'recurring_billing.subscription_updated': { confirmedBy: 'exists', repeats: true },
};

/** True when a resource the API shows with `status` now confirms event `type` ({@link EventRule.confirmedBy}). */
export function isConfirmedBy(type: WebhookEventType, status: string): boolean {
  const { confirmedBy } = EVENT_RULES[type];
  return confirmedBy === 'exists' || confirmedBy.includes(status);
}

/**
 * The fact an event states, the key it is acted on once by: `payment_request.completed:<id>`, and for events
 * that repeat, the status reached as well (`charge.updated:<id>:refunded`). Either format of one fact makes the
 * same key, so a notification and an event webhook of one payment run the hook once.
 */
export function factOf(type: WebhookEventType, id: string, status: string | undefined): string {
  return EVENT_RULES[type].repeats ? `${type}:${id}:${status ?? ''}` : `${type}:${id}`;
}
