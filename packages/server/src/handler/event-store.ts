/**
 * Which webhook facts were already acted on. Deliveries repeat (retries, replays, the API's own at-least-once
 * delivery, one payment told in two formats); the merchant's hook must run once per fact.
 */

/** What a claim found: the fact is this caller's (`true`), done (`false`), or held by another caller (`'busy'`). */
export type ClaimResult = boolean | 'busy';

/**
 * Claims on facts (`payment_request.completed:<id>`, see `ConfirmedEvent.fact`). Implement it over your database
 * to de-duplicate across processes and restarts.
 */
export interface EventStore {
  /**
   * Claims a fact for processing. Returns `true` when this caller got it, `false` when it was already processed,
   * and `'busy'` when another caller holds it now (its hook may still fail and give it back: the webhook is then
   * answered so that the service delivers it again). A store that cannot tell the two apart returns `false` for
   * both. Must be atomic: two concurrent claims of one fact cannot both get `true`.
   */
  claim(fact: string): ClaimResult | Promise<ClaimResult>;
  /** Marks a claimed fact as done for good. */
  complete(fact: string): void | Promise<void>;
  /** Gives a claim back after a failure, so that a redelivery is processed. */
  release(fact: string): void | Promise<void>;
}

/** An {@link EventStore} in this process's memory, remembering the last `maxEntries` facts. */
export class MemoryEventStore implements EventStore {
  readonly #states = new Map<string, 'processing' | 'done'>();

  constructor(private readonly maxEntries = 100_000) {}

  claim(fact: string): ClaimResult {
    const state = this.#states.get(fact);
    if (state !== undefined) return state === 'processing' ? 'busy' : false;
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
