/**
 * A lazy chunk fetched ahead of its use, as its element joins the page, so that a click does not wait for it.
 */

/**
 * Starts `load` and lets it fail quietly: a chunk that cannot be fetched now (offline, a copied `paykit.js` without
 * its chunks) is no error yet; the click or check that needs it loads it again, and says so if it still cannot.
 */
export function prefetch(load: () => Promise<unknown>): void {
  load().catch(() => undefined);
}
