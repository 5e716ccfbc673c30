/**
 * The callback page in the connect popup: instead of exchanging the code itself, it hands the callback to the
 * page that opened the popup (which holds the attempt, and the merchant's half-filled onboarding), waits for that
 * page to say it took it (`ack`), lets it go on (`go`), waits for what the exchange gave (`done`), and closes
 * itself. By `postMessage` to `window.opener` with this page's exact origin, and on the origin's `BroadcastChannel`
 * for an opener that `Cross-Origin-Opener-Policy` cut (see popup-messages.ts). When no page takes it in time (the
 * opener was closed or left, or is too slow), the caller handles the callback here, as a redirect's, and tells the
 * opener the outcome ({@link tellOpener}). Part of the OAuth callback's lazy chunk.
 */
import { PaykitError } from '@paykit/core/browser';
import { text } from '../messages.js';
import type { ConnectedBusinessAnswer } from '../types.js';
import { doneError, failureOf, popupChannel, popupMessage, type PopupMessage } from './popup-messages.js';

/** How long the opener has to say it took the callback. */
export const ACK_MS = 2_000;
/** How long the opener's exchange with its backend may take once it took the callback. */
export const DONE_MS = 30_000;

/**
 * Hands the callback `url` (whose `state` is `state`) to the opener. Resolves with the business the opener
 * connected (the popup then closes itself), `undefined` when no page took the callback within {@link ACK_MS}, and
 * the caller is to handle it; rejects with the opener's error. Without the attempt in this page (`holdsAttempt`
 * false), an opener whose ack comes later is still told to go on: only it can exchange the code.
 */
export function handOffCallback(
  url: URL,
  state: string,
  holdsAttempt: boolean,
): Promise<ConnectedBusinessAnswer | undefined> {
  const channel = popupChannel();
  return new Promise((resolve, reject) => {
    let acked = false;
    let timer = setTimeout(() => {
      if (!holdsAttempt) say({ type: 'paykit:connect-go', state }, channel);
      finish(() => resolve(undefined));
    }, ACK_MS);
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      removeEventListener('message', onMessage);
      channel?.close();
      settle();
    };
    const receive = (data: unknown) => {
      // The first ack within the wait: the opener goes on. This page no longer handles the callback itself.
      if (popupMessage(data, 'paykit:connect-ack', state) && !acked) {
        acked = true;
        clearTimeout(timer);
        say({ type: 'paykit:connect-go', state }, channel);
        timer = setTimeout(() => finish(() => reject(new PaykitError('timeout', text().connectFailed))), DONE_MS);
        return;
      }
      const done = popupMessage(data, 'paykit:connect-done', state);
      if (!done) return;
      finish(() => (done.business ? resolve(done.business) : reject(doneError(done))));
      // The merchant is back on the page that opened the popup, which shows the outcome.
      window.close();
    };
    // Only the opener, of this very origin, is heard on this path.
    const onMessage = (event: MessageEvent) => {
      if (event.origin === location.origin && event.source === window.opener) receive(event.data);
    };
    addEventListener('message', onMessage);
    if (channel) channel.onmessage = (event) => receive(event.data);
    // The code leaves the address bar (and the history) before it goes anywhere.
    history.replaceState(history.state, '', `${url.pathname}${url.hash}`);
    say({ type: 'paykit:connect-callback', state, search: url.search }, channel);
  });
}

/**
 * After a hand-off no page took in time, this page exchanged the callback itself: the opener, should it be there
 * after all (it acked too late), hears the outcome (`done`) and shows it.
 */
export function tellOpener(state: string, outcome: { business: ConnectedBusinessAnswer } | { error: unknown }): void {
  const channel = popupChannel();
  say(
    'business' in outcome
      ? { type: 'paykit:connect-done', state, business: outcome.business }
      : { type: 'paykit:connect-done', state, error: failureOf(outcome.error) },
    channel,
  );
  channel?.close();
}

/** To the opener, of this origin only (an opener of another origin gets nothing), and on the origin's channel. */
function say(message: PopupMessage, channel: BroadcastChannel | undefined): void {
  const opener: Window | null = window.opener;
  opener?.postMessage(message, location.origin);
  channel?.postMessage(message);
}
