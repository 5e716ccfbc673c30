/**
 * Connect in a popup, the page's side (as Auth0's `loginWithPopup` and oidc-client-ts's `signinPopup` do it, without
 * their known faults). The attempt (state, PKCE verifier, the authorization request's URL) is prepared before the
 * click, so that the click opens the window at once: browsers allow a popup only in the click itself, before
 * anything is awaited. The popup is a top-level window of the authorization server (nothing of it is framed); its
 * callback page, on this origin, hands the callback back (hand-off-callback.ts), and this page exchanges the code
 * through the backend as the return page does, so the page the merchant was filling in stays as it was.
 *
 * What ends an attempt: the callback (connected, or the merchant's denial), the merchant closing the popup
 * (`popup_closed`, within a second), the time limit (`timeout`, ten minutes by default: the attempt's own life), or
 * the caller's `AbortSignal`. A window that reads as closed may instead have gone to a callback page that
 * `Cross-Origin-Opener-Policy` cut from this one and that has not spoken yet (a slow machine): after `popup_closed`
 * the origin's channel still takes this attempt's callback until the time limit, and `late` hears the business.
 *
 * Messages are heard only from the popup's window with this exact origin, or on the origin's channel, and believed
 * only when sealed with the attempt's secret (popup-messages.ts): a window of another origin posting a code, or
 * another tab of this origin on the channel, changes nothing and learns nothing. The secret goes to the popup in
 * the click, through the popup's own sessionStorage, while the window is still blank and of this origin
 * ({@link handOver}). Part of the connect popup's lazy chunk.
 */
import { PaykitError } from '@paykit/core/browser';
import { text } from '../messages.js';
import type { ConnectedBusinessAnswer } from '../types.js';
import { ATTEMPT_TTL_MS, retire, type AttemptStorage } from '../connect/connect-attempts.js';
// Through the lazy entries, so that each chunk stays what one kind of page fetches.
import { handleConnectReturn } from '../connect/lazy-connect-return.js';
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
import { POPUP_FEATURES, POPUP_NAME } from './popup-window.js';
import { startConnect } from '../connect/lazy-start-connect.js';
import type { StartConnectOptions } from '../connect/start-connect.js';

/** Options of {@link prepareConnectPopup}: those of `startConnect`, and the backend that exchanges the code. */
export interface ConnectPopupOptions extends StartConnectOptions {
  /** Where the platform's paykit handler is mounted, such as `/paykit`: the opener posts the callback there. */
  endpoint: string;
}

/** Options of an attempt's `open`. */
export interface OpenPopupOptions {
  /** Ends the attempt (the popup is closed; `open` rejects with the signal's reason). */
  signal?: AbortSignal;
  /** How long the merchant may take. Default: ten minutes, the attempt's own life. */
  timeoutMs?: number;
  /**
   * After `popup_closed`: the business, should the callback come after all (a callback page that COOP cut from
   * this one, which read as closed, and spoke only once its script had loaded).
   */
  late?: (business: ConnectedBusinessAnswer) => void;
}

/** A prepared attempt: its authorization request, and `open`, to call in the click itself. */
export interface PreparedConnectPopup {
  /** The authorization request's URL (also where a redirect goes when the popup is blocked). */
  readonly url: string;
  readonly state: string;
  /**
   * Opens the popup (synchronously: call it in the click handler, before any `await`) and resolves with the
   * connected business. Rejects with `popup_blocked` (the browser refused the window: `location.assign(url)` is the
   * way left), `popup_closed`, `access_denied` (the merchant declined), `timeout`, the signal's reason, or the
   * backend's refusal of the code.
   */
  open(options?: OpenPopupOptions): Promise<ConnectedBusinessAnswer>;
}

/** A closed window seen this long without a callback is the merchant closing it (under a second with the polling). */
const CLOSED_GRACE_MS = 500;
const POLL_MS = 250;
/**
 * A window that reads as closed this soon after it went to the authorization server was not closed by a person:
 * `Cross-Origin-Opener-Policy: same-origin` on this page cut the handle. Only the callback and the time limit
 * end such an attempt.
 */
const SEVERED_MS = 1_000;

/**
 * Prepares an attempt (before the click): the state, the PKCE verifier and the authorization request's URL, kept
 * as `startConnect` keeps them.
 */
export async function prepareConnectPopup(options: ConnectPopupOptions): Promise<PreparedConnectPopup> {
  const { url, state } = await startConnect(options);
  return {
    url,
    state,
    open: (limits = {}) => {
      const popup = openPopup();
      const key = popup && handOver(popup, state, url);
      return key
        ? watchPopup(popup, key, { ...options, ...limits, state })
        : Promise.reject(new PaykitError('popup_blocked', text().connectFailed));
    },
  };
}

/**
 * Opens (or reuses) the connect popup, blank, centred on this window; `null` when the browser refuses, by answering
 * `null` (a blocker) or by throwing (Firefox in a frame sandboxed without `allow-popups`).
 */
export function openPopup(): Window | null {
  let popup: Window | null;
  try {
    popup = window.open('', POPUP_NAME, POPUP_FEATURES);
  } catch {
    return null;
  }
  if (popup) centre(popup);
  return popup;
}

/**
 * Gives the popup the attempt `state`'s secret, and sends it to the authorization request `url`; resolves with
 * the attempt's key. The secret is written into the popup's own sessionStorage while the window is blank (of this
 * origin): the popup keeps it through the authorization server and `Cross-Origin-Opener-Policy`, its callback page
 * takes it, and no other tab can read it. This page keeps it in memory only. Not from this page's sessionStorage,
 * which the browser copies into a popup at `window.open`: the button opens the window before its attempt may be
 * ready. `undefined`, the window closed, when it is not this origin's (a popup of an earlier attempt, reused by
 * name, on the authorization server), which could not learn the secret.
 */
export function handOver(popup: Window, state: string, url: string): Promise<CryptoKey> | undefined {
  const secret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
  try {
    popup.sessionStorage.setItem(SECRET + state, secret);
  } catch {
    popup.close();
    return undefined;
  }
  popup.location.replace(url);
  return keyOf(secret);
}

/** Moves the popup over the middle of this window, where the merchant is looking. */
export function centre(popup: Window): void {
  try {
    popup.moveTo(Math.round(screenX + (outerWidth - 500) / 2), Math.round(screenY + (outerHeight - 720) / 2));
  } catch {
    // A window the browser does not let this page move stays where the browser put it.
  }
}

/**
 * Waits for the callback of the attempt `state` in `popup`, whose messages are sealed with `key`, exchanges it,
 * and resolves with the business. `storage` is where the attempt is kept.
 */
export function watchPopup(
  popup: Window,
  key: Promise<CryptoKey>,
  options: Pick<ConnectPopupOptions, 'endpoint' | 'redirectUri' | 'fetch'> &
    OpenPopupOptions & { state: string; storage?: AttemptStorage },
): Promise<ConnectedBusinessAnswer> {
  const { state, signal } = options;
  const channel = popupChannel();
  const opened = Date.now();
  return new Promise((resolve, reject) => {
    /** The callback page said its callback came back; then whether this page is exchanging the code. */
    let taken = false;
    let exchanging = false;
    /** The attempt ended: a message that was still being opened is left unanswered. */
    let over = false;
    let closedAt = 0;
    let severed = false;
    /** `popup_closed` was said: only the channel is heard now, until the time limit. */
    let closed = false;
    const finish = (settle: () => void) => {
      over = true;
      clearInterval(poll);
      clearTimeout(limit);
      removeEventListener('message', onMessage);
      signal?.removeEventListener('abort', abort);
      settle();
    };
    const end = (error: unknown) => {
      channel?.close();
      if (!popup.closed) popup.close();
      finish(() => reject(error));
    };
    const conclude = (business: ConnectedBusinessAnswer | undefined, error: unknown) => {
      channel?.close();
      finish(() => undefined);
      if (!business) return reject(error);
      if (closed) options.late?.(business);
      resolve(business);
    };
    /** A message, as `send` sends it on the way the callback page spoke: sealed, this page's own. */
    const receive = async (data: unknown, send: (sealed: unknown) => void) => {
      const message = await unseal(key, 'popup', data);
      if (!message || over) return;
      const reply = async (answer: PopupMessage) => {
        const sealed = await seal(key, 'opener', answer);
        if (!over) send(sealed);
      };
      if (message.type === 'callback' && !taken) {
        taken = true;
        // The window is done with: only the callback page's answers and the time limit count from here.
        clearInterval(poll);
        return reply({ type: 'ack' });
      }
      // The callback page waited too long for the ack and exchanged the code itself: its outcome is this one's,
      // and this page's copy of the attempt (its verifier) is spent.
      if (message.type === 'done') {
        retire(options.storage, state);
        return conclude(message.business, doneError(message));
      }
      // The callback page heard the ack in time and leaves the exchange to this page: only now does the code cross,
      // and is it exchanged, so that it is never exchanged by both.
      if (message.type !== 'go' || !taken || exchanging) return;
      exchanging = true;
      const url = new URL(options.redirectUri);
      url.search = message.search;
      // Checked and exchanged as on the return page, with this tab's attempt: state, verifier, single use.
      await handleConnectReturn({ endpoint: options.endpoint, url: url.href, fetch: options.fetch }).then(
        async (business) => {
          await reply({ type: 'done', business });
          conclude(business, undefined);
        },
        async (error: unknown) => {
          await reply({ type: 'done', error: failureOf(error) });
          conclude(undefined, error);
        },
      );
    };
    // The popup's own window, of this very origin: another window, or this origin in another window, is ignored.
    const onMessage = (event: MessageEvent) => {
      if (event.origin === location.origin && event.source === popup)
        void receive(event.data, (sealed) => popup.postMessage(sealed, location.origin));
    };
    addEventListener('message', onMessage);
    // Where COOP cut the popup's handle to this page: its callback page speaks on the channel, every tab hears it.
    if (channel) channel.onmessage = (event) => void receive(event.data, (sealed) => channel.postMessage(sealed));
    const poll = setInterval(() => {
      if (!popup.closed || severed) return;
      if (Date.now() - opened < SEVERED_MS) severed = true;
      else if (!closedAt) closedAt = Date.now();
      // A callback page that COOP cut from this one reads as closed too: the button is ready again after this
      // long, and the channel still listens for that page (`late`).
      else if (Date.now() - closedAt >= CLOSED_GRACE_MS) {
        closed = true;
        clearInterval(poll);
        removeEventListener('message', onMessage);
        reject(new PaykitError('popup_closed', text().connectCancelled));
      }
    }, POLL_MS);
    const limit = setTimeout(
      () => end(new PaykitError('timeout', text().connectFailed)),
      options.timeoutMs ?? ATTEMPT_TTL_MS,
    );
    const abort = () => end(signal!.reason);
    if (signal?.aborted) return abort();
    signal?.addEventListener('abort', abort);
  });
}
