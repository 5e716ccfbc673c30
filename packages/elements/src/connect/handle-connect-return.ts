/**
 * The OAuth callback on the platform's return page. The `state` must be one this tab issued, not yet used and
 * not expired; it is consumed before any network call, and the URL is cleaned, so that a reload, Back or a
 * second mount never sends the code twice. Then the code and its verifier go to the platform's backend.
 */
import { PaykitError } from '@paykit/core/browser';
import { trimSlash } from '../checkout/start-checkout.js';
import { callBackend } from '../http.js';
import { text } from '../messages.js';
import type { ConnectedBusiness } from '../types.js';
import { consumeAttempt } from './connect-attempts.js';

/** Options of {@link handleConnectReturn}. */
export interface HandleConnectReturnOptions {
  /** Where the platform's paykit handler is mounted, such as `/paykit`. */
  endpoint: string;
  /** The callback URL. Default: the page's (which is then cleaned with `history.replaceState`). */
  url?: string;
  storage?: Storage;
  fetch?: typeof fetch;
}

/** Callbacks being handled, by state: a second mount while the first runs (React StrictMode) shares its work. */
const inFlight = new Map<string, Promise<ConnectedBusiness>>();

/** Remembers the path of the last handled callback, whose URL was cleaned: a reload there is "already handled". */
const HANDLED = 'paykit:connect-handled';

/**
 * True when `url` is an OAuth callback (`code`, `error` or `state` in its query), or the cleaned URL of a
 * callback this tab already handled.
 */
export function isConnectReturn(url: string, storage: Storage = sessionStorage): boolean {
  const parsed = new URL(url);
  const query = parsed.searchParams;
  if (query.has('code') || query.has('error') || query.has('state')) return true;
  return parsed.search === '' && storage.getItem(HANDLED) === parsed.pathname;
}

/** Handles the callback; resolves with the connected business. */
export function handleConnectReturn(options: HandleConnectReturnOptions): Promise<ConnectedBusiness> {
  const ownUrl = options.url === undefined;
  const url = new URL(options.url ?? location.href);
  const query = url.searchParams;
  for (const name of ['code', 'state', 'error']) {
    if (query.getAll(name).length > 1)
      return Promise.reject(new PaykitError('duplicate_parameter', text().stateUnknown));
  }
  const storage = options.storage ?? sessionStorage;
  const state = query.get('state');
  if (!state) {
    const reloaded = !query.has('code') && !query.has('error') && storage.getItem(HANDLED) === url.pathname;
    return Promise.reject(
      reloaded
        ? new PaykitError('state_used', text().stateUsed)
        : new PaykitError('state_missing', text().stateMissing),
    );
  }
  const running = inFlight.get(state);
  if (running) return running;

  const work = (async () => {
    const attempt = consumeAttempt(storage, state);
    const error = query.get('error');
    const code = query.get('code');
    storage.setItem(HANDLED, url.pathname);
    // The code leaves the address bar (and the history, and any later Referer) before it is sent anywhere.
    if (ownUrl) history.replaceState(history.state, '', `${url.pathname}${url.hash}`);
    if (error !== null) {
      const detail = query.get('error_description');
      throw new PaykitError(
        error === 'access_denied' ? 'access_denied' : 'upstream_error',
        error === 'access_denied' ? text().connectCancelled : `${text().connectFailed}${detail ? ` (${detail})` : ''}`,
      );
    }
    if (!code) throw new PaykitError('validation_failed', text().stateMissing);
    const answer = await callBackend(`${trimSlash(options.endpoint)}/oauth/callback`, {
      method: 'POST',
      body: { code, code_verifier: attempt.codeVerifier, redirect_uri: attempt.redirectUri },
      fetch: options.fetch,
    });
    const business = answer.business as ConnectedBusiness | undefined;
    if (!business || typeof business.name !== 'string')
      throw new PaykitError('upstream_invalid_response', text().invalidAnswer);
    return business;
  })();
  inFlight.set(state, work);
  // Only while running: afterwards the state is used, and a later mount (a reload) must be told so.
  void work.then(
    () => inFlight.delete(state),
    () => inFlight.delete(state),
  );
  return work;
}
