/**
 * Which payment statuses are final. Apart from handle-return.ts, whose code is a lazy chunk (see
 * lazy-handle-return.ts), because the package's entry and the drop-in need it at once.
 */

/** Final statuses; anything else (`pending`, or a status paykit does not know) is still processing. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'canceled', 'expired']);
