/**
 * Claims whose statement went out but whose answer never came (the deadline passed, the connection was lost).
 * The caller was told `store_unavailable`, yet the server may carry the statement out all the same: a frozen
 * server (SIGSTOP, a stalled VM) runs what it had received as soon as it resumes, after the stores gave up.
 * Such a claim would hold its key, fact or merchant for its whole lease (30 s for an idempotency key), and the
 * shopper's retry would wait for it. So the store that made it gives it back: its `retract` (a `DELETE` or
 * `UPDATE` guarded by the claim's own random id, harmless whoever holds the key now) is tried every
 * `intervalMs` until it removed the claim, the database answered {@link EMPTY_ANSWERS} times that there was
 * nothing to remove, or the claim's lease has lapsed anyway.
 *
 * Why a few empty answers end it: a statement the server had received runs the moment the server resumes,
 * ahead of a retract that starts on a timer afterwards; and a statement whose connection was cut (a restart)
 * never runs. Asking three times, a second apart, covers the first case with room to spare, and keeps a
 * restart under load (many cut statements) from becoming a stream of retracts for the whole lease.
 */

/** Answers "nothing there" after which a claim is taken for one that never landed. */
const EMPTY_ANSWERS = 3;

interface Entry {
  retract: () => Promise<boolean>;
  /** `Date.now()` after which the claim has lapsed by itself. */
  until: number;
  running: boolean;
  /** Times the database answered that there was nothing to remove. */
  empty: number;
}

/** Gives back, in the background, claims that may have landed after their caller gave up. */
export class AbandonedClaims {
  readonly #intervalMs: number;
  readonly #max: number;
  readonly #entries = new Set<Entry>();
  readonly #running = new Set<Promise<void>>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  /** `max` bounds the claims remembered: past it a claim is left to lapse by itself. */
  constructor({ intervalMs = 1_000, max = 1_000 } = {}) {
    this.#intervalMs = intervalMs;
    this.#max = max;
  }

  /** Claims waiting to be given back. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Remembers a claim to give back: `retract` resolves true when it removed it, false when nothing was there.
   * It is tried from `intervalMs` from now, until it removes the claim, finds nothing three times, or `lapseMs`
   * have passed.
   */
  add(retract: () => Promise<boolean>, lapseMs: number): void {
    if (this.#closed || this.#entries.size >= this.#max) return;
    this.#entries.add({ retract, until: Date.now() + lapseMs, running: false, empty: 0 });
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#tick(), this.#intervalMs);
      // Unref'd: claims left when a process exits lapse by themselves.
      this.#timer.unref?.();
    }
  }

  /** Stops trying, and waits for the tries under way. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    this.#entries.clear();
    await Promise.all([...this.#running]);
  }

  #tick(): void {
    const now = Date.now();
    for (const entry of this.#entries) {
      if (entry.until <= now) {
        this.#entries.delete(entry);
        continue;
      }
      if (entry.running) continue;
      entry.running = true;
      const attempt: Promise<void> = entry
        .retract()
        .then(
          (removed) => {
            entry.empty += removed ? 0 : 1;
            if (removed || entry.empty >= EMPTY_ANSWERS) this.#entries.delete(entry);
          },
          () => undefined, // the database is still away: the next tick tries again
        )
        .finally(() => {
          entry.running = false;
          this.#running.delete(attempt);
        });
      this.#running.add(attempt);
    }
    if (this.#entries.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }
}
