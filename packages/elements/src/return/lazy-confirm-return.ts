/**
 * `<paykit-return>`'s check (confirm-return.ts) as the element loads it: a lazy chunk fetched when the element starts
 * its check, so that the pages of a shop that only have pay buttons never download it.
 */

/** Loads the check's chunk (once; later calls share the first). */
export const loadConfirmReturn = () => import('./confirm-return.js');
