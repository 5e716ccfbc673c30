/**
 * The payment notification: what the service posts to a payment request's `webhook` URL when the payment
 * completes or fails (its docs page "Webhooks"). A form (`application/x-www-form-urlencoded`), not JSON:
 *
 * ```
 * payment_id=…&payment_request_id=…&phone=&amount=599.00&currency=SGD&status=completed&reference_number=ABC123&hmac=…
 * ```
 *
 * `hmac` is the HMAC-SHA256 (hex) keyed by the business's salt over {@link notificationSigningString}: every other
 * field as key followed by value, ordered by key, joined with nothing (the service's PHP `generateSignatureArray`).
 */
import * as z from 'zod';

/** The field that carries the signature, left out of what it signs. */
export const NOTIFICATION_SIGNATURE_FIELD = 'hmac';

/**
 * A payment notification's fields, read leniently: whatever else the service sends is signed and passed on.
 * It names the payment request that was paid or, for a charge of a saved card (the recurring billing record's
 * `webhook`, whose fields the service does not show: the sandbox sends `recurring_billing_id` in its place), the
 * recurring billing record.
 */
export const paymentNotificationSchema = z
  .looseObject({
    payment_id: z.string().min(1, 'must not be empty'),
    payment_request_id: z.string().min(1, 'must not be empty').optional(),
    recurring_billing_id: z.string().min(1, 'must not be empty').optional(),
    status: z.enum(['completed', 'failed'], { error: 'must be completed or failed' }),
    amount: z.string(),
    currency: z.string(),
    phone: z.string().optional(),
    reference_number: z.string().optional(),
    hmac: z.string(),
  })
  .refine((fields) => (fields.payment_request_id === undefined) !== (fields.recurring_billing_id === undefined), {
    path: ['payment_request_id'],
    message: 'is required (or recurring_billing_id, for a saved card), not both',
  });

/** A payment notification. */
export type PaymentNotification = z.output<typeof paymentNotificationSchema>;

/**
 * What a notification's `hmac` signs: each field but `hmac` written as its key followed by its value, in the
 * order of the keys (compared by UTF-16 code units, as PHP's `ksort` orders these ASCII names), joined with
 * nothing. `amount=599.00&currency=SGD` signs `amount599.00currencySGD`.
 */
export function notificationSigningString(fields: Iterable<readonly [string, string]>): string {
  const pairs = [...fields].filter(([key]) => key !== NOTIFICATION_SIGNATURE_FIELD);
  pairs.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return pairs.map(([key, value]) => key + value).join('');
}
