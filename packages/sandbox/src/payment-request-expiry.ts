/**
 * A payment request's expiry. The service's OpenAPI: `expiry_date` is the "time after which the payment link
 * will be expired (time in SG with YYYY-MM-DD HH:mm:ss format)", `expires_after` sets it from creation, and the
 * status `expired` means "no longer payable because time ran out when either expiry_date or expires_after is
 * set". The spec is silent. The sandbox reads the expiry on the business's clock: a pending request past it
 * becomes `expired` when anything reads or pays it, and when its business's clock is moved past it (the
 * timeline then lists it among what happened). It sends no event: the service documents none for it.
 */
import { isoWithOffset } from './clock.js';
import type { SandboxContext } from './context.js';
import type { PaymentRequestRecord } from './state.js';
import type { ScheduledWork } from './scheduled-work.js';

/** When the request stops being payable, epoch ms; undefined when it has no expiry. */
export function expiresAt(request: PaymentRequestRecord): number | undefined {
  const { expiry_date: expiry } = request.extras;
  return expiry ? Date.parse(`${expiry}+08:00`) : undefined;
}

/** Makes a pending request past its expiry `expired` (stamped at its expiry). True when it did. */
export function expireIfDue(sandbox: SandboxContext, request: PaymentRequestRecord): boolean {
  const at = expiresAt(request);
  if (request.status !== 'pending' || at === undefined || at > sandbox.clocks.nowMs(request.businessId)) return false;
  request.status = 'expired';
  request.updatedAt = new Date(at);
  return true;
}

/** Payment requests' expiry, for the timeline. */
export const paymentRequestExpiry: ScheduledWork = {
  nextDue(sandbox, businessId) {
    let earliest: number | undefined;
    for (const request of sandbox.state.paymentRequests.values()) {
      if (request.businessId !== businessId || request.status !== 'pending') continue;
      const at = expiresAt(request);
      if (at !== undefined && (earliest === undefined || at < earliest)) earliest = at;
    }
    return earliest;
  },
  runDue(sandbox, businessId) {
    return [...sandbox.state.paymentRequests.values()]
      .filter((request) => request.businessId === businessId && expireIfDue(sandbox, request))
      .map((request) => ({
        at: isoWithOffset(request.updatedAt),
        type: 'payment_request.expired',
        object_id: request.id,
        summary: `payment request ${request.id} (${request.currency.toUpperCase()}) expired unpaid`,
      }));
  },
};
