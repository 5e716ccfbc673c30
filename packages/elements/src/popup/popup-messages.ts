/**
 * What the connect popup's callback page and the page that opened the popup say to each other. Both are pages of
 * the platform's origin (the `redirect-uri` is on the button's origin). The popup speaks by `postMessage` to
 * `window.opener` with that exact origin as the target, and only when `Cross-Origin-Opener-Policy` cut
 * `window.opener` on the origin's `BroadcastChannel`; the opener answers the way it was spoken to.
 *
 * Every other tab of the origin hears that channel, and may post on it (a compromised widget on another page of the
 * site): so no message is believed for what it says, nor for the attempt's `state` it names. Each attempt has a
 * secret, 256 random bits, that only the opener and its popup hold: the opener keeps it in memory and writes it
 * into the popup's own sessionStorage while the window is still blank and of this origin, before it goes to the
 * authorization server (popup-connect.ts); the callback page takes it from there. Every message is sealed with it
 * (AES-GCM, the sender's role as additional data, so that a message sent back to its sender opens for no one): a
 * tab without the secret reads nothing of a message, and nothing it posts opens. Why sessionStorage, and not the
 * window's name or the channel: a popup keeps the sessionStorage of its origin through the authorization server and
 * through the browsing context group switch `Cross-Origin-Opener-Policy` makes, in Chromium, Firefox and WebKit,
 * while that switch clears `window.name` (both checked by popup-connect.test.ts), and no other tab can read it.
 *
 * - popup → opener: `callback`: the callback came back (nothing of its query).
 * - opener → popup: `ack` at once (the opener has the attempt and would take over).
 * - popup → opener: `go`, with the callback's query (`code`, `state`, `iss`, or `error`), if the ack came within
 *   the popup's wait: the code crosses only now, sealed. The opener exchanges it, says `done` with the connected
 *   business or the error of the exchange, and the popup closes itself. An ack that came too late gets no `go`:
 *   the popup has exchanged the code itself by then, and says `done` with its outcome instead. So exactly one of
 *   the two pages exchanges the code, however slow the other is.
 */
import { PaykitError, type ErrorCode } from '@paykit/core/browser';
import { ConnectDeniedError } from '../connect/connect-errors.js';
import { describeFailure } from '../http.js';
import { text } from '../messages.js';
import type { ConnectedBusinessAnswer, PaykitErrorDetail } from '../types.js';

/** The `BroadcastChannel` of the connect popups of this origin. */
export const POPUP_CHANNEL = 'paykit:connect-popup';

/** The popup's sessionStorage key of an attempt's secret, before the attempt's `state`. Taken once. */
export const SECRET = 'paykit:connect-secret:';

/** Who sealed a message: the page that opened the popup, or the popup's callback page. */
export type Role = 'opener' | 'popup';

/** One message between the popup and its opener, as it is before it is sealed. */
export type PopupMessage =
  | { type: 'callback' }
  | { type: 'ack' }
  | { type: 'go'; search: string }
  | {
      type: 'done';
      business?: ConnectedBusinessAnswer;
      /** The failure; a denial's with the server's `error_description`, for `paykit-connect-denied`. */
      error?: PaykitErrorDetail & { description?: string };
    };

/** A message on its way: sealed with the attempt's key. */
interface Sealed {
  iv: BufferSource;
  box: ArrayBuffer;
}

const bytes = (words: string) => new TextEncoder().encode(words);

/** The AES-GCM key of an attempt, from its secret (32 random bytes, base64 as sessionStorage keeps it). */
export function keyOf(secret: string): Promise<CryptoKey> {
  return crypto.subtle.importKey(
    'raw',
    Uint8Array.from(atob(secret), (c) => c.charCodeAt(0)),
    'AES-GCM',
    false,
    ['encrypt', 'decrypt'],
  );
}

/** `message`, sealed by `from` with the attempt's `key`. */
export async function seal(key: Promise<CryptoKey>, from: Role, message: PopupMessage): Promise<Sealed> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const box = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: bytes(from) },
    await key,
    bytes(JSON.stringify(message)),
  );
  return { iv, box };
}

/**
 * What `data` says, if `from` sealed it with the attempt's `key`; `undefined` for anything else (another tab's
 * message, one of another attempt, one sent back to its sender, or not a sealed message at all).
 */
export async function unseal(key: Promise<CryptoKey>, from: Role, data: unknown): Promise<PopupMessage | undefined> {
  try {
    const { iv, box } = data as Sealed;
    const open = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: bytes(from) }, await key, box);
    // Opened with the attempt's key: the other page of the attempt wrote it, as one of these messages.
    return JSON.parse(new TextDecoder().decode(open)) as PopupMessage;
  } catch {
    return undefined;
  }
}

/** The error a `done` message carries, as the page that made it threw it (`upstream_error` when it names none). */
export function doneError(done: Extract<PopupMessage, { type: 'done' }>): PaykitError {
  // The other page's PaykitError detail (this origin's own code made it), whose code is an ErrorCode.
  const code = (done.error?.code ?? 'upstream_error') as ErrorCode;
  // A message is what the shopper or merchant reads: never empty.
  const message = done.error?.message || text().connectFailed;
  return code === 'access_denied'
    ? new ConnectDeniedError(done.error?.description, message)
    : new PaykitError(code, message);
}

/** What a `done` message says of a failure: its detail, and a denial's `error_description`. */
export function failureOf(error: unknown): PaykitErrorDetail & { description?: string } {
  const description = error instanceof ConnectDeniedError ? error.description : undefined;
  return { ...describeFailure(error), ...(description === undefined ? {} : { description }) };
}

/** Opens the origin's popup channel, where the browser has one. */
export function popupChannel(): BroadcastChannel | undefined {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(POPUP_CHANNEL) : undefined;
}
