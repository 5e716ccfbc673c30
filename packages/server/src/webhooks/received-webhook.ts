/**
 * A webhook as it arrived, in either of the service's two formats, and the three steps that take it from bytes
 * to a claim: {@link receiveWebhook} (which format, and what signs it), {@link checkWebhookSignature} (the salt,
 * before anything in it is used) and {@link claimOf} (what it says happened, checked against its own body).
 *
 * - An **event webhook** is `application/json`: the object itself, `Hitpay-Event-Object` / `Hitpay-Event-Type`
 *   naming it, `Hitpay-Signature` the HMAC-SHA256 of the exact bytes. The two naming headers are not signed, so
 *   the signed body must agree with them (its kind's schema, its status) before anything is fetched.
 * - A **payment notification** is `application/x-www-form-urlencoded`, signed by its `hmac` field over the
 *   other fields (core's `notificationSigningString`).
 */
import {
  isWebhookEventType,
  notificationSigningString,
  PaykitError,
  parseOrThrow,
  pathSegmentProblem,
  paymentNotificationSchema,
  WEBHOOK_HEADERS,
  webhookEventObjects,
  type WebhookEventObject,
  type WebhookEventType,
} from '@paykit/core';
import type { HeaderReader } from '../handler/exchange.js';
import { decodeUtf8, parseJsonObject } from '../body-text.js';
import { EVENT_RULES, OBJECT_SCHEMAS } from './event-rules.js';
import { checkHmacSha256 } from './signature.js';

/** The media types of the two formats. */
export const WEBHOOK_MEDIA_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;

/** How the service delivered a webhook: an event webhook (JSON) or a payment notification (form). */
export type WebhookFormat = 'event' | 'notification';

/** A webhook as received: nothing in it is believed yet. */
export type ReceivedWebhook =
  | {
      format: 'event';
      /** The exact bytes received: what `Hitpay-Signature` signs. */
      bytes: Uint8Array<ArrayBuffer>;
      body: Record<string, unknown>;
      object: string | null;
      verb: string | null;
      signature: string | null;
    }
  | {
      format: 'notification';
      /** Every field in the order sent: what `hmac` signs (all but itself). */
      fields: readonly (readonly [string, string])[];
      signature: string | null;
    };

/**
 * What a webhook says happened, once its signature held (or there was no salt to check) and its body agreed
 * with what it names: the event, the resource to re-fetch, and the body read as that resource's kind.
 */
export interface WebhookClaim {
  format: WebhookFormat;
  type: WebhookEventType;
  object: WebhookEventObject;
  id: string;
  /** The body read by its kind's schema (an event), or the notification's fields. */
  data: Record<string, unknown>;
}

/** Reads the bytes of a webhook in the format its media type names (one of {@link WEBHOOK_MEDIA_TYPES}). */
export function receiveWebhook(
  mediaType: string,
  bytes: Uint8Array<ArrayBuffer>,
  headers: HeaderReader,
): ReceivedWebhook {
  if (mediaType === 'application/x-www-form-urlencoded') {
    const fields = [...new URLSearchParams(formText(bytes))];
    const seen = new Set<string>();
    for (const [key] of fields) {
      // The service signs one value per field; a second one would be signed by nobody.
      if (seen.has(key)) throw new PaykitError('duplicate_parameter', `"${key}" appears more than once`);
      seen.add(key);
    }
    return { format: 'notification', fields, signature: fields.find(([key]) => key === 'hmac')?.[1] ?? null };
  }
  return {
    format: 'event',
    bytes,
    body: parseJsonObject(bytes),
    object: headers.get(WEBHOOK_HEADERS.eventObject),
    verb: headers.get(WEBHOOK_HEADERS.eventType),
    signature: headers.get(WEBHOOK_HEADERS.signature),
  };
}

/**
 * The business a webhook says it is about, to choose the salt and, on a platform, the merchant: an event's
 * `business_id`, else the `merchant` the handler put on the payment request's `webhook` URL. Unverified: it only
 * picks a key, and a forger who names another business still does not hold that business's salt.
 */
export function businessIdOf(received: ReceivedWebhook, url: URL): string | undefined {
  if (received.format === 'event' && typeof received.body.business_id === 'string') return received.body.business_id;
  const merchant = url.searchParams.getAll('merchant');
  return merchant.length === 1 ? merchant[0] : undefined;
}

/**
 * Checks the webhook's signature with `salt`: the exact bytes of an event, the fields of a notification. Throws
 * a 401 with a stable code (`signature_missing`, `signature_malformed`, `signature_mismatch`) that says what to
 * check; the salt itself is never in it.
 */
export async function checkWebhookSignature(received: ReceivedWebhook, salt: string): Promise<void> {
  const signed = received.format === 'event' ? received.bytes : notificationSigningString(received.fields);
  const check = await checkHmacSha256(salt, signed, received.signature);
  if (check === 'valid') return;
  const where = received.format === 'event' ? `the ${WEBHOOK_HEADERS.signature} header` : 'its "hmac" field';
  if (check === 'missing') {
    throw new PaykitError(
      'signature_missing',
      `The webhook has no signature (${where}) and a webhookSalt is configured, so it is refused: only deliveries ` +
        'signed by the payment service are acted on.',
    );
  }
  if (check === 'malformed') {
    throw new PaykitError(
      'signature_malformed',
      `The webhook's signature (${where}) is not what the payment service signs with (an HMAC-SHA256 of the ` +
        'delivery keyed by the salt that webhookSalt holds, in hex: 64 characters 0-9, a-f).',
    );
  }
  throw new PaykitError(
    'signature_mismatch',
    `The webhook's signature (${where}) does not match what it carries under the configured webhookSalt. Check ` +
      'that webhookSalt is the salt shown beside the API key of the business that sent it, and that nothing on ' +
      'the way (a proxy, a body parser) re-wrote the body.',
  );
}

/**
 * What the webhook says happened. An event's headers must name a documented event, and its body must be that
 * kind of object with the status the event is sent with: the headers are not signed, so a signed charge
 * relabelled as a payment request, or `created` relabelled `updated`, is refused here, before any call. The id
 * to re-fetch must be one path segment (not `.`, `..` or holding a slash), refused here too, before any call.
 */
export function claimOf(received: ReceivedWebhook): WebhookClaim {
  if (received.format === 'notification') {
    const fields = parseOrThrow(paymentNotificationSchema, Object.fromEntries(received.fields), 'The notification');
    const paid = fields.status === 'completed';
    // A saved card's charge names its recurring billing record instead: its fact is the charge's.
    return fields.payment_request_id === undefined
      ? {
          format: 'notification',
          type: paid ? 'charge.created' : 'charge.failed',
          object: 'charge',
          id: segmentId(fields.payment_id, 'payment_id', 'charge'),
          data: fields,
        }
      : {
          format: 'notification',
          type: paid ? 'payment_request.completed' : 'payment_request.failed',
          object: 'payment_request',
          id: segmentId(fields.payment_request_id, 'payment_request_id', 'payment_request'),
          data: fields,
        };
  }
  const object = webhookEventObjects.find((kind) => kind === received.object);
  if (object === undefined) {
    throw headerError(
      WEBHOOK_HEADERS.eventObject,
      received.object,
      `must be one of ${webhookEventObjects.join(', ')} (an event webhook names the kind of object it carries)`,
    );
  }
  const type = `${object}.${received.verb ?? ''}`;
  if (!isWebhookEventType(type)) {
    throw headerError(WEBHOOK_HEADERS.eventType, received.verb, `is not an event of a ${object}`);
  }
  const data = parseOrThrow(OBJECT_SCHEMAS[object], received.body, `The ${object.replace('_', ' ')} of the event`);
  const { sentWith } = EVENT_RULES[type];
  const status = 'status' in data ? data.status : undefined;
  if (sentWith !== undefined && status !== sentWith) {
    throw new PaykitError('validation_failed', `A ${type} event carries a ${object} that is ${String(status)}`, {
      errors: [{ path: 'status', message: `must be ${sentWith} in a ${type} event` }],
    });
  }
  return { format: 'event', type, object, id: segmentId(data.id, 'id', object), data };
}

/**
 * `id`, which names the `object` the API is asked for (`GET /v1/charges/{id}`), when it is one path segment;
 * otherwise `validation_failed` naming `field`: `..` would make the call `GET /v1/`, `.` the whole list.
 */
function segmentId(id: string, field: string, object: WebhookEventObject): string {
  const problem = pathSegmentProblem(id);
  if (problem === undefined) return id;
  throw new PaykitError(
    'validation_failed',
    `The webhook's ${field} ${problem}: it names the ${object.replace('_', ' ')} to fetch from the API, so nothing was fetched`,
    { errors: [{ path: field, message: problem }] },
  );
}

function headerError(header: string, value: string | null, rule: string): PaykitError {
  const shown = value === null ? 'missing' : JSON.stringify(value.slice(0, 64));
  return new PaykitError('validation_failed', `The webhook's ${header} header ${rule}; it is ${shown}`, {
    errors: [{ path: header, message: rule }],
  });
}

function formText(bytes: Uint8Array): string {
  try {
    return decodeUtf8(bytes);
  } catch (error) {
    throw new PaykitError('invalid_body', 'The form body is not UTF-8', { cause: error });
  }
}
