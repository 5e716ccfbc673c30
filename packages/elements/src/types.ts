/**
 * The shapes the elements exchange with the merchant's backend (`@paykit/server`'s handler).
 */

/** What the shopper chose, sent to `POST {endpoint}/payment-requests`. The backend decides the price. */
export interface ShopperChoice {
  /** The price the shopper was shown, checked by the backend against its own (`amount_mismatch`). */
  amount?: string;
  currency?: string;
  purpose?: string;
  email?: string;
  payment_methods?: string[];
  reference?: string;
  /** On a platform's page: the business id of the merchant being paid. */
  merchant?: string;
}

/** The backend's answer to a checkout request. */
export interface CheckoutStarted {
  id: string;
  url: string;
  status: string;
  amount: string;
  currency: string;
}

/** A payment's status as the backend confirms it. */
export interface PaymentStatus {
  id: string;
  status: string;
  amount: string;
  currency: string;
}

/** The detail of a `paykit-error` event. */
export interface PaykitErrorDetail {
  /** A stable code (see `@paykit/core`'s `ErrorCode`). */
  readonly code: string;
  /** Words for the shopper. */
  readonly message: string;
}

/** The business a platform just connected, as `POST {endpoint}/oauth/callback` answers. */
export interface ConnectedBusiness {
  id?: string;
  name: string;
  country: string;
  currency: string;
  payments_enabled: boolean;
}
