/**
 * A circuit breaker in front of the database: while it does not answer, paykit says so at once instead of
 * making every shopper wait for the deadline.
 *
 * Closed (the normal state), every call goes to the database. After `threshold` operations in a row that ended
 * without a word from the database (the deadline passed, the connection was refused or lost), it opens: every
 * call then fails at once with `store_unavailable`, and a probe (`SELECT 1`, under the same deadline) goes out
 * every `probeMs` in the background until one succeeds, which closes it. No shopper's request is ever the probe,
 * so none waits for the deadline while the breaker is open.
 *
 * What does not count as silence: a success, an SQL error, and the server's own time limits
 * (`statement_timeout`, `lock_timeout`): a locked table or a slow query says the database is there, and only
 * the calls that need that table should fail, each at its deadline.
 */

/** Options of {@link CircuitBreaker}. */
export interface CircuitBreakerOptions {
  /** Silent operations in a row that open the breaker. */
  threshold: number;
  /** How often a probe goes out while the breaker is open, in ms. */
  probeMs: number;
  /** Resolves when the database answered; rejects when it did not. */
  probe(): Promise<unknown>;
}

/** Opens after the database was silent a few times in a row; closes when a background probe succeeds. */
export class CircuitBreaker {
  readonly #options: CircuitBreakerOptions;
  #silentInARow = 0;
  /** `Date.now()` when it opened; undefined while closed. */
  #openSince: number | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #probing: Promise<void> | undefined;
  #closed = false;

  constructor(options: CircuitBreakerOptions) {
    this.#options = options;
  }

  /** True while calls fail at once. */
  get isOpen(): boolean {
    return this.#openSince !== undefined;
  }

  /** Why a call was refused, as the cause of its `store_unavailable`; undefined while the breaker is closed. */
  refusal(): Error | undefined {
    if (this.#openSince === undefined) return undefined;
    return new Error(
      `The database has not answered since ${new Date(this.#openSince).toISOString()} (${this.#options.threshold} ` +
        `operations in a row): answering at once until a probe, every ${this.#options.probeMs} ms, succeeds`,
    );
  }

  /** An operation got an answer from the database (a result, or an error the server sent). */
  answered(): void {
    this.#silentInARow = 0;
  }

  /** An operation ended without a word from the database. */
  silent(): void {
    this.#silentInARow += 1;
    if (this.#openSince === undefined && this.#silentInARow >= this.#options.threshold && !this.#closed) {
      this.#openSince = Date.now();
      this.#schedule();
    }
  }

  /** Stops probing (the stores are closing); waits for a probe under way. */
  async close(): Promise<void> {
    this.#closed = true;
    clearTimeout(this.#timer);
    await this.#probing;
  }

  #schedule(): void {
    // Unref'd: an open breaker must not keep a process alive that has nothing else to do.
    this.#timer = setTimeout(() => {
      this.#probing = this.#options.probe().then(
        () => {
          this.#openSince = undefined;
          this.#silentInARow = 0;
          this.#probing = undefined;
        },
        () => {
          this.#probing = undefined;
          if (!this.#closed) this.#schedule();
        },
      );
    }, this.#options.probeMs);
    this.#timer.unref?.();
  }
}
