/**
 * Webhooks as the real service sends them (spec section 6 leaves the payload and the signature "not shown"; the
 * service's public docs pages "Event Webhooks" and "Webhooks", and its webhook-events OpenAPI, decide):
 *
 * - **Event webhooks**, to the endpoints a business registered (`/v1/webhook-events`): the body is the JSON
 *   object itself (a charge, a payment request, a payout, ...), with `Hitpay-Event-Object` naming its kind,
 *   `Hitpay-Event-Type` the verb (`created`, `updated`, `completed`, ...) and `Hitpay-Signature` the HMAC-SHA256
 *   (hex) of the exact body bytes, keyed by the business's salt.
 * - **Payment notifications**, to a payment request's `webhook` URL: a form post of the payment's fields plus
 *   `hmac` (`webhook-notification.ts`).
 *
 * Nothing in a delivery is believed beyond who sent it: the server re-fetches the resource before acting on it.
 */
import * as z from 'zod';
import { id, webUrl } from './fields.js';
import { isOneOf } from '../one-of.js';

/**
 * The kinds of object an event webhook carries (`Hitpay-Event-Object`). `recurring_billing` is the prefix of the
 * newer docs' `recurring_billing.*` events; no docs page shows the header's value for them, so it is the event's
 * object as for every other event (`<object>.<verb>`).
 */
export const webhookEventObjects = [
  'charge',
  'payment_request',
  'payout',
  'invoice',
  'order',
  'transfer',
  'recurring_billing',
] as const;

/** A kind of object an event webhook carries. */
export type WebhookEventObject = (typeof webhookEventObjects)[number];

/**
 * Every event an endpoint can listen to: the service's webhook-events API's list (charges, payouts, orders,
 * invoices, transfers), with spec 6's `charge.failed` and `payment_request.*`, which its "Event Webhooks" page
 * lists too, and the recurring billing events of that page's newer version and of the service's own CLI
 * (`method_attached`: a payment method saved on a record; `method_detached`: one taken off it;
 * `subscription_updated`: the record changed, its status included). Each of them carries the record.
 */
export const webhookEventTypes = [
  'charge.created',
  'charge.updated',
  'charge.failed',
  'payment_request.completed',
  'payment_request.failed',
  'payout.created',
  'order.created',
  'order.updated',
  'invoice.created',
  'invoice.updated',
  'transfer.created',
  'transfer.updated',
  'transfer.scheduled',
  'transfer.processing',
  'transfer.paid',
  'transfer.failed',
  'transfer.canceled',
  'recurring_billing.method_attached',
  'recurring_billing.method_detached',
  'recurring_billing.subscription_updated',
] as const;

/** An event an endpoint can listen to, `<object>.<verb>`. */
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** The headers of an event webhook, in the service's spelling (HTTP header names are case-insensitive). */
export const WEBHOOK_HEADERS = {
  signature: 'Hitpay-Signature',
  eventType: 'Hitpay-Event-Type',
  eventObject: 'Hitpay-Event-Object',
} as const;

/** The `User-Agent` of the service's event webhooks. */
export const WEBHOOK_USER_AGENT = 'HitPay v2.0';

/** True when `value` names an event of {@link webhookEventTypes}. */
export function isWebhookEventType(value: string): value is WebhookEventType {
  return isOneOf(webhookEventTypes, value);
}

/** The object an event is about and its verb: `charge.created` is `{ object: 'charge', verb: 'created' }`. */
export function splitWebhookEventType(type: WebhookEventType): { object: WebhookEventObject; verb: string } {
  const dot = type.lastIndexOf('.');
  // An event type is `<object>.<verb>`: what stands before the last dot is one of the objects.
  return { object: type.slice(0, dot) as WebhookEventObject, verb: type.slice(dot + 1) };
}

/**
 * The events, written short enough for a field error (the full list is over 300 characters): the verbs of each
 * object, `charge.created|updated|failed, payment_request.completed|failed, ...`.
 */
function eventTypesInShort(): string {
  const verbs = new Map<string, string[]>();
  for (const type of webhookEventTypes) {
    const { object, verb } = splitWebhookEventType(type);
    verbs.set(object, [...(verbs.get(object) ?? []), verb]);
  }
  return [...verbs].map(([object, list]) => `${object}.${list.join('|')}`).join(', ');
}

const eventTypes = z
  .array(z.enum(webhookEventTypes, { error: `must be one of ${eventTypesInShort()}` }))
  .min(1, 'must name at least one event')
  .refine((types) => new Set(types).size === types.length, 'must not repeat an event');

const endpointName = z.string().min(1, 'must not be empty').max(255, 'must be at most 255 characters');

/** The body of `POST /v1/webhook-events`: a name, the https URL to post to, and the events it listens to. */
export const webhookEndpointCreateSchema = z.looseObject({
  name: endpointName,
  url: webUrl,
  event_types: eventTypes,
});

/** What `POST /v1/webhook-events` takes. */
export type WebhookEndpointCreateInput = z.input<typeof webhookEndpointCreateSchema>;

/** The body of `PUT /v1/webhook-events/{id}`: any of the create fields. */
export const webhookEndpointUpdateSchema = z.looseObject({
  name: endpointName.optional(),
  url: webUrl.optional(),
  event_types: eventTypes.optional(),
});

/** What `PUT /v1/webhook-events/{id}` takes. */
export type WebhookEndpointUpdateInput = z.input<typeof webhookEndpointUpdateSchema>;

/** A registered endpoint ("webhook event" in the service's words), as its webhook-events API answers it. */
export const webhookEndpointSchema = z.looseObject({
  id,
  business_id: z.string(),
  name: z.string(),
  url: z.string(),
  event_types: z.array(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});

/** A registered webhook endpoint. */
export type WebhookEndpoint = z.output<typeof webhookEndpointSchema>;

/** `GET /v1/webhook-events` answers a plain array (the service's OpenAPI), not a page. */
export const webhookEndpointListSchema = z.array(webhookEndpointSchema);
