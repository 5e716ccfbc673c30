/**
 * Which facts were already acted on. Deliveries repeat (retries, replays, the API's own at-least-once delivery,
 * one payment told in two formats, a return link reloaded a month later); the merchant's hook must run once per
 * fact, for the life of the order. A store can only answer for what it still remembers, so it also says from
 * when it remembers ({@link EventStore.remembersFrom}): a fact older than that may have been acted on already,
 * and is not offered to the hook again.
 */

import { PaykitError } from '@paykit/core';

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
   *
   * `at` is when the fact happened, in ms since the epoch by the payment service's clock (the payment's time):
   * a store that forgets facts uses it so that what it forgets stays before {@link remembersFrom}.
   */
  claim(fact: string, at?: number): ClaimResult | Promise<ClaimResult>;
  /** Marks a claimed fact as done for good. */
  complete(fact: string): void | Promise<void>;
  /** Gives a claim back after a failure, so that a redelivery is processed. */
  release(fact: string): void | Promise<void>;
  /**
   * From when (ms since the epoch) the store can answer for every fact it was offered: no fact that happened at
   * or after this time was forgotten. Never before the store was created (it knows nothing of what came before),
   * and moved forward past whatever it forgets (a size limit, a retention). A fact that happened before it is
   * not offered to the hook: shown to the shopper and answered to the service, but not acted on, since it may
   * have been acted on already.
   */
  remembersFrom(): number | Promise<number>;
}

/**
 * The start of the second `ms` falls in. The service writes its times to the second, so a payment made in the
 * same second as a store was created, after it, reads as earlier: the store's start is rounded down to match.
 */
export function startOfSecond(ms: number): number {
  return Math.floor(ms / 1_000) * 1_000;
}

/** A fact as a store in this process holds it. */
interface HeldFact {
  state: 'processing' | 'done';
  /** When it happened (the later of the fact's own time and when it was claimed), for what forgetting it costs. */
  at: number;
}

/**
 * An {@link EventStore} in this process's memory, remembering the last `maxEntries` done facts (a fact being
 * processed is never forgotten). It remembers from when it was created, and forgetting a fact moves that past
 * it: after a restart, or once a fact is forgotten, an old return link or a late webhook is shown and answered
 * but no longer acted on. Production handlers refuse it unless told one process is all there is (`singleProcess`).
 */
export class MemoryEventStore implements EventStore {
  readonly #facts = new Map<string, HeldFact>();
  readonly #maxEntries: number;
  #from: number;

  constructor(maxEntries = 100_000) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new PaykitError(
        'validation_failed',
        `MemoryEventStore: maxEntries must be a positive whole number, not ${String(maxEntries)}`,
        {
          errors: [{ path: 'maxEntries', message: 'must be a positive whole number' }],
        },
      );
    }
    this.#maxEntries = maxEntries;
    this.#from = startOfSecond(Date.now());
  }

  claim(fact: string, at?: number): ClaimResult {
    const held = this.#facts.get(fact);
    if (held !== undefined) return held.state === 'processing' ? 'busy' : false;
    this.#facts.set(fact, { state: 'processing', at: Math.max(Date.now(), at ?? -Infinity) });
    this.#forgetBeyondLimit();
    return true;
  }

  complete(fact: string): void {
    const held = this.#facts.get(fact);
    this.#facts.set(fact, { state: 'done', at: held?.at ?? Date.now() });
    this.#forgetBeyondLimit();
  }

  release(fact: string): void {
    if (this.#facts.get(fact)?.state === 'processing') this.#facts.delete(fact);
  }

  remembersFrom(): number {
    return this.#from;
  }

  /** Forgets the oldest done facts beyond the limit, and moves the horizon past each. */
  #forgetBeyondLimit(): void {
    if (this.#facts.size <= this.#maxEntries) return;
    for (const [fact, held] of this.#facts) {
      if (this.#facts.size <= this.#maxEntries) return;
      if (held.state !== 'done') continue;
      this.#facts.delete(fact);
      this.#from = Math.max(this.#from, held.at + 1);
    }
  }
}
