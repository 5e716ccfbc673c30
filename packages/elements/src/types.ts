/**
 * The shapes the elements exchange with the merchant's backend (`@paykit/server`'s handler).
 */

// The shapes of the backend's routes are defined once, in core; type-only imports bring no code (nor zod).
export type { CheckoutStarted, PaymentStatus, ShopperChoice, BusinessInfo as ConnectedBusiness } from '@paykit/core';

/** The detail of a `paykit-error` event. */
export interface PaykitErrorDetail {
  /** A stable code (see `@paykit/core`'s `ErrorCode`). */
  readonly code: string;
  /** Words for the shopper. */
  readonly message: string;
}
