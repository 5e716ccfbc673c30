/**
 * The drop-in's lazy chunk: what only a page that opens the payment service's drop-in runs. `startCheckout` with
 * `dropIn` and `<paykit-pay-button drop-in>` import it on their first use; no other page downloads it.
 */
export { checkoutInPlace } from './checkout-in-place.js';
export { payInPlace } from '../pay-button/pay-in-place.js';
