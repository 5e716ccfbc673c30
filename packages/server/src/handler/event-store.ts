/**
 * Which webhook events were already acted on. Deliveries repeat (retries, replays, the API's own
 * at-least-once delivery); the merchant's hook must run once per event.
 */

/** Claims on event ids. Implement it over your database to de-duplicate across processes and restarts. */
export interface EventStore {
  /**
   * Claims an event for processing. Returns `false` when it was already processed or is being processed
   * now. Must be atomic: two concurrent claims of one id cannot both get `true`.
   */
  claim(eventId: string): boolean | Promise<boolean>;
  /** Marks a claimed event as done for good. */
  complete(eventId: string): void | Promise<void>;
  /** Gives a claim back after a failure, so that a redelivery is processed. */
  release(eventId: string): void | Promise<void>;
}

/** An {@link EventStore} in this process's memory, remembering the last `maxEntries` events. */
export class MemoryEventStore implements EventStore {
  readonly #states = new Map<string, 'processing' | 'done'>();

  constructor(private readonly maxEntries = 100_000) {}

  claim(eventId: string): boolean {
    if (this.#states.has(eventId)) return false;
    this.#states.set(eventId, 'processing');
    if (this.#states.size > this.maxEntries) {
      const oldest = this.#states.keys().next().value;
      if (oldest !== undefined) this.#states.delete(oldest);
    }
    return true;
  }

  complete(eventId: string): void {
    this.#states.set(eventId, 'done');
  }

  release(eventId: string): void {
    if (this.#states.get(eventId) === 'processing') this.#states.delete(eventId);
  }
}
