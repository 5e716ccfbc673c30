/**
 * The connect attempts of this tab: one sessionStorage entry per `state` (so that two tabs, or two attempts,
 * never share a slot), holding the PKCE verifier. An entry expires after ten minutes and, once its callback is
 * handled, becomes a tombstone so that a reload or a replay is told "already handled" rather than "unknown".
 */
import { PaykitError } from '@paykit/core/browser';
import { text } from '../messages.js';

const PREFIX = 'paykit:connect:';
/** How long a connect attempt may take, from click to callback. */
export const ATTEMPT_TTL_MS = 10 * 60_000;

/** What is kept for one attempt. */
export interface ConnectAttempt {
  codeVerifier: string;
  redirectUri: string;
  createdAt: number;
}

/** An attempt, or the tombstone of a used one, whose `createdAt` is when it was used: both expire alike. */
type Stored = ConnectAttempt | { used: true; createdAt: number };

/** Keeps a new attempt under its state, and forgets expired (or unreadable) ones. */
export function saveAttempt(storage: Storage, state: string, attempt: ConnectAttempt): void {
  for (let i = storage.length - 1; i >= 0; i -= 1) {
    const key = storage.key(i)!;
    if (!key.startsWith(PREFIX)) continue;
    const stored = read(storage, key);
    if (!stored || attempt.createdAt - stored.createdAt > ATTEMPT_TTL_MS) storage.removeItem(key);
  }
  storage.setItem(PREFIX + state, JSON.stringify(attempt));
}

/**
 * Takes the attempt of `state` out, leaving a tombstone: it can be taken once. Throws `state_unknown`,
 * `state_expired` or `state_used`.
 */
export function consumeAttempt(storage: Storage, state: string, now = Date.now()): ConnectAttempt {
  const stored = read(storage, PREFIX + state);
  if (!stored) throw new PaykitError('state_unknown', text().connectFailed);
  if ('used' in stored) throw new PaykitError('state_used', text().stateUsed);
  storage.setItem(PREFIX + state, JSON.stringify({ used: true, createdAt: now }));
  if (now - stored.createdAt > ATTEMPT_TTL_MS) throw new PaykitError('state_expired', text().connectFailed);
  return stored;
}

/** The entry under `key`: `null` when there is none (JSON.parse reads a missing item's `null` as null). */
function read(storage: Storage, key: string): Stored | null | undefined {
  try {
    return JSON.parse(storage.getItem(key)!) as Stored | null;
  } catch {
    return undefined;
  }
}
