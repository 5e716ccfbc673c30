/**
 * One `Idempotency-Key` is one payment request: a browser that sends the same click twice (a retry after a
 * dropped connection, a double submit that slipped past the button) gets the first answer again, whichever
 * instance it reaches, and concurrent duplicates share one upstream call.
 *
 * A key is the caller's, not the world's: it is stored under a digest of (scope, key), where the scope says who
 * is asking (by default the request's cookies and authorization, see {@link defaultIdempotencyScope}). Another
 * caller sending the same key gets its own outcome, never the first caller's, and cannot even learn that the
 * key was used: no conflict, no waiting, just a different key.
 */
import { PaykitError } from '@paykit/core';
import type { HeaderReader } from './exchange.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { Logger } from './logger.js';

const KEY = /^[A-Za-z0-9_-]{8,128}$/;

/**
 * `node:crypto`'s `createHash` where the runtime hands out built-in modules (Node 20.16+, Bun, Deno), without
 * importing it, so that the handler stays free of Node imports for Workers. The same SHA-256 as Web Crypto's, in
 * about 2 µs instead of 20 to 50 (a call into the thread pool and Web IDL checks, each time): a keyed checkout
 * makes three. Elsewhere Web Crypto does it.
 */
const createHash = (() => {
  try {
    const runtime = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process;
    // getBuiltinModule answers unknown (Node 22.3+ only, read off an optional process): the one function used.
    const builtin = runtime?.getBuiltinModule?.('node:crypto') as
      { createHash?: (algorithm: string) => { update(text: string): { digest(encoding: 'hex'): string } } } | undefined;
    return typeof builtin?.createHash === 'function' ? builtin.createHash : undefined;
  } catch {
    return undefined;
  }
})();

/** How long claims and outcomes live; see {@link IdempotencyStore}. */
export interface IdempotencyPolicy {
  /** How long a claim holds (and how long a duplicate waits for it). Default 30 s: longer than a create. */
  leaseMs: number;
  /** How long an outcome is answered again. Default 10 minutes. */
  ttlMs: number;
}

/** The defaults of {@link IdempotencyPolicy}. */
export const DEFAULT_IDEMPOTENCY_POLICY: IdempotencyPolicy = { leaseMs: 30_000, ttlMs: 10 * 60_000 };

/**
 * The default scope of a request: a SHA-256 (hex) of its `Cookie` and `Authorization` headers, so that two
 * sessions never share a key. A retry whose cookies changed in between counts as another caller.
 */
export async function defaultIdempotencyScope(request: { readonly headers: HeaderReader }): Promise<string> {
  return digest(JSON.stringify([request.headers.get('cookie') ?? '', request.headers.get('authorization') ?? '']));
}

/**
 * Runs `work` once per (scope, key). The same key with another body (`fingerprint`) from the same scope is a
 * client bug: `conflict`. A failed outcome is released, so that the shopper can try again with the same key.
 * Without a key, `work` simply runs. The store sees neither the key nor the scope, only their digest.
 */
export async function runIdempotently<T>(input: {
  store: IdempotencyStore;
  key: string | null;
  /** Who is asking; keys of different scopes never meet. Omitted: the key is stored as it is (one caller). */
  scope?: string;
  fingerprint: string;
  work: () => Promise<T>;
  policy: IdempotencyPolicy;
  logger: Logger;
}): Promise<T> {
  const { store, policy } = input;
  if (input.key === null) return input.work();
  if (!KEY.test(input.key)) {
    throw new PaykitError('validation_failed', 'Idempotency-Key must be 8 to 128 letters, digits, "-" or "_"', {
      errors: [{ path: 'Idempotency-Key', message: 'must be 8 to 128 letters, digits, "-" or "_"' }],
    });
  }
  const key =
    input.scope === undefined ? input.key : `scoped:${await digest(JSON.stringify([input.scope, input.key]))}`;
  const fingerprint = await digest(input.fingerprint);
  const deadline = Date.now() + policy.leaseMs;
  for (let pause = 20; ; pause = Math.min(pause * 1.5, 250)) {
    const claim = await store.claim(key, fingerprint, policy);
    if (claim.status === 'claimed') {
      let result: T;
      try {
        result = await input.work();
      } catch (error) {
        // Released, so that the shopper's retry of this key is not kept waiting for the lease to lapse.
        await persistently(
          () => store.release(key, claim.claimId),
          policy,
          input.logger,
          'release an idempotency claim',
        );
        throw error;
      }
      // The payment request exists by now: a store that just went away must not cost the shopper its answer,
      // and the outcome must land before the lease lapses (after that a retry of the click could create again).
      await persistently(
        () => store.complete(key, claim.claimId, result),
        policy,
        input.logger,
        'store the outcome of an idempotency key',
      );
      return result;
    }
    if (claim.fingerprint !== fingerprint) {
      throw new PaykitError('conflict', 'This Idempotency-Key was already used for a different request');
    }
    // The outcome stored for this key and this fingerprint: the same request's, so a T.
    if (claim.status === 'completed') return claim.result as T;
    if (Date.now() >= deadline) {
      throw new PaykitError('conflict', 'A request with this Idempotency-Key is still being processed; try again', {
        retryAfterSeconds: 1,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/**
 * Does a store write now, or, when the store fails, again in the background (backing off up to 2 s) until the
 * claim's lease would lapse: the caller's answer never waits for a store that is away.
 */
async function persistently(
  write: () => Promise<void>,
  policy: IdempotencyPolicy,
  logger: Logger,
  what: string,
): Promise<void> {
  const giveUpAt = Date.now() + policy.leaseMs;
  const retry = (pause: number): void => {
    if (Date.now() + pause >= giveUpAt) {
      logger.error(`paykit: could not ${what} before its lease lapsed`);
      return;
    }
    setTimeout(() => {
      write().catch(() => retry(Math.min(pause * 2, 2_000)));
    }, pause).unref?.();
  };
  try {
    await write();
  } catch (error) {
    logger.warn(`paykit: could not ${what} now; retrying in the background`, error);
    retry(100);
  }
}

/** SHA-256 of a text, hex: what is stored to recognise a request or a caller, never the text itself. */
async function digest(text: string): Promise<string> {
  if (createHash) return createHash('sha256').update(text).digest('hex');
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(hash), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
