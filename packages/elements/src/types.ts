/**
 * The shapes the elements exchange with the merchant's backend (`@paykit/server`'s handler).
 */

// The shapes of the backend's routes are defined once, in core (handler-routes.ts); type-only imports bring no
// code (nor zod).
export type { CheckoutStarted, ConnectedBusinessAnswer, PaymentStatus } from '@paykit/core/browser';
export type { ShopperChoice } from '@paykit/core';

/** The detail of a `paykit-error` event. */
export interface PaykitErrorDetail {
  /** A stable code (see `@paykit/core`'s `ErrorCode`). */
  readonly code: string;
  /** Words for the shopper. */
  readonly message: string;
}
