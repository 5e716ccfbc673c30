/**
 * What the connect popup's callback page and the page that opened the popup say to each other. Both are pages of
 * the platform's origin (the `redirect-uri` is on the button's origin), so they speak by `postMessage` to that exact
 * origin (the popup to `window.opener`, the opener back to the popup's window) and, when
 * `Cross-Origin-Opener-Policy` cut `window.opener`, on a `BroadcastChannel` of that origin. Every message names the
 * attempt's `state`, which only the two pages know; anything else is ignored.
 *
 * - popup → opener: `callback`, with the callback's query (`code`, `state`, `iss`, or `error`), as it arrived.
 * - opener → popup: `ack` at once (the opener has the attempt and would take over).
 * - popup → opener: `go`, if the ack came within the popup's wait; then the opener exchanges the code, says `done`
 *   with the connected business or the error of the exchange, and the popup closes itself. An ack that came too
 *   late gets no `go`: the popup has exchanged the code itself by then, and says `done` with its outcome instead.
 *   So exactly one of the two pages exchanges the code, however slow the other is.
 */
import { PaykitError, type ErrorCode } from '@paykit/core/browser';
import { describeFailure } from '../http.js';
import { text } from '../messages.js';
import type { ConnectedBusinessAnswer, PaykitErrorDetail } from '../types.js';

/** The `BroadcastChannel` of the connect popups of this origin. */
export const POPUP_CHANNEL = 'paykit:connect-popup';

/** One message between the popup and its opener. */
export type PopupMessage =
  | { type: 'paykit:connect-callback'; state: string; search: string }
  | { type: 'paykit:connect-ack'; state: string }
  | { type: 'paykit:connect-go'; state: string }
  | {
      type: 'paykit:connect-done';
      state: string;
      business?: ConnectedBusinessAnswer;
      /** The failure; a denial's with the server's `error_description`, for `paykit-connect-denied`. */
      error?: PaykitErrorDetail & { description?: string };
    };

/** `data` as a {@link PopupMessage} of `type` about `state`, or `undefined`. */
export function popupMessage<T extends PopupMessage['type']>(
  data: unknown,
  type: T,
  state?: string,
): Extract<PopupMessage, { type: T }> | undefined {
  // A message of this origin (the callers check it), maybe of another type or attempt: both are checked here, the
  // rest is as this origin's own code posted it.
  const message = data as Partial<PopupMessage> | null;
  return message?.type === type && typeof message.state === 'string' && (state === undefined || message.state === state)
    ? (message as Extract<PopupMessage, { type: T }>)
    : undefined;
}

/** The error a `done` message carries, as the page that made it threw it (`upstream_error` when it names none). */
export function doneError(done: Extract<PopupMessage, { type: 'paykit:connect-done' }>): PaykitError {
  // The other page's PaykitError detail (this origin's own code made it), whose code is an ErrorCode.
  const code = (done.error?.code ?? 'upstream_error') as ErrorCode;
  // A message is what the shopper or merchant reads: never empty.
  return new PaykitError(code, done.error?.message || text().connectFailed, { cause: done.error?.description });
}

/** What a `done` message says of a failure: its detail, and a denial's `error_description` (its cause). */
export function failureOf(error: unknown): PaykitErrorDetail & { description?: string } {
  const description =
    error instanceof PaykitError && error.code === 'access_denied' && typeof error.cause === 'string'
      ? error.cause
      : undefined;
  return { ...describeFailure(error), ...(description === undefined ? {} : { description }) };
}

/** Opens the origin's popup channel, where the browser has one. */
export function popupChannel(): BroadcastChannel | undefined {
  return typeof BroadcastChannel === 'function' ? new BroadcastChannel(POPUP_CHANNEL) : undefined;
}
