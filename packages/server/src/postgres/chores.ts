/**
 * Opportunistic clean-up: now and then (at most once a minute per kind), a store that is being used anyway
 * deletes a bounded batch of expired rows in the background. No timer keeps a process alive for it, a failed
 * sweep is simply tried again later, and `close()` waits for a sweep under way.
 */

/** Runs each kind of sweep at most once per `intervalMs`, in the background. */
export class Chores {
  readonly #intervalMs: number;
  readonly #last = new Map<string, number>();
  readonly #running = new Set<Promise<unknown>>();

  constructor(intervalMs = 60_000) {
    this.#intervalMs = intervalMs;
  }

  /** Starts `sweep` unless a sweep of this kind ran within the interval. */
  now(kind: string, sweep: () => Promise<unknown>): void {
    const now = Date.now();
    if (now - (this.#last.get(kind) ?? -Infinity) < this.#intervalMs) return;
    this.#last.set(kind, now);
    const running: Promise<unknown> = sweep()
      .catch(() => undefined)
      .finally(() => this.#running.delete(running));
    this.#running.add(running);
  }

  /** Resolves when no sweep is under way. */
  async settle(): Promise<void> {
    await Promise.all([...this.#running]);
  }
}
