/**
 * `verifyWebhook`: the signature check of paykit's webhook route, for code that receives the service's webhooks
 * somewhere else (a queue consumer, another framework's route). It checks, it does not act: re-fetch the
 * resource from the API before believing its state, and de-duplicate by `fact`.
 */
import { isOneOf, PaykitError, type WebhookEventObject, type WebhookEventType } from '@paykit/core';
import {
  claimOf,
  checkWebhookSignature,
  receiveWebhook,
  WEBHOOK_MEDIA_TYPES,
  type WebhookFormat,
} from './received-webhook.js';
import { factOf } from './event-rules.js';

/** A webhook as received, for {@link verifyWebhook}. */
export interface VerifyWebhookInput {
  /** The salt shown beside the API key in the dashboard of the business whose webhook this is. */
  salt: string;
  /** The request's headers: a `Headers`, or the plain object `node:http` and Express give (`req.headers`). */
  headers: Headers | Readonly<Record<string, string | readonly string[] | undefined>>;
  /**
   * The exact bytes received (a string is taken as its UTF-8 bytes). Never a body re-serialized from a parsed
   * value: `JSON.stringify(req.body)` is not the bytes that were signed. With Express, read it with
   * `express.raw({ type: '*\/*' })` on the webhook's path.
   */
  body: Uint8Array | ArrayBuffer | string;
}

/** A webhook whose signature holds and whose body agrees with what it names. */
export interface VerifiedWebhook {
  /** `event` (JSON, `Hitpay-Signature`) or `notification` (a payment request's `webhook`, form with `hmac`). */
  format: WebhookFormat;
  /** What happened, e.g. `payment_request.completed` (a notification of a paid request says the same). */
  type: WebhookEventType;
  /** The kind of resource it is about, to re-fetch by `id`. */
  object: WebhookEventObject;
  /** The resource's id. */
  id: string;
  /** The key to act on it once by (`payment_request.completed:<id>`): the same for either format of one fact. */
  fact: string;
  /** The event's body as its kind's schema reads it, or the notification's fields. As sent: not current state. */
  data: Record<string, unknown>;
}

/**
 * Checks a webhook of the service: its format from `Content-Type`, its signature with `salt` (HMAC-SHA256,
 * compared in constant time) before anything in it is read, then that its body is what its headers name.
 * Throws a `PaykitError`: `signature_missing`, `signature_malformed` or `signature_mismatch` (401) for a
 * signature that does not hold, `validation_failed` for a signed body that is not what it says,
 * `unsupported_media_type` for anything but JSON or a form.
 *
 * @example
 * ```ts
 * app.post('/hooks/payments', express.raw({ type: '*\/*' }), async (req, res) => {
 *   const webhook = await verifyWebhook({ salt: process.env.PAYMENTS_SALT!, headers: req.headers, body: req.body });
 *   await queue.push(webhook); // then re-fetch webhook.id from the API before acting on it
 *   res.sendStatus(200);
 * });
 * ```
 * @see https://docs.hitpayapp.com/apis/guide/events the service's event webhooks
 */
export async function verifyWebhook(input: VerifyWebhookInput): Promise<VerifiedWebhook> {
  const headers = toHeaders(input.headers);
  const mediaType = (headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!isOneOf(WEBHOOK_MEDIA_TYPES, mediaType)) {
    throw new PaykitError('unsupported_media_type', `A webhook is ${WEBHOOK_MEDIA_TYPES.join(' or ')}`);
  }
  // A copy, so that the bytes are a plain ArrayBuffer's whatever the caller's view was (a Node Buffer's is pooled).
  const bytes = typeof input.body === 'string' ? new TextEncoder().encode(input.body) : new Uint8Array(input.body);
  const received = receiveWebhook(mediaType, bytes, headers);
  await checkWebhookSignature(received, input.salt);
  const claim = claimOf(received);
  const status = typeof claim.data.status === 'string' ? claim.data.status : undefined;
  return { ...claim, fact: factOf(claim.type, claim.id, status) };
}

function toHeaders(input: VerifyWebhookInput['headers']): Headers {
  if (input instanceof Headers) return input;
  const headers = new Headers();
  for (const [name, value] of Object.entries(input)) {
    if (typeof value === 'string') headers.append(name, value);
    // Array.isArray does not narrow a readonly array (TypeScript#17002).
    else if (Array.isArray(value)) for (const each of value as readonly string[]) headers.append(name, each);
  }
  return headers;
}
