/**
 * Events on demand (`POST /_sandbox/webhooks/trigger`, `paykit-sandbox trigger`): one event of one business, about
 * an object that exists or a fresh one made for it, sent in every format the service uses for it, signed with the
 * salt the service would sign it with, and kept in the delivery log like any other delivery:
 *
 * - the event webhook (the object as JSON, `Hitpay-Signature`) to the endpoints of the business that listen to it,
 *   or to `url`;
 * - the payment notification (a form with `hmac`) as well, where the service sends one for that fact: a payment
 *   request's completion or failure (to the request's `webhook`), a saved card's charge (to its record's
 *   `webhook`), or to `url`.
 *
 * Charge events of a payment made with a platform key go to the platform's endpoints, signed with its salt, as
 * every charge event of such a payment does (spec 6's unified stream).
 */
import { isWebhookEventType, PaykitError, splitWebhookEventType, webhookEventTypes } from '@paykit/core';
import type { SandboxContext } from '../context.js';
import type { WebhookDelivery } from './dispatcher.js';
import { eventRequest, sendPaymentNotification, sendRecurringBillingNotification } from './send.js';
import { existingObject, freshObject, type TriggerObject } from './trigger-objects.js';

/** What to send: the control route's body. */
export interface TriggerInput {
  business_id: string;
  event_type: string;
  /** The object the event is about; without it a fresh one is made. */
  object_id?: string | undefined;
  /** Where to send every format instead of the business's endpoints and the object's `webhook`. */
  url?: string | undefined;
}

/** What was sent: the route's answer. */
export interface TriggerAnswer {
  event_type: string;
  business_id: string;
  /** The object the event carries; `fresh` when it was made for this event. */
  object: { kind: string; id: string; fresh: boolean };
  /** Every delivery, after its first attempt (or still pending when that took longer than the wait). */
  deliveries: WebhookDelivery[];
}

/** How long the answer waits for the deliveries' first attempts: a receiver's 5 s timeout and some room. */
const FIRST_ATTEMPT_WAIT_MS = 8_000;

/** Sends `input.event_type` as {@link TriggerInput} says; see the module's comment for what goes where. */
export async function triggerEvent(sandbox: SandboxContext, input: TriggerInput): Promise<TriggerAnswer> {
  const { state } = sandbox;
  const type = input.event_type;
  if (!isWebhookEventType(type)) {
    const message = `must be one of ${webhookEventTypes.join(', ')}`;
    throw new PaykitError('validation_failed', `"${type}" is not an event the service sends: it ${message}`, {
      errors: [{ path: 'event_type', message }],
    });
  }
  const business = state.businesses.get(input.business_id);
  if (!business) throw new PaykitError('not_found', `No business ${input.business_id}`);
  const { object: kind } = splitWebhookEventType(type);
  const found =
    input.object_id === undefined ? undefined : existingObject(sandbox, business, type, kind, input.object_id);

  // Where each format goes is known before anything is made, so that a trigger with nowhere to go makes nothing.
  const owner = found ? ownerOf(sandbox, found, business.id) : business.id;
  const listening = state.endpointsListening(owner, type);
  if (input.url === undefined && listening.length === 0 && !(found && notificationUrl(sandbox, type, found))) {
    throw new PaykitError(
      'conflict',
      `No endpoint of business ${owner} listens to ${type}: register one (POST /v1/webhook-events or ` +
        'POST /_sandbox/webhook-endpoints) or give url',
    );
  }
  const target = found ?? (await freshObject(sandbox, business, type, kind));

  const salt = state.businesses.get(owner)?.salt ?? business.salt;
  const request = eventRequest(salt, type, target.json);
  const eventTargets =
    input.url === undefined ? listening.map((e) => ({ url: e.url, id: e.id })) : [{ url: input.url, id: null }];
  const deliveries = eventTargets.map((each) =>
    sandbox.webhooks.send({
      format: 'event',
      event: type,
      business_id: owner,
      endpoint_id: each.id,
      url: each.url,
      request,
    }),
  );
  const notification = sendNotification(sandbox, type, target, input.url);
  if (notification) deliveries.unshift(notification);

  await firstAttempts(deliveries);
  return {
    event_type: type,
    business_id: business.id,
    object: { kind: target.kind, id: target.id, fresh: found === undefined },
    deliveries,
  };
}

/** The business whose stream the event is in: a platform's, for a charge of a payment made with its key. */
function ownerOf(sandbox: SandboxContext, object: TriggerObject, businessId: string): string {
  if (object.kind !== 'charge') return businessId;
  return sandbox.state.charges.get(object.id)?.platformBusinessId ?? businessId;
}

/** The URL the service's notification of this fact goes to, when there is one: the object's `webhook`. */
function notificationUrl(sandbox: SandboxContext, type: string, object: TriggerObject): string | null {
  const { state } = sandbox;
  if (type === 'payment_request.completed' || type === 'payment_request.failed') {
    return state.paymentRequests.get(object.id)?.webhook ?? null;
  }
  if (type === 'charge.created' || type === 'charge.failed') {
    const recordId = state.charges.get(object.id)?.recurringBillingId;
    const record = recordId ? state.resources.find('recurring_billing', recordId)?.json : undefined;
    return typeof record?.webhook === 'string' ? record.webhook : null;
  }
  return null;
}

/**
 * The notification of the fact, where the service sends one, to `url` or else to the object's `webhook`: a
 * payment request's outcome with the charge of that outcome, or a saved card's charge.
 */
function sendNotification(
  sandbox: SandboxContext,
  type: string,
  object: TriggerObject,
  url: string | undefined,
): WebhookDelivery | undefined {
  const { state } = sandbox;
  if (type === 'payment_request.completed' || type === 'payment_request.failed') {
    const request = state.paymentRequests.get(object.id);
    if (!request) return undefined;
    const paid = type === 'payment_request.completed';
    const charge = [...state.charges.values()]
      .filter((each) => each.paymentRequestId === request.id && (each.status === 'failed') !== paid)
      .at(-1);
    if (!charge) return undefined;
    // A copy with the URL to use: the request keeps its own `webhook`.
    return sendPaymentNotification(sandbox, { ...request, webhook: url ?? request.webhook }, charge);
  }
  if (type === 'charge.created' || type === 'charge.failed') {
    const charge = state.charges.get(object.id);
    if (!charge?.recurringBillingId) return undefined;
    const record = state.resources.find('recurring_billing', charge.recurringBillingId)?.json;
    const webhook = url ?? (typeof record?.webhook === 'string' ? record.webhook : null);
    const reference = typeof record?.reference === 'string' ? record.reference : null;
    return sendRecurringBillingNotification(sandbox, { id: charge.recurringBillingId, webhook, reference }, charge);
  }
  return undefined;
}

/** True while a delivery's first attempt has not ended (its status and error are set when one does). */
function isUnanswered(delivery: WebhookDelivery): boolean {
  return delivery.status === 'pending' && delivery.response_status === null && delivery.last_error === null;
}

/** Waits until every delivery had its first attempt, or {@link FIRST_ATTEMPT_WAIT_MS} passed. */
async function firstAttempts(deliveries: readonly WebhookDelivery[]): Promise<void> {
  const until = Date.now() + FIRST_ATTEMPT_WAIT_MS;
  while (deliveries.some((each) => isUnanswered(each)) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
