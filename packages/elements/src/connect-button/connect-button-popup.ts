/**
 * `<paykit-connect-button popup>`: the attempt prepared as soon as the button is on the page (and again after each
 * use), the popup opened by the click itself (connect-button.ts opens the window before anything is awaited, and
 * hands it here), then the page's side of popup-connect.ts. Connected: the business shown under the button; the
 * rest of the page untouched. Closed by the merchant: focus back on the button. Blocked by the browser: the
 * redirect, as without `popup`. The button fires the matching event (`paykit-connected`, `paykit-cancel`,
 * `paykit-connect-denied`) from what this resolves with, as it fires every event of its own.
 * Part of the connect popup's lazy chunk.
 */
import { PaykitError } from '@paykit/core/browser';
import { dev } from '#dev';
import { ConnectDeniedError } from '../connect/connect-errors.js';
import { text } from '../messages.js';
import type { ConnectButtonHost } from '../button-host.js';
import type { ConnectedBusinessAnswer } from '../types.js';
import { ATTEMPT_TTL_MS } from '../connect/connect-attempts.js';
import { centre, handOver, watchPopup } from '../popup/popup-connect.js';
import { startConnect } from '../connect/lazy-start-connect.js';

/** An attempt prepared for a button: for its settings of then, made at `at`. */
interface Prepared {
  settings: string;
  at: number;
  attempt: Promise<{ url: string; state: string }>;
}

const prepared = new WeakMap<ConnectButtonHost, Prepared>();

/** What of a button makes its authorization request: a change of any of them needs a new attempt. */
function settingsOf(button: ConnectButtonHost): string {
  const { clientId, redirectUri, scope, dashboardUrl, authorizationEndpoint, issuer, prompt, loginHint } = button;
  return JSON.stringify([
    clientId,
    redirectUri,
    scope,
    dashboardUrl,
    authorizationEndpoint,
    issuer,
    prompt,
    loginHint,
    button.resource,
    button.storage,
  ]);
}

/**
 * Prepares the button's next attempt, unless one for its current settings is ready and young enough to live
 * through a sign-in (half the attempt's life). Errors wait for the click, which says them.
 */
export function preparePopup(button: ConnectButtonHost): void {
  const settings = settingsOf(button);
  const ready = prepared.get(button);
  if (ready?.settings === settings && Date.now() - ready.at < ATTEMPT_TTL_MS / 2) return;
  const attempt = startConnect(button);
  attempt.catch(() => undefined);
  prepared.set(button, { settings, at: Date.now(), attempt });
}

/**
 * How a popup attempt ended, for the button to fire: the redirect to make (`url`: the popup was blocked), the
 * business connected, the merchant's denial (`description`), or the popup closed (`closed`: the business, should
 * the callback come after all; it never settles otherwise).
 */
export type PopupEnd =
  | { url: string }
  | { business: ConnectedBusinessAnswer }
  | { description: string | undefined }
  | { closed: Promise<ConnectedBusinessAnswer> };

/**
 * The click's work, with the window the click opened (`null`: the browser refused it). Shows the outcome under the
 * button; the button fires its event.
 */
export async function connectInPopup(button: ConnectButtonHost, popup: Window | null): Promise<PopupEnd> {
  preparePopup(button);
  const { attempt } = prepared.get(button)!;
  // Each attempt is used once: the next click gets a fresh one.
  prepared.delete(button);
  preparePopup(button);
  let url: string;
  let state: string;
  try {
    ({ url, state } = await attempt);
  } catch (error) {
    popup?.close();
    throw error;
  }
  if (!popup) {
    // Its callback will come to this tab by redirect, and be handled here as a redirect's: this tab holds no
    // secret of the attempt, which only a popup is given.
    dev?.popupBlocked(button);
    return { url };
  }
  centre(popup);
  const key = handOver(popup, state, url);
  // A window that could not be given the secret (one of an earlier attempt, elsewhere) is closed: the redirect.
  if (!key) return { url };
  const shown = (business: ConnectedBusinessAnswer) => {
    button.show(`${text(button).connected}${business.name}.`);
    return business;
  };
  let late!: (business: ConnectedBusinessAnswer) => void;
  const closed = new Promise<ConnectedBusinessAnswer>((resolve) => (late = resolve)).then(shown);
  try {
    return {
      business: shown(
        await watchPopup(popup, key, {
          endpoint: button.endpoint!,
          redirectUri: button.redirectUri,
          state,
          late,
          storage: button.storage,
        }),
      ),
    };
  } catch (error) {
    if (error instanceof PaykitError && error.code === 'popup_closed') {
      button.focus();
      return { closed };
    }
    if (!(error instanceof ConnectDeniedError)) throw error;
    button.show(text(button).connectCancelled);
    return { description: error.description };
  }
}
