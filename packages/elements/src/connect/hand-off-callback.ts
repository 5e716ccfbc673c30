/**
 * The callback page in the connect popup: instead of exchanging the code itself, it hands the callback to the
 * page that opened the popup (which holds the attempt, and the merchant's half-filled onboarding), waits for that
 * page to say it took it (`ack`) and then what the exchange gave (`done`), and closes itself. By `postMessage` to
 * `window.opener` with this page's exact origin, and on the origin's `BroadcastChannel` for an opener that
 * `Cross-Origin-Opener-Policy` cut (see popup-messages.ts). When no page takes it (the opener was closed or left),
 * the caller handles the callback here, as a redirect's. Part of the OAuth callback's lazy chunk.
 */
import { PaykitError, type ErrorCode } from '@paykit/core/browser';
import { text } from '../messages.js';
import type { ConnectedBusinessAnswer } from '../types.js';
import { popupChannel, popupMessage, type PopupMessage } from './popup-messages.js';

/** How long the opener has to say it took the callback. */
export const ACK_MS = 2_000;
/** How long the opener's exchange with its backend may take once it took the callback. */
export const DONE_MS = 30_000;

/**
 * Hands the callback `url` (whose `state` is `state`) to the opener. Resolves with the business the opener
 * connected (the popup then closes itself), `undefined` when no page took the callback within {@link ACK_MS};
 * rejects with the opener's error.
 */
export function handOffCallback(url: URL, state: string): Promise<ConnectedBusinessAnswer | undefined> {
  const opener: Window | null = window.opener;
  const channel = popupChannel();
  const callback: PopupMessage = { type: 'paykit:connect-callback', state, search: url.search };
  return new Promise((resolve, reject) => {
    let timer = setTimeout(() => finish(() => resolve(undefined)), ACK_MS);
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      removeEventListener('message', onMessage);
      channel?.close();
      settle();
    };
    const receive = (data: unknown) => {
      if (popupMessage(data, 'paykit:connect-ack', state)) {
        clearTimeout(timer);
        timer = setTimeout(() => finish(() => reject(new PaykitError('timeout', text().connectFailed))), DONE_MS);
      }
      const done = popupMessage(data, 'paykit:connect-done', state);
      if (!done) return;
      finish(() =>
        done.business
          ? resolve(done.business)
          : // The opener's error as the opener made it: a PaykitError's detail, whose code is an ErrorCode.
            reject(new PaykitError((done.error?.code ?? 'upstream_error') as ErrorCode, done.error?.message ?? '')),
      );
      // The merchant is back on the page that opened the popup, which shows the outcome.
      window.close();
    };
    // Only the opener, of this very origin, is heard on this path.
    const onMessage = (event: MessageEvent) => {
      if (event.origin === location.origin && event.source === opener) receive(event.data);
    };
    addEventListener('message', onMessage);
    if (channel) channel.onmessage = (event) => receive(event.data);
    // The code leaves the address bar (and the history) before it goes anywhere.
    history.replaceState(history.state, '', `${url.pathname}${url.hash}`);
    // To this origin only: an opener of another origin (a page that opened this one some other way) gets nothing.
    opener?.postMessage(callback, location.origin);
    channel?.postMessage(callback);
  });
}
