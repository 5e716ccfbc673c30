/**
 * The token endpoint's request budget: 90 requests a minute per client (spec 8). Waiting here is cheaper than
 * a 429, and a 429's `Retry-After` must pause every caller. With several instances the budget must be shared,
 * or N instances send N times the limit: `createPostgresStores` from `@paykit/server/postgres` gives one.
 */
import { sleep } from '../sleep.js';

/** A request budget shared by every caller of one client's token endpoint. */
export interface TokenBudget {
  /**
   * Resolves when one more token request of `clientId` may start, and counts it. Callers beyond the budget
   * wait (in order, as far as the implementation can tell). Rejects when `signal` aborts.
   */
  acquire(clientId: string, signal?: AbortSignal): Promise<void>;
  /** Makes every caller of `clientId` wait `ms` before its next request (a 429 with `Retry-After`). */
  pause(clientId: string, ms: number): Promise<void>;
}

/** Options of {@link MemoryTokenBudget}. */
export interface TokenBudgetOptions {
  /** Requests a minute. Default 90 (spec 8). */
  perMinute?: number;
}

/** A {@link TokenBudget} in this process's memory: a sliding window of the last minute's starts, per client. */
export class MemoryTokenBudget implements TokenBudget {
  readonly #limit: number;
  readonly #windows = new Map<string, { starts: number[]; pausedUntil: number; queue: Promise<void> }>();

  constructor(options: TokenBudgetOptions = {}) {
    this.#limit = options.perMinute ?? 90;
    if (!(Number.isInteger(this.#limit) && this.#limit > 0)) {
      throw new RangeError(`"perMinute" must be a positive whole number, not ${String(options.perMinute)}`);
    }
  }

  acquire(clientId: string, signal?: AbortSignal): Promise<void> {
    const window = this.#window(clientId);
    const turn = window.queue.then(() => this.#wait(window, signal));
    window.queue = turn.catch(() => undefined);
    return turn;
  }

  async pause(clientId: string, ms: number): Promise<void> {
    const window = this.#window(clientId);
    window.pausedUntil = Math.max(window.pausedUntil, Date.now() + ms);
  }

  #window(clientId: string) {
    let window = this.#windows.get(clientId);
    if (!window) {
      window = { starts: [], pausedUntil: 0, queue: Promise.resolve() };
      this.#windows.set(clientId, window);
    }
    return window;
  }

  async #wait(window: { starts: number[]; pausedUntil: number }, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const waitMs = waitBeforeStart(window.starts, window.pausedUntil, this.#limit, Date.now());
      if (waitMs === 0) {
        window.starts.push(Date.now());
        return;
      }
      await sleep(waitMs, signal);
    }
  }
}

/** The sliding window's rule: 0 when a request may start at `now`, else how long until one may. */
function waitBeforeStart(starts: number[], pausedUntil: number, limit: number, now: number): number {
  while (starts.length > 0 && starts[0]! <= now - 60_000) starts.shift();
  if (pausedUntil > now) return pausedUntil - now;
  return starts.length < limit ? 0 : starts[0]! + 60_000 - now;
}
