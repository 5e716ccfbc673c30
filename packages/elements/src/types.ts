/**
 * The shapes the elements exchange with the merchant's backend (`@paykit/server`'s handler).
 */

// The shapes of the backend's routes are defined once, in core; type-only imports bring no code (nor zod).
import type { PaymentStatus as CorePaymentStatus } from '@paykit/core';
export type { CheckoutStarted, ShopperChoice, BusinessInfo as ConnectedBusiness } from '@paykit/core';

/**
 * The status the backend confirms (`GET {endpoint}/payment-requests/{id}`), with what it may add for the return
 * page to show: the payment's `purpose` and the merchant's `reference`, when it sends them.
 */
export interface PaymentStatus extends CorePaymentStatus {
  readonly purpose?: string;
  readonly reference?: string;
}

/** The detail of a `paykit-error` event. */
export interface PaykitErrorDetail {
  /** A stable code (see `@paykit/core`'s `ErrorCode`). */
  readonly code: string;
  /** Words for the shopper. */
  readonly message: string;
}
