/**
 * `POST {prefix}/webhooks`: intake of the API's events (spec section 6). The spec shows no signature scheme,
 * so a delivery proves nothing: the resource it names is fetched from the API with the merchant's
 * credentials, and the merchant's hook runs only when the API confirms the state the event claims.
 *
 * De-duplication is by the confirmed fact (`payment_request.completed` of request X), not by the event id
 * alone: a replay of a genuine event under a fresh id must not ship an order twice.
 */
import { isPaykitError, PaykitError, parseOrThrow, webhookEventSchema, type WebhookEvent } from '@paykit/core';
import type { MerchantApi } from '../../api/merchant-api.js';
import type { MerchantResolver } from '../merchant-resolver.js';
import { asUpstreamFailure } from '../error-response.js';
import type { EventStore } from '../event-store.js';
import { json, readJsonObject } from '../http.js';
import type { ConfirmedEvent, PaykitHandlerOptions } from '../options.js';

/** The status the fetched resource must have for each event kind to be believed (none: it must exist). */
const CONFIRMING_STATUS: Record<WebhookEvent['type'], string | undefined> = {
  'payment_request.completed': 'completed',
  'payment_request.failed': 'failed',
  'charge.created': undefined,
  'charge.updated': undefined,
  'charge.failed': 'failed',
};

/** The route. */
export function webhooksRoute(
  merchants: MerchantResolver,
  options: PaykitHandlerOptions,
  store: EventStore,
  maxBodyBytes: number,
) {
  return async (request: Request): Promise<Response> => {
    const event = parseOrThrow(webhookEventSchema, await readJsonObject(request, maxBodyBytes), 'The webhook event');
    // On a platform, `business_id` names the merchant (spec 6 rule 3); its own credentials confirm the event.
    const confirmed = await confirm(await merchants(event.business_id ?? undefined), event);
    const resource = 'paymentRequest' in confirmed ? confirmed.paymentRequest : confirmed.charge;
    // A charge is updated more than once (paid, then refunded): each new status is a new fact.
    const fact = `${confirmed.type}:${resource.id}${confirmed.type === 'charge.updated' ? `:${resource.status}` : ''}`;
    if (!(await store.claim(fact))) return json({ received: true, duplicate: true });
    try {
      await options.onEvent?.(confirmed, { request });
    } catch (error) {
      await store.release(fact);
      throw error;
    }
    await store.complete(fact);
    return json({ received: true });
  };
}

/** Fetches the resource the event names and checks that the API agrees with the event. */
async function confirm(api: MerchantApi, event: WebhookEvent): Promise<ConfirmedEvent> {
  const objectId = event.data.object.id;
  let confirmed: ConfirmedEvent;
  try {
    confirmed =
      event.type === 'payment_request.completed' || event.type === 'payment_request.failed'
        ? { type: event.type, eventId: event.id, paymentRequest: await api.getPaymentRequest(objectId) }
        : { type: event.type, eventId: event.id, charge: await api.getCharge(objectId) };
  } catch (error) {
    if (isPaykitError(error, 'not_found')) {
      throw new PaykitError('not_found', `The API knows no ${event.type.split('.')[0]} ${objectId} of this merchant`, {
        cause: error,
      });
    }
    throw asUpstreamFailure(error, 'The payment service could not confirm the event', ['validation_failed']);
  }
  const resource = 'paymentRequest' in confirmed ? confirmed.paymentRequest : confirmed.charge;
  const expected = CONFIRMING_STATUS[event.type];
  if (expected !== undefined && resource.status !== expected) {
    throw new PaykitError(
      'event_not_confirmed',
      `The event says ${event.type} but the API says the ${event.type.split('.')[0]} is ${resource.status}`,
    );
  }
  return confirmed;
}
