/**
 * {@link startConnect} as the package's entries and `<paykit-connect-button>` use it: the same function, whose code
 * (PKCE, the attempt's storage, the issuer's metadata) is a lazy chunk. A shop's pages, which have no connect
 * button, never download it; a page with one fetches it when the button is added to the page (see
 * connect-button.ts), well before a click needs it.
 */
import type { StartConnectOptions } from './start-connect.js';

/** Loads the connect flow's chunk (once; later calls share the first). */
export const loadConnect = () => import('./start-connect.js');

/**
 * Prepares an attempt (a fresh `state` and PKCE verifier, kept for this attempt) and returns the URL of the
 * authorization request. See `start-connect.ts`: this loads it, then calls it.
 */
export async function startConnect(options: StartConnectOptions): Promise<{ url: string; state: string }> {
  return (await loadConnect()).startConnect(options);
}
