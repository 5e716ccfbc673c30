/**
 * The drop-in's lazy chunk (drop-in.ts) as `startCheckout` and `<paykit-pay-button drop-in>` load it: only a page
 * that opens the drop-in fetches it, on its first use.
 */

/** Loads the drop-in's chunk (once; later calls share the first). */
export const loadDropIn = () => import('./drop-in.js');
