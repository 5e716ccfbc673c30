/**
 * The connect popup's window, as the connect button opens it in its click and the popup chunk reuses it. Apart from
 * popup-messages.ts, so that the button's file carries these two strings and nothing of the messages.
 */

/** The name of the connect popup's window (one at a time: a second attempt reuses it). */
export const POPUP_NAME = 'paykit-connect';

/** The connect popup's `window.open` features: a popup window of a size for a sign-in and a consent page. */
export const POPUP_FEATURES = 'popup,width=500,height=720';
