/**
 * The OAuth callback on the platform's return page. The `state` must be one this tab issued (or, for an attempt
 * kept with `storage: 'local'`, any tab of this origin), not yet used and not expired; it is consumed before
 * any network call, and the URL is cleaned, so that a reload, Back or a second mount never sends the code twice.
 * Then the code and its verifier go to the platform's backend, with the `iss` of the callback when the
 * authorization server sent one (RFC 9207): the backend compares it with the issuer it is configured for, so
 * that a response from another server (a mix-up) is refused. A callback whose attempt is unknown or expired can
 * be started again with the same settings ("Connect again").
 *
 * This module is the lazy chunk: whatever only a callback page needs (consuming an attempt, "Connect again")
 * lives here, so that no other page downloads it.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9207
 */
import { PaykitError, parseWebUrl, type OAUTH_CALLBACK_PATH, type OAuthCallbackAnswer } from '@paykit/core/browser';
import { callBackend, repeats, trimSlash } from '../http.js';
import { text } from '../messages.js';
import type { ConnectedBusinessAnswer } from '../types.js';
import {
  ATTEMPT_TTL_MS,
  beginAttempt,
  peekAttempt,
  PREFIX,
  prune,
  read,
  type ConnectAttempt,
} from './connect-attempts.js';
import { handOffCallback, takeSecret, tellOpener } from '../popup/hand-off-callback.js';
import { ConnectAgainError, ConnectDeniedError } from './connect-errors.js';
import { forgetLatest, latestRequest } from './latest-request.js';
import { CALLBACK_PARAMS, HANDLED } from './is-connect-return.js';

// Still exported here, where it was first: `@paykit/elements` users may import them from this module.
export { ConnectAgainError, ConnectDeniedError } from './connect-errors.js';
export { isConnectReturn } from './is-connect-return.js';

/** Options of {@link handleConnectReturn}. */
export interface HandleConnectReturnOptions {
  /** Where the platform's paykit handler is mounted, such as `/paykit`. */
  endpoint: string;
  /**
   * The callback URL. Default: the page's (which is then cleaned with `history.replaceState`); and when the page
   * is the callback of a connect popup, the callback goes to the page that opened the popup (see
   * hand-off-callback.ts), which exchanges it. A callback given here is exchanged here.
   */
  url?: string;
  /**
   * Where the attempt is looked for. Default: this tab's sessionStorage, then the origin's localStorage (where
   * `storage: 'local'` keeps it), so that the callback page needs no setting of its own.
   */
  storage?: Storage;
  fetch?: typeof fetch;
}

/** Callbacks being handled, by state: a second mount while the first runs (React StrictMode) shares its work. */
const inFlight = new Map<string, Promise<ConnectedBusinessAnswer>>();

/** The backend's refusals that are said in this page's words: a replayed code, and a mix-up (RFC 9207). */
const LOCAL_WORDS = /^(code_reused|issuer_mismatch)$/;

/** Handles the callback; resolves with the connected business. */
export async function handleConnectReturn(options: HandleConnectReturnOptions): Promise<ConnectedBusinessAnswer> {
  const url = new URL(options.url ?? location.href);
  const query = url.searchParams;
  if (repeats(query, CALLBACK_PARAMS)) throw new PaykitError('duplicate_parameter', text().connectFailed);
  const storage = options.storage ?? sessionStorage;
  const state = query.get('state');
  if (!state)
    throw query.has('code') || query.has('error') || storage.getItem(HANDLED) !== url.pathname
      ? new PaykitError('state_missing', text().connectFailed)
      : new PaykitError('state_used', text().stateUsed);
  let work = inFlight.get(state);
  if (!work) {
    inFlight.set(state, (work = exchange(options, url, storage, state)));
    // Only while running: afterwards the state is used, and a later mount (a reload) must be told so.
    const done = () => inFlight.delete(state);
    void work.then(done, done);
  }
  return work;
}

/**
 * The callback: handed to the page that opened the popup, when this is the callback page of a connect popup (its
 * opener gave this window the attempt's secret), since that page holds the attempt and the merchant's place. If no
 * page takes it in time, it is handled here, as a redirect's, and the opener hears how it went. Any other page
 * (a redirect's callback, a blocked popup's, a link opened in a new tab) handles it here.
 */
async function exchange(
  options: HandleConnectReturnOptions,
  url: URL,
  storage: Storage,
  state: string,
): Promise<ConnectedBusinessAnswer> {
  const key = options.url === undefined ? takeSecret(state) : undefined;
  if (!key) return exchangeHere(options, url, storage, state);
  const kept = peekAttempt(state);
  const business = await handOffCallback(url, state, key, kept !== undefined);
  if (business) return business;
  // Without the attempt here, this page cannot exchange the code: it says why (the opener never took it).
  if (!kept) return exchangeHere(options, url, storage, state);
  try {
    const connected = await exchangeHere(options, url, storage, state);
    await tellOpener(key, { business: connected });
    return connected;
  } catch (error) {
    await tellOpener(key, { error });
    throw error;
  }
}

/** Consumes the attempt of `state`, cleans the address bar, then sends the code to the backend. */
async function exchangeHere(
  options: HandleConnectReturnOptions,
  url: URL,
  storage: Storage,
  state: string,
): Promise<ConnectedBusinessAnswer> {
  const query = url.searchParams;
  const own = options.url === undefined;
  const attempt = consumeAttempt(options.storage, state);
  if (own) {
    storage.setItem(HANDLED, url.pathname);
    // The code leaves the address bar (and the history, and any later Referer) before it is sent anywhere.
    history.replaceState(history.state, '', `${url.pathname}${url.hash}`);
  }
  const error = query.get('error');
  // The server's description of a denial goes with the error, for the page's `paykit-connect-denied` event.
  if (error === 'access_denied') throw new ConnectDeniedError(query.get('error_description') ?? undefined);
  // The server's error_description is not shown: anyone can put words in a callback URL, and the element's
  // box would lend them the shop's voice. The page reads it from the event of a denial, if it wants it.
  if (error !== null) throw new PaykitError('upstream_error', text().connectFailed);
  const code = query.get('code');
  if (!code) throw new PaykitError('validation_failed', text().connectFailed);
  // Core's path, written out (see create-checkout.ts).
  const path: typeof OAUTH_CALLBACK_PATH = '/oauth/callback';
  const answer = await callBackend(trimSlash(options.endpoint) + path, {
    body: {
      code,
      code_verifier: attempt.codeVerifier,
      redirect_uri: attempt.redirectUri,
      iss: query.get('iss') ?? undefined,
    },
    fetch: options.fetch,
  }).catch((failure: PaykitError) => {
    // The two refusals a person can act on get this page's words (and language), not the backend's.
    throw LOCAL_WORDS.test(failure.code) ? new PaykitError(failure.code, text().connectFailed) : failure;
  });
  // The backend's answer, read defensively: only a business with a name goes on.
  const business = (answer as Partial<OAuthCallbackAnswer>).business;
  if (typeof business?.name !== 'string') throw new PaykitError('upstream_invalid_response', text().failed);
  // Connected: "Connect again" has nothing left to offer, and the request's parameters need not stay around.
  placesOf(options.storage).forEach(forgetLatest);
  return business;
}

/**
 * Takes the attempt of `state` out of the first storage that has it, leaving a tombstone there (in localStorage,
 * for every tab of the origin): it can be taken once. Expired entries of each storage are pruned on the way.
 * Throws `state_unknown` (with `connectAgain` when possible), `state_expired` (likewise) or `state_used`.
 */
export function consumeAttempt(given: Storage | undefined, state: string, now = Date.now()): ConnectAttempt {
  const places = placesOf(given);
  for (const storage of places) {
    const stored = read(storage, PREFIX + state);
    if (!stored) continue;
    if ('used' in stored) throw new PaykitError('state_used', text().stateUsed);
    storage.setItem(PREFIX + state, JSON.stringify({ used: true, createdAt: now }));
    places.forEach((place) => prune(place, now));
    if (now - stored.createdAt > ATTEMPT_TTL_MS) throw again('state_expired', places);
    return stored;
  }
  places.forEach((place) => prune(place, now));
  throw again('state_unknown', places);
}

/** Where a callback's attempt is looked for: the storage given, else sessionStorage, then localStorage if allowed. */
function placesOf(given: Storage | undefined): Storage[] {
  const places = given ? [given] : [sessionStorage];
  if (!given) tryStorage(() => places.push(localStorage));
  return places;
}

/**
 * A refused callback's error, with `connectAgain` when the latest authorization request is in one of `places`
 * (kept where its attempt was: this tab's, or with `storage: 'local'` the origin's).
 */
function again(code: 'state_unknown' | 'state_expired', places: Storage[]): ConnectAgainError {
  for (const place of places) {
    const latest = latestRequest(place);
    // Only an authorization request this origin's own button made can be there; still checked as any URL is.
    const url = latest && parseWebUrl(latest.href);
    if (url)
      return new ConnectAgainError(code, async () => {
        await beginAttempt(url, latest.local ? 'local' : 'session');
        location.assign(url);
      });
  }
  return new ConnectAgainError(code);
}

/** Runs `work` on a storage the browser may refuse (its settings): without it, less is offered. */
function tryStorage(work: () => unknown): void {
  try {
    work();
  } catch {
    // Nothing to do: the callback works without localStorage, only "Connect again" is not offered.
  }
}
