/**
 * {@link handleConnectReturn} as the package's entries expose it: the same function, whose code (the state
 * checks, the exchange with the backend) is a lazy chunk fetched on its first call. Only a platform's callback
 * page calls it, so a shop's return page, and every page of the script-tag file, does not download it.
 */
import type { ConnectedBusinessAnswer } from '../types.js';
import type { HandleConnectReturnOptions } from './handle-connect-return.js';

/**
 * Handles the OAuth callback on the platform's return page; resolves with the connected business. See
 * `handle-connect-return.ts`: this loads it, then calls it.
 */
export async function handleConnectReturn(options: HandleConnectReturnOptions): Promise<ConnectedBusinessAnswer> {
  return (await import('./handle-connect-return.js')).handleConnectReturn(options);
}
