/**
 * The connect popup's lazy chunk: what only a page with `<paykit-connect-button popup>` (or a call of
 * `prepareConnectPopup`) runs. Fetched when such a button is on the page, so that the attempt is ready before the
 * click.
 */
export { connectInPopup, preparePopup } from '../connect-button/connect-button-popup.js';
export { prepareConnectPopup } from './popup-connect.js';
