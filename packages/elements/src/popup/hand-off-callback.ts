/**
 * The callback page in the connect popup: instead of exchanging the code itself, it hands the callback to the
 * page that opened the popup (which holds the attempt, and the merchant's half-filled onboarding). It says the
 * callback came back (`callback`), waits for that page to say it takes it (`ack`), only then hands it the query
 * with the code (`go`), waits for what the exchange gave (`done`), and closes itself. By `postMessage` to
 * `window.opener` with this page's exact origin, or, only when `Cross-Origin-Opener-Policy` cut `window.opener`,
 * on the origin's `BroadcastChannel`; every message sealed with the attempt's secret, which the opener gave this
 * window (see popup-messages.ts). When no page takes it in time (the opener was closed or left, or is too slow),
 * the caller handles the callback here, as a redirect's, and tells the opener the outcome ({@link tellOpener}).
 * Part of the OAuth callback's lazy chunk.
 */
import { PaykitError } from '@paykit/core/browser';
import { text } from '../messages.js';
import type { ConnectedBusinessAnswer } from '../types.js';
import { retire } from '../connect/connect-attempts.js';
import {
  doneError,
  failureOf,
  keyOf,
  popupChannel,
  seal,
  SECRET,
  unseal,
  type PopupMessage,
} from './popup-messages.js';

/** How long the opener has to say it took the callback. */
export const ACK_MS = 2_000;
/** How long the opener's exchange with its backend may take once it took the callback. */
export const DONE_MS = 30_000;

/**
 * The key of the attempt `state`, when this page is its popup: the opener wrote the attempt's secret into this
 * window's sessionStorage. Taken once (a reload of this page has none). `undefined` on any other page.
 */
export function takeSecret(state: string): Promise<CryptoKey> | undefined {
  try {
    const secret = sessionStorage.getItem(SECRET + state);
    sessionStorage.removeItem(SECRET + state);
    return secret ? keyOf(secret) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Hands the callback `url` (whose `state` is `state`) to the opener, speaking with the attempt's `key`. Resolves
 * with the business the opener connected (the popup then closes itself), `undefined` when no page took the
 * callback in time, and the caller is to handle it; rejects with the opener's error. Without the attempt in this
 * page (`holdsAttempt` false), only the opener can exchange the code: its ack is awaited as long as an exchange.
 */
export function handOffCallback(
  url: URL,
  state: string,
  key: Promise<CryptoKey>,
  holdsAttempt: boolean,
): Promise<ConnectedBusinessAnswer | undefined> {
  // The channel only for a window that COOP cut from its opener: otherwise no other tab hears anything.
  const channel = window.opener ? undefined : popupChannel();
  return new Promise((resolve, reject) => {
    let acked = false;
    /** Settled: a message still being opened when the wait ended is not acted on. */
    let over = false;
    let timer = setTimeout(() => finish(() => resolve(undefined)), holdsAttempt ? ACK_MS : DONE_MS);
    const finish = (settle: () => void) => {
      over = true;
      clearTimeout(timer);
      removeEventListener('message', onMessage);
      channel?.close();
      settle();
    };
    const receive = async (data: unknown) => {
      const message = await unseal(key, 'opener', data);
      if (over) return;
      // The first ack within the wait: the opener takes over. This page no longer handles the callback itself.
      if (message?.type === 'ack' && !acked) {
        acked = true;
        clearTimeout(timer);
        timer = setTimeout(() => finish(() => reject(new PaykitError('timeout', text().connectFailed))), DONE_MS);
        // The opener exchanges the code with its own copy of the attempt: this page's copy is spent.
        retire('session', state);
        return say(key, { type: 'go', search: url.search }, channel);
      }
      if (message?.type !== 'done') return;
      finish(() => (message.business ? resolve(message.business) : reject(doneError(message))));
      // The merchant is back on the page that opened the popup, which shows the outcome.
      window.close();
    };
    // Only the opener, of this very origin, is heard on this path.
    const onMessage = (event: MessageEvent) => {
      if (event.origin === location.origin && event.source === window.opener) void receive(event.data);
    };
    addEventListener('message', onMessage);
    if (channel) channel.onmessage = (event) => void receive(event.data);
    // The code leaves the address bar (and the history) before anything is said.
    history.replaceState(history.state, '', `${url.pathname}${url.hash}`);
    void say(key, { type: 'callback' }, channel);
  });
}

/**
 * After a hand-off no page took in time, this page exchanged the callback itself: the opener, should it be there
 * after all (it acked too late), hears the outcome (`done`) and shows it.
 */
export async function tellOpener(
  key: Promise<CryptoKey>,
  outcome: { business: ConnectedBusinessAnswer } | { error: unknown },
): Promise<void> {
  const channel = window.opener ? undefined : popupChannel();
  await say(
    key,
    'business' in outcome
      ? { type: 'done', business: outcome.business }
      : { type: 'done', error: failureOf(outcome.error) },
    channel,
  );
  channel?.close();
}

/**
 * To the opener, sealed: by `postMessage` to this origin only (an opener of another origin gets nothing), or on
 * the origin's channel when this window has no opener.
 */
async function say(
  key: Promise<CryptoKey>,
  message: PopupMessage,
  channel: BroadcastChannel | undefined,
): Promise<void> {
  const sealed = await seal(key, 'popup', message);
  const opener: Window | null = window.opener;
  if (opener) opener.postMessage(sealed, location.origin);
  else channel?.postMessage(sealed);
}
