/**
 * The redirect checkout's code (create-checkout.ts: the backend call, the checks of the amount and of the checkout
 * URL, the idempotency key) as `startCheckout` and `<paykit-pay-button>` load it: a lazy chunk that a pay button
 * fetches as soon as it is on the page (pay-button.ts), well before a click needs it, as the connect button fetches
 * its own. The element's first render does not wait for it; a page with no pay button (a return page) never
 * downloads it.
 */

/** Loads the checkout's chunk (once; later calls share the first). */
export const loadCheckout = () => import('./create-checkout.js');
