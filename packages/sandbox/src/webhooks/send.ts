/**
 * What the sandbox sends on its own, in the service's two formats (spec 6 leaves them "not shown"; the service's
 * docs pages decide, see the README's Webhooks section):
 *
 * - {@link sendEvent}: an event webhook, the object itself as JSON, to every endpoint of a business that listens
 *   to the event, with `Hitpay-Signature` (its salt), `Hitpay-Event-Type`, `Hitpay-Event-Object` and
 *   `User-Agent: HitPay v2.0`;
 * - {@link sendPaymentNotification}: the form post to a payment request's `webhook`, signed by `hmac`;
 * - {@link sendRecurringBillingNotification}: the same form for a charge of a saved card, to its record's `webhook`.
 */
import {
  formatMinor,
  PaykitError,
  splitWebhookEventType,
  WEBHOOK_HEADERS,
  WEBHOOK_USER_AGENT,
  type WebhookEventType,
} from '@paykit/core';
import type { SandboxContext } from '../context.js';
import { chargeJson } from '../serialize.js';
import type { ChargeRecord, PaymentRequestRecord } from '../state.js';
import { signedNotificationBody, signEventBody } from './signing.js';
import type { WebhookDelivery } from './dispatcher.js';

/** Where an event goes besides the owner's listening endpoints: a URL given on the resource (a refund's `webhook`). */
export interface EventExtras {
  urls?: readonly string[];
}

/**
 * Sends `type` about `object` to every endpoint of business `ownerId` that listens to it (and to `extras.urls`),
 * signed with `ownerId`'s salt. The owner is the business whose stream it is: the merchant, or for the charge
 * events of a payment made with a platform key, the platform (spec 6's unified stream).
 */
export function sendEvent(
  sandbox: SandboxContext,
  type: WebhookEventType,
  object: { id: string },
  ownerId: string,
  extras: EventExtras = {},
): WebhookDelivery[] {
  const owner = sandbox.state.businesses.get(ownerId);
  if (!owner) return [];
  const request = eventRequest(owner.salt, type, object);
  const targets = [
    ...sandbox.state.endpointsListening(ownerId, type).map((endpoint) => ({ url: endpoint.url, id: endpoint.id })),
    ...(extras.urls ?? []).map((url) => ({ url, id: null })),
  ];
  return targets.map((target) =>
    sandbox.webhooks.send({
      format: 'event',
      event: type,
      business_id: ownerId,
      endpoint_id: target.id,
      url: target.url,
      request,
    }),
  );
}

/**
 * The service's payment notification to a payment request's `webhook`, on completion and on failure: the fields
 * of its docs page in its example's order, `amount` with two decimals, the currency in capitals as there, empty
 * `phone` and `reference_number` when the request had none, signed with the merchant's salt.
 */
export function sendPaymentNotification(
  sandbox: SandboxContext,
  request: PaymentRequestRecord,
  charge: ChargeRecord,
): WebhookDelivery | undefined {
  if (!request.webhook) return undefined;
  const status = request.status === 'completed' ? 'completed' : 'failed';
  return notify(sandbox, request.businessId, request.webhook, `payment_request.${status}`, [
    ['payment_id', charge.id],
    ['payment_request_id', request.id],
    ['reference_number', request.extras.reference_number ?? ''],
    ['phone', request.extras.phone ?? ''],
    ['amount', formatMinor(request.amountMinor)],
    ['currency', request.currency.toUpperCase()],
    ['status', status],
  ]);
}

/**
 * A charge of a saved card, to its recurring billing record's `webhook` ("a POST request when there is a new
 * charge or if there is an error charging the card", the service's words; it does not show the fields). The
 * sandbox sends the payment notification's form with `recurring_billing_id` in place of the payment request,
 * `reference_number` the record's `reference`, signed the same way.
 */
export function sendRecurringBillingNotification(
  sandbox: SandboxContext,
  record: { id: string; webhook?: string | null; reference?: string | null },
  charge: ChargeRecord,
): WebhookDelivery | undefined {
  if (!record.webhook) return undefined;
  const status = charge.status === 'failed' ? 'failed' : 'completed';
  return notify(
    sandbox,
    charge.businessId,
    record.webhook,
    status === 'completed' ? 'charge.created' : 'charge.failed',
    [
      ['payment_id', charge.id],
      ['recurring_billing_id', record.id],
      ['reference_number', record.reference ?? ''],
      ['amount', formatMinor(charge.amountMinor)],
      ['currency', charge.currency.toUpperCase()],
      ['status', status],
    ],
  );
}

/**
 * A test delivery to one endpoint (the dashboard's "Send test event"): the business's latest charge again, as
 * `charge.created`, so that a receiver that re-fetches finds a real charge and a receiver that de-duplicates
 * acts on nothing new. 409 when the business has no charge yet.
 */
export function sendTestEvent(sandbox: SandboxContext, businessId: string, endpointId: string): WebhookDelivery {
  const endpoint = sandbox.state.webhookEndpoints.get(endpointId);
  if (!endpoint || endpoint.businessId !== businessId) throw new PaykitError('not_found', 'Webhook endpoint not found');
  const charges = [...sandbox.state.charges.values()].filter(
    (charge) => charge.businessId === businessId || charge.platformBusinessId === businessId,
  );
  const latest = charges.at(-1);
  if (!latest) {
    throw new PaykitError('conflict', 'A test event sends the latest charge again: make a payment first');
  }
  const owner = sandbox.state.businesses.get(businessId);
  if (!owner) throw new PaykitError('not_found', 'Business not found');
  return sandbox.webhooks.send({
    format: 'event',
    event: 'charge.created',
    business_id: businessId,
    endpoint_id: endpoint.id,
    url: endpoint.url,
    request: eventRequest(owner.salt, 'charge.created', chargeJson(latest, sandbox.publicUrl())),
  });
}

/** An event webhook's request: the object as JSON, signed, with the headers that name it. */
export function eventRequest(salt: string, type: WebhookEventType, object: { id: string }) {
  const { object: kind, verb } = splitWebhookEventType(type);
  const body = JSON.stringify(object);
  return {
    headers: {
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      [WEBHOOK_HEADERS.signature]: signEventBody(salt, body),
      [WEBHOOK_HEADERS.eventType]: verb,
      [WEBHOOK_HEADERS.eventObject]: kind,
    },
    body,
  };
}

function notify(
  sandbox: SandboxContext,
  businessId: string,
  url: string,
  event: string,
  fields: readonly (readonly [string, string])[],
): WebhookDelivery | undefined {
  const business = sandbox.state.businesses.get(businessId);
  if (!business) return undefined;
  return sandbox.webhooks.send({
    format: 'notification',
    event,
    business_id: businessId,
    endpoint_id: null,
    url,
    request: {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: signedNotificationBody(business.salt, fields),
    },
  });
}
