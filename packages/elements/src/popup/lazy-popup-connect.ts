/**
 * The connect popup as the package's entries and `<paykit-connect-button popup>` load it: its code is a lazy chunk
 * (see popup.ts), so that a page without a popup button never downloads it.
 */
import type { ConnectPopupOptions, PreparedConnectPopup } from './popup-connect.js';

/** Loads the connect popup's chunk (once; later calls share the first). */
export const loadPopup = () => import('./popup.js');

/**
 * Prepares a connect attempt for a popup, before the click: call the result's `open` in the click handler itself.
 * See `popup-connect.ts`: this loads it, then calls it.
 *
 * @example
 * ```ts
 * const attempt = await prepareConnectPopup({ clientId, redirectUri, scope, issuer, endpoint: '/paykit' });
 * button.onclick = () =>
 *   attempt.open({ signal }).then(showConnected, (error) =>
 *     error.code === 'popup_blocked' ? location.assign(attempt.url) : showError(error),
 *   );
 * ```
 */
export async function prepareConnectPopup(options: ConnectPopupOptions): Promise<PreparedConnectPopup> {
  return (await loadPopup()).prepareConnectPopup(options);
}
