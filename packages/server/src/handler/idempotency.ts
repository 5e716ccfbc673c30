/**
 * One `Idempotency-Key` is one payment request: a browser that sends the same click twice (a retry after a
 * dropped connection, a double submit that slipped past the button) gets the first answer again, and
 * concurrent duplicates share one upstream call.
 */
import { PaykitError } from '@paykit/core';

const KEY = /^[A-Za-z0-9_-]{8,128}$/;

/** Remembers the outcome of each key for `ttlMs`, at most `maxEntries` keys (oldest forgotten first). */
export class IdempotencyCache<T> {
  readonly #entries = new Map<string, { fingerprint: string; result: Promise<T>; expires: number }>();

  constructor(
    private readonly ttlMs = 10 * 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  /**
   * Runs `work` once per key. The same key with another body (`fingerprint`) is a client bug: `conflict`.
   * A failed outcome is forgotten, so that the shopper can try again with the same key.
   */
  run(key: string | null, fingerprint: string, work: () => Promise<T>): Promise<T> {
    if (key === null) return work();
    if (!KEY.test(key)) {
      throw new PaykitError('validation_failed', 'Idempotency-Key must be 8 to 128 letters, digits, "-" or "_"', {
        errors: [{ path: 'Idempotency-Key', message: 'must be 8 to 128 letters, digits, "-" or "_"' }],
      });
    }
    const now = Date.now();
    const existing = this.#entries.get(key);
    if (existing && existing.expires > now) {
      if (existing.fingerprint !== fingerprint) {
        throw new PaykitError('conflict', 'This Idempotency-Key was already used for a different request');
      }
      return existing.result;
    }
    const result = work();
    this.#entries.delete(key);
    this.#entries.set(key, { fingerprint, result, expires: now + this.ttlMs });
    result.catch(() => {
      if (this.#entries.get(key)?.result === result) this.#entries.delete(key);
    });
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return result;
  }
}
