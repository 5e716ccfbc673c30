/**
 * Keeps a client under a request rate: at most `limit` starts in any `windowMs`. The token endpoint allows
 * 90 requests a minute per client (spec 8); waiting here is cheaper than a 429 and its `Retry-After`.
 */
export class SlidingWindowLimiter {
  readonly #starts: number[] = [];
  #queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  /** Resolves when one more request may start now, and counts it. Callers are served in order. */
  acquire(): Promise<void> {
    const turn = this.#queue.then(() => this.#wait());
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  /** Makes every next request wait `ms` (after a 429 with `Retry-After`). */
  pause(ms: number): void {
    const until = Date.now() + ms;
    // Fill the window so that nothing starts before `until`.
    this.#starts.length = 0;
    for (let i = 0; i < this.limit; i += 1) this.#starts.push(until - this.windowMs);
  }

  async #wait(): Promise<void> {
    for (;;) {
      const now = Date.now();
      while (this.#starts.length > 0 && this.#starts[0]! <= now - this.windowMs) this.#starts.shift();
      if (this.#starts.length < this.limit) {
        this.#starts.push(now);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, this.#starts[0]! + this.windowMs - now));
    }
  }
}
