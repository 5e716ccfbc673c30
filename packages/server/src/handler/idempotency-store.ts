/**
 * Where the outcome of each `Idempotency-Key` is kept. A click retried on another instance (a dropped
 * connection, a load balancer choosing again) must get the payment request of the first try, so with more
 * than one instance the store must be shared: `createPostgresStores` from `@paykit/server/postgres` gives one.
 */

/** What {@link IdempotencyStore.claim} found. */
export type IdempotencyClaim =
  /** The key is yours: do the work, then {@link IdempotencyStore.complete} or {@link IdempotencyStore.release}. */
  | { status: 'claimed'; claimId: string }
  /** The work was done: `result` is its stored outcome. */
  | { status: 'completed'; fingerprint: string; result: unknown }
  /** Another caller (maybe another instance) holds a live claim: wait and ask again. */
  | { status: 'in_progress'; fingerprint: string };

/** How long claims and outcomes live. */
export interface IdempotencyClaimOptions {
  /**
   * How long a claim holds before it may be claimed again. A holder that died (a killed process) must not
   * wedge the key forever, so this outlives the work it guards (the merchant's hook and the API's create).
   */
  leaseMs: number;
  /** How long a completed outcome is kept and answered again. */
  ttlMs: number;
}

/**
 * Claims and outcomes of idempotency keys. Implementations must be atomic: two concurrent claims of one key
 * (from any instances) cannot both get `claimed` while the first claim's lease is live.
 */
export interface IdempotencyStore {
  /**
   * Claims `key` for a request with this `fingerprint` (a digest of its body), or reports the claim or
   * outcome already there. An outcome past its `ttlMs`, or a claim past its `leaseMs`, is as if absent.
   */
  claim(key: string, fingerprint: string, options: IdempotencyClaimOptions): Promise<IdempotencyClaim>;
  /** Stores the outcome of a claim (JSON-serialisable) and ends the claim. Does nothing if the claim was lost. */
  complete(key: string, claimId: string, result: unknown): Promise<void>;
  /** Gives a claim back after a failure, so that the same key can be tried again. */
  release(key: string, claimId: string): Promise<void>;
}

type Entry =
  | { state: 'claimed'; claimId: string; fingerprint: string; until: number; ttlMs: number }
  | { state: 'completed'; fingerprint: string; result: unknown; until: number };

/** An {@link IdempotencyStore} in this process's memory: one instance only. Keeps at most `maxEntries` keys. */
export class MemoryIdempotencyStore implements IdempotencyStore {
  readonly #entries = new Map<string, Entry>();
  #claims = 0;

  constructor(private readonly maxEntries = 10_000) {}

  async claim(key: string, fingerprint: string, options: IdempotencyClaimOptions): Promise<IdempotencyClaim> {
    const now = Date.now();
    const entry = this.#entries.get(key);
    if (entry && entry.until > now) {
      return entry.state === 'completed'
        ? { status: 'completed', fingerprint: entry.fingerprint, result: structuredClone(entry.result) }
        : { status: 'in_progress', fingerprint: entry.fingerprint };
    }
    this.#claims += 1;
    const claimId = String(this.#claims);
    this.#entries.delete(key);
    this.#entries.set(key, {
      state: 'claimed',
      claimId,
      fingerprint,
      until: now + options.leaseMs,
      ttlMs: options.ttlMs,
    });
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
    return { status: 'claimed', claimId };
  }

  async complete(key: string, claimId: string, result: unknown): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry?.state !== 'claimed' || entry.claimId !== claimId) return;
    this.#entries.set(key, {
      state: 'completed',
      fingerprint: entry.fingerprint,
      result: structuredClone(result),
      until: Date.now() + entry.ttlMs,
    });
  }

  async release(key: string, claimId: string): Promise<void> {
    const entry = this.#entries.get(key);
    if (entry?.state === 'claimed' && entry.claimId === claimId) this.#entries.delete(key);
  }
}
