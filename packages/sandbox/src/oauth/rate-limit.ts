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
    const hits = (this.#hits.get(key) ?? []).filter((at) => at > now - this.windowMs);
    if (hits.length >= this.limit) {
      this.#hits.set(key, hits);
      return Math.max(1, Math.ceil((hits[0]! + this.windowMs - now) / 1000));
    }
    hits.push(now);
    this.#hits.set(key, hits);
    return 0;
  }

  reset(): void {
    this.#hits.clear();
  }
}
