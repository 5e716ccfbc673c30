/**
 * How the service signs what it sends, from its public docs: an event webhook's `Hitpay-Signature` is the
 * HMAC-SHA256 (hex) of the exact body bytes ("Event Webhooks"); a payment notification's `hmac` is the
 * HMAC-SHA256 (hex) of its other fields as key followed by value, ordered by key ("Webhooks", the PHP SDK's
 * `generateSignatureArray`). Both are keyed by the business's salt.
 */
import { NOTIFICATION_SIGNATURE_FIELD, notificationSigningString } from '@paykit/core';
import { createHmac } from 'node:crypto';

/** The `Hitpay-Signature` of an event webhook's body. */
export function signEventBody(salt: string, body: string): string {
  return createHmac('sha256', salt).update(body, 'utf8').digest('hex');
}

/** A payment notification's form body: the fields in the order given, then `hmac` over them. */
export function signedNotificationBody(salt: string, fields: readonly (readonly [string, string])[]): string {
  const hmac = createHmac('sha256', salt).update(notificationSigningString(fields), 'utf8').digest('hex');
  const pairs = fields.map(([key, value]): [string, string] => [key, value]);
  return new URLSearchParams([...pairs, [NOTIFICATION_SIGNATURE_FIELD, hmac]]).toString();
}
