/**
 * The refund confirmation (refund-confirm.ts) as `<paykit-merchant-payments>` loads it: a lazy chunk, fetched when a
 * payment's detail offers a refund (this caller may refund, and something is left to refund), so that a view that
 * only reads never downloads it.
 */

/** Loads the confirmation's chunk (once; later calls share the first). */
export const loadRefundConfirm = () => import('./refund-confirm.js');
