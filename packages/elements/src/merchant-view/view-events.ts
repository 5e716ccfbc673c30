/**
 * The merchant views' own event, as src/events.ts writes events (an `Event` subclass with a read-only `detail`,
 * bubbling and composed). Kept here, not in events.ts, so that `paykit.js` (which exports every event there)
 * carries none of the merchant views.
 */
import type { MerchantRefundAnswer } from '@paykit/core/browser';

/**
 * Fired by `<paykit-merchant-payments>` when the platform's backend answered a confirmed refund: `detail` is that
 * answer, the refund as the API made it and the payment as the API now reads it (its `refunded` and `refundable`).
 */
export class PaykitRefundCompletedEvent extends Event {
  declare readonly detail: MerchantRefundAnswer;

  constructor(detail: MerchantRefundAnswer) {
    super('paykit-refund-completed', { bubbles: true, composed: true });
    this.detail = detail;
  }
}

declare global {
  interface HTMLElementEventMap {
    'paykit-refund-completed': PaykitRefundCompletedEvent;
  }
}
