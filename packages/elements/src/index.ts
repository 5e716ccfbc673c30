/**
 * `@paykit/elements`: the element classes and the headless functions they are built on. Importing this entry
 * registers nothing; import `@paykit/elements/pay-button`, `/connect-button`, `/return` or `/all` to define the tags.
 *
 * @packageDocumentation
 */
export { PaykitPayButton } from './pay-button/pay-button.js';
export { PaykitReturn } from './return/return-status.js';
export { PaykitConnectButton } from './connect-button/connect-button.js';
export { startConnect } from './connect/lazy-start-connect.js';
export { prepareConnectPopup } from './popup/lazy-popup-connect.js';
export type { ConnectPopupOptions, OpenPopupOptions, PreparedConnectPopup } from './popup/popup-connect.js';
export type { StartConnectOptions } from './connect/start-connect.js';
export { handleConnectReturn } from './connect/lazy-connect-return.js';
export { isConnectReturn } from './connect/is-connect-return.js';
export type { HandleConnectReturnOptions } from './connect/handle-connect-return.js';
// Types only: the classes live in the callback's lazy chunk (each one exported would cost every page its bytes).
export type { ConnectAgainError, ConnectDeniedError } from './connect/connect-errors.js';
export type { AttemptStorage } from './connect/connect-attempts.js';
export { startCheckout, type StartCheckoutOptions } from './checkout/start-checkout.js';
export type { CheckoutInPlace, DropInScript } from './checkout/types.js';
export { handleReturn } from './return/lazy-handle-return.js';
export { FINAL_STATUSES } from './return/statuses.js';
export type { HandleReturnOptions } from './return/handle-return.js';
export {
  PaykitCancelEvent,
  PaykitCheckoutEvent,
  PaykitConnectDeniedEvent,
  PaykitConnectEvent,
  PaykitConnectedEvent,
  PaykitErrorEvent,
  PaykitPaymentCompletedEvent,
  PaykitPaymentFailedEvent,
} from './events.js';
export type { CheckoutStarted, PaykitErrorDetail, PaymentStatus, ShopperChoice } from './types.js';
export { registerMessages, text, type Messages } from './messages.js';
// The merchant views: types only, so that `paykit.js` (this entry, all.ts) carries none of them; their classes and
// tags come with `@paykit/elements/connection`, `/merchant-payments` and `/merchant-payouts`.
export type { PaykitConnection } from './merchant-view/connection.js';
export type { PaykitMerchantPayments } from './merchant-view/merchant-payments.js';
export type { PaykitMerchantPayouts } from './merchant-view/merchant-payouts.js';
export type { PaykitRefundCompletedEvent } from './merchant-view/view-events.js';
export type { MerchantViewMessages } from './merchant-view/view-message-keys.js';
