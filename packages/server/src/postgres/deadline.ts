/**
 * The deadline of one store operation: one clock for everything the operation waits for (a connection of the
 * pool, a new connection, each statement of a transaction), so that the sum is bounded, not each step.
 */
import { StoreDeadlineError } from './store-errors.js';

const ignore = (): void => undefined;

/** When one operation's time is up. */
export class Deadline {
  /** `Date.now()` at which the time is up. */
  readonly at: number;
  readonly timeoutMs: number;

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
    const left = this.left();
    if (left <= 0) {
      work.catch(ignore);
      onExpiry?.();
      return Promise.reject(new StoreDeadlineError(waitingFor, this.timeoutMs));
    }
    return new Promise<T>((resolve, reject) => {
      // Not unref'd: a caller awaiting a store call is kept waiting for the deadline, never dropped by an exit.
      const timer = setTimeout(() => {
        work.catch(ignore);
        onExpiry?.();
        reject(new StoreDeadlineError(waitingFor, this.timeoutMs));
      }, left);
      work.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }
}
