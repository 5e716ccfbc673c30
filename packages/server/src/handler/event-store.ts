/**
 * Which webhook facts were already acted on. Deliveries repeat (retries, replays, the API's own at-least-once
 * delivery, one payment told in two formats); the merchant's hook must run once per fact.
 */

/**
 * Claims on facts (`payment_request.completed:<id>`, see `ConfirmedEvent.fact`). Implement it over your database
 * to de-duplicate across processes and restarts.
 */
export interface EventStore {
  /**
   * Claims a fact for processing. Returns `false` when it was already processed or is being processed now. Must
   * be atomic: two concurrent claims of one fact cannot both get `true`.
   */
  claim(fact: string): boolean | Promise<boolean>;
  /** Marks a claimed fact as done for good. */
  complete(fact: string): void | Promise<void>;
  /** Gives a claim back after a failure, so that a redelivery is processed. */
  release(fact: string): void | Promise<void>;
}

/** An {@link EventStore} in this process's memory, remembering the last `maxEntries` facts. */
export class MemoryEventStore implements EventStore {
  readonly #states = new Map<string, 'processing' | 'done'>();

  constructor(private readonly maxEntries = 100_000) {}

  claim(fact: string): boolean {
    if (this.#states.has(fact)) return false;
    this.#states.set(fact, 'processing');
    if (this.#states.size > this.maxEntries) {
      const oldest = this.#states.keys().next().value;
      if (oldest !== undefined) this.#states.delete(oldest);
    }
    return true;
  }

  complete(fact: string): void {
    this.#states.set(fact, 'done');
  }

  release(fact: string): void {
    if (this.#states.get(fact) === 'processing') this.#states.delete(fact);
  }
}
