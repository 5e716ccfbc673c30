/**
 * The events of paykit's elements: `Event` subclasses with a typed, read-only `detail`, bubbling and
 * composed so that a listener on `document` hears them through shadow roots. `detail` is a declared field set
 * in the constructor, not a parameter property: a class field would be lowered for Safari 15.4 (eslint.config.js).
 */
import type { ConnectedBusinessAnswer, PaykitErrorDetail, PaymentStatus } from './types.js';

const init = { bubbles: true, composed: true };

/**
 * Fired by `<paykit-pay-button>` just before it navigates: to the checkout (also when its drop-in could not be
 * shown), or, with `drop-in` and `return-url`, to the return page once the payment in the overlay is confirmed.
 * Cancelable: `preventDefault()`
 * keeps the page where it is (an SPA that navigates itself, or a test).
 */
export class PaykitCheckoutEvent extends Event {
  declare readonly detail: { readonly id: string; readonly url: string };

  constructor(detail: { readonly id: string; readonly url: string }) {
    super('paykit-checkout', { ...init, cancelable: true });
    this.detail = detail;
  }
}

/** Fired when an element gives up; `detail.message` is also shown in the element. */
export class PaykitErrorEvent extends Event {
  declare readonly detail: PaykitErrorDetail;

  constructor(detail: PaykitErrorDetail) {
    super('paykit-error', init);
    this.detail = detail;
  }
}

/**
 * Fired by `<paykit-return>` when the backend confirms the payment completed; and by `<paykit-pay-button drop-in>`
 * without `return-url`, once the backend confirms the payment made in the drop-in overlay.
 */
export class PaykitPaymentCompletedEvent extends Event {
  declare readonly detail: PaymentStatus;

  constructor(detail: PaymentStatus) {
    super('paykit-payment-completed', init);
    this.detail = detail;
  }
}

/** Fired by `<paykit-return>` (and `<paykit-pay-button drop-in>`, as above) when the backend confirms the payment failed or was canceled. */
export class PaykitPaymentFailedEvent extends Event {
  declare readonly detail: PaymentStatus;

  constructor(detail: PaymentStatus) {
    super('paykit-payment-failed', init);
    this.detail = detail;
  }
}

/**
 * Fired by `<paykit-connect-button>` just before it sends the merchant to the dashboard. Cancelable.
 */
export class PaykitConnectEvent extends Event {
  declare readonly detail: { readonly url: string };

  constructor(detail: { readonly url: string }) {
    super('paykit-connect', { ...init, cancelable: true });
    this.detail = detail;
  }
}

/** Fired by `<paykit-return>` (or `<paykit-connect-button popup>`) when the platform's backend has connected the merchant. */
export class PaykitConnectedEvent extends Event {
  declare readonly detail: { readonly business: ConnectedBusinessAnswer };

  constructor(detail: { readonly business: ConnectedBusinessAnswer }) {
    super('paykit-connected', init);
    this.detail = detail;
  }
}

/** Fired by `<paykit-return>` when the merchant declined the connection on the consent page. */
export class PaykitConnectDeniedEvent extends Event {
  declare readonly detail: { readonly description: string | undefined };

  constructor(detail: { readonly description: string | undefined }) {
    super('paykit-connect-denied', init);
    this.detail = detail;
  }
}

/**
 * Fired when the shopper or the merchant closes what the button opened on this page, without an outcome: the
 * drop-in overlay of `<paykit-pay-button drop-in>` (`detail.id`: the payment request, still pending; the next click
 * opens it again), or the popup of `<paykit-connect-button popup>` (no `id`; nothing was connected).
 */
export class PaykitCancelEvent extends Event {
  declare readonly detail: { readonly id?: string };

  constructor(detail: { readonly id?: string }) {
    super('paykit-cancel', init);
    this.detail = detail;
  }
}

declare global {
  interface HTMLElementEventMap {
    'paykit-checkout': PaykitCheckoutEvent;
    'paykit-error': PaykitErrorEvent;
    'paykit-payment-completed': PaykitPaymentCompletedEvent;
    'paykit-payment-failed': PaykitPaymentFailedEvent;
    'paykit-connect': PaykitConnectEvent;
    'paykit-connected': PaykitConnectedEvent;
    'paykit-connect-denied': PaykitConnectDeniedEvent;
    'paykit-cancel': PaykitCancelEvent;
  }
}
