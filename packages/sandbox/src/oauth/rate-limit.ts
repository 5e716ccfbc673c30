/**
 * A per-key sliding window: the token endpoint's 90 requests a minute per client (spec 8).
 */
export class RateLimit {
  readonly #hits = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  /** Counts a request; returns the seconds to wait when it is over the limit, else 0. */
  hit(key: string, now = Date.now()): number {
    // Keys are caller-chosen (any client_id): forget idle ones so that random names cannot grow the map forever.
    if (this.#hits.size > 10_000) this.#forgetIdle(now);
    const hits = (this.#hits.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (hits.length >= this.limit) {
      this.#hits.set(key, hits);
      return Math.max(1, Math.ceil((hits[0]! + this.windowMs - now) / 1000));
    }
    hits.push(now);
    this.#hits.set(key, hits);
    return 0;
  }

  /** Forgets every count (`POST /_sandbox/reset`). */
  reset(): void {
    this.#hits.clear();
  }

  #forgetIdle(now: number): void {
    for (const [key, hits] of this.#hits) if ((hits.at(-1) ?? 0) <= now - this.windowMs) this.#hits.delete(key);
  }
}
