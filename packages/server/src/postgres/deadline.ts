/**
 * The deadline of one store operation: one clock for everything the operation waits for (a connection of the
 * pool, a new connection, each statement of a transaction), so that the sum is bounded, not each step. One timer
 * per operation, however many steps it races: the stores' hot path makes thousands of these a second.
 */
import { StoreDeadlineError } from './store-errors.js';

const ignore = (): void => undefined;

/** A step waiting under the deadline. */
interface Waiter {
  waitingFor: StoreDeadlineError['waitingFor'];
  fail(error: StoreDeadlineError): void;
}

/** When one operation's time is up. Call {@link Deadline.end} once the operation is over. */
export class Deadline {
  /** `Date.now()` at which the time is up. */
  readonly at: number;
  readonly timeoutMs: number;
  readonly #waiting = new Set<Waiter>();
  #timer: ReturnType<typeof setTimeout> | undefined;
  #expired = false;

  constructor(timeoutMs: number) {
    this.timeoutMs = timeoutMs;
    this.at = Date.now() + timeoutMs;
  }

  /** Milliseconds left (0 or less: the time is up). */
  left(): number {
    return this.at - Date.now();
  }

  /**
   * Settles as `work` does, or rejects with a {@link StoreDeadlineError} when the time is up first; `onExpiry`
   * runs then (to discard the connection `work` is waiting on). A `work` that settles later is ignored, its
   * rejection included.
   */
  race<T>(work: Promise<T>, waitingFor: StoreDeadlineError['waitingFor'], onExpiry?: () => void): Promise<T> {
    if (this.#expired || this.left() <= 0) {
      work.catch(ignore);
      onExpiry?.();
      return Promise.reject(new StoreDeadlineError(waitingFor, this.timeoutMs));
    }
    // Not unref'd: a caller awaiting a store call is kept waiting for the deadline, never dropped by an exit.
    this.#timer ??= setTimeout(() => this.#expire(), this.left());
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = {
        waitingFor,
        fail: (error) => {
          work.catch(ignore);
          onExpiry?.();
          reject(error);
        },
      };
      this.#waiting.add(waiter);
      work.then(
        (value) => {
          this.#waiting.delete(waiter);
          resolve(value);
        },
        (error: unknown) => {
          this.#waiting.delete(waiter);
          reject(error);
        },
      );
    });
  }

  /** The operation is over: its timer goes. */
  end(): void {
    clearTimeout(this.#timer);
    this.#waiting.clear();
  }

  #expire(): void {
    this.#expired = true;
    const waiting = [...this.#waiting];
    this.#waiting.clear();
    for (const waiter of waiting) waiter.fail(new StoreDeadlineError(waiter.waitingFor, this.timeoutMs));
  }
}
