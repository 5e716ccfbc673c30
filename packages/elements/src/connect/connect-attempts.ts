/**
 * The connect attempts: one storage entry per `state` (so that two tabs, or two attempts, never share a slot),
 * holding the PKCE verifier. By default they live in this tab's sessionStorage; `storage: 'local'` keeps them in
 * the origin's localStorage, so that a callback in another tab of the same browser completes. Either way an
 * entry expires after ten minutes and, once its callback is handled, becomes a tombstone so that a reload or a
 * replay is told "already handled" rather than "unknown" (in localStorage, for every tab at once).
 *
 * The authorization request of the latest attempt is also kept, in the same storage as the attempt
 * (latest-request.ts), so that a callback page that cannot find its attempt can offer "Connect again".
 */
import { rememberLatest } from './latest-request.js';
import { codeChallengeOf, randomToken } from './pkce.js';

export const PREFIX = 'paykit:connect:';
/** How long a connect attempt may take, from click to callback. */
export const ATTEMPT_TTL_MS = 10 * 60_000;

/**
 * Where a connect attempt is kept: this tab's `sessionStorage` (the default, `'session'`), the origin's
 * `localStorage` (`'local'`, for a callback that may land in another tab), or a `Storage` of your own.
 */
export type AttemptStorage = 'local' | 'session' | Storage;

/** What is kept for one attempt. */
export interface ConnectAttempt {
  codeVerifier: string;
  redirectUri: string;
  createdAt: number;
}

/** An attempt, or the tombstone of a used one, whose `createdAt` is when it was used: both expire alike. */
export type Stored = ConnectAttempt | { used: true; createdAt: number };

/**
 * Adds a fresh `state` and S256 challenge to the authorization request `url` (which has every other parameter),
 * keeps the attempt, and remembers the request as the latest, both in `storage`. Resolves with the state.
 */
export async function beginAttempt(url: URL, storage?: AttemptStorage): Promise<string> {
  const state = randomToken();
  const codeVerifier = randomToken();
  const query = url.searchParams;
  query.set('state', state);
  query.set('code_challenge', await codeChallengeOf(codeVerifier));
  query.set('code_challenge_method', 'S256');
  const place = storageOf(storage);
  saveAttempt(place, state, { codeVerifier, redirectUri: query.get('redirect_uri')!, createdAt: Date.now() });
  rememberLatest(place, url.href, storage === 'local');
  return state;
}

/** The `Storage` an {@link AttemptStorage} names. */
export function storageOf(storage: AttemptStorage | undefined): Storage {
  return storage === 'local' ? localStorage : typeof storage === 'object' ? storage : sessionStorage;
}

/**
 * Leaves a tombstone for the attempt of `state` in `storage`, if its verifier is there: another page used it (the
 * connect popup and its opener each hold a copy, and only one exchanges the code), and a verifier is kept no longer
 * than its code needs it.
 */
export function retire(storage: AttemptStorage | undefined, state: string): void {
  try {
    const place = storageOf(storage);
    const stored = read(place, PREFIX + state);
    if (stored && !('used' in stored))
      place.setItem(PREFIX + state, JSON.stringify({ used: true, createdAt: Date.now() }));
  } catch {
    // A storage the browser refuses holds no verifier.
  }
}

/** The attempt of `state` as this tab sees it (sessionStorage, then localStorage), without using it. */
export function peekAttempt(state: string): Stored | undefined {
  for (const place of ['sessionStorage', 'localStorage'] as const) {
    try {
      const stored = read(globalThis[place], PREFIX + state);
      if (stored) return stored;
    } catch {
      // That storage is refused by the browser: the other may have it.
    }
  }
  return undefined;
}

/** Keeps a new attempt under its state, and forgets expired (or unreadable) ones. */
export function saveAttempt(storage: Storage, state: string, attempt: ConnectAttempt): void {
  prune(storage, attempt.createdAt);
  storage.setItem(PREFIX + state, JSON.stringify(attempt));
}

/** Forgets the attempts and tombstones of `storage` that expired by `now`, and unreadable ones. */
export function prune(storage: Storage, now: number): void {
  for (let i = storage.length - 1; i >= 0; i -= 1) {
    const key = storage.key(i)!;
    if (!key.startsWith(PREFIX)) continue;
    const stored = read(storage, key);
    if (!stored || now - stored.createdAt > ATTEMPT_TTL_MS) storage.removeItem(key);
  }
}

/** The entry under `key`: `null` when there is none (JSON.parse reads a missing item's `null` as null). */
export function read(storage: Storage, key: string): Stored | null | undefined {
  try {
    // This module's own entries (the origin's storage; prune and the TTL read createdAt only).
    return JSON.parse(storage.getItem(key)!) as Stored | null;
  } catch {
    return undefined;
  }
}
