/**
 * Webhook events (spec section 6). The spec names the kinds but does not show the payload; paykit's
 * sandbox sends, and paykit's server reads, this shape:
 *
 * ```json
 * { "id": "evt_…", "type": "payment_request.completed", "created_at": "2026-11-22T10:00:00",
 *   "business_id": "…", "data": { "object": { "id": "…", "status": "completed", … } } }
 * ```
 *
 * Nothing in a delivery is believed: the server re-fetches `data.object` by id before acting on it.
 */
import * as z from 'zod';

/** The event kinds of spec section 6. */
export const webhookEventTypes = [
  'charge.created',
  'charge.updated',
  'charge.failed',
  'payment_request.completed',
  'payment_request.failed',
] as const;

/** An event kind of spec section 6. */
export type WebhookEventType = (typeof webhookEventTypes)[number];

/** A webhook delivery, parsed leniently: only what is needed to re-fetch the resource must be there. */
export const webhookEventSchema = z.looseObject({
  id: z.string().min(1).max(255),
  type: z.enum(webhookEventTypes, { error: 'must be one of ' + webhookEventTypes.join(', ') }),
  created_at: z.string().optional(),
  business_id: z.string().nullish(),
  data: z.looseObject({
    object: z.looseObject({ id: z.string().min(1).max(255) }),
  }),
});

/** A webhook delivery. */
export type WebhookEvent = z.output<typeof webhookEventSchema>;
