/**
 * `<paykit-merchant-payments>` as its refund confirmation (refund-confirm.ts, a lazy chunk) sees it: its settings,
 * and what the confirmation may do to it. The chunk is typed on this, never on the element's class, so that it does
 * not import the element that loads it (scripts/check-cycles.ts).
 */
import type { MerchantRefundAnswer } from '@paykit/core/browser';
import type { PaykitErrorDetail } from '../types.js';

/** The element's side of a refund. */
export interface RefundHost extends HTMLElement {
  /** Where the platform's paykit handler is mounted. */
  readonly endpoint: string;
  /** The merchant's business id. */
  readonly merchant: string;
  /** Renders again (the confirmation's state changed). */
  requestUpdate(): void;
  /** Resolves once the element has rendered what it was last told. */
  readonly updateComplete: Promise<boolean>;
  /** The backend answered the refund: show its answer, say it, fire `paykit-refund-completed`. */
  refunded(answer: MerchantRefundAnswer): void;
  /** The refund was refused or failed (`error`; shown in the confirmation as `detail.message`): fire `paykit-error`. */
  refundFailed(error: unknown, detail: PaykitErrorDetail): void;
  /** Cancel: the confirmation closes, the focus goes back to the button that opened it. */
  closeRefund(): void;
}
