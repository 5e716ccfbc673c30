/**
 * The one place a confirmed fact reaches the merchant's hook: claimed in the event store first, so that across
 * every instance and every path that learns it (either webhook format, the shopper's return, a reconcile sweep)
 * the hook runs once. A hook that throws gives the claim back, so that the next path to learn the fact runs it.
 *
 * Once is for the life of the order, not for as long as the store happens to remember: a fact that happened
 * before the store remembers (`EventStore.remembersFrom`: a store created later, one that forgot it past its
 * size or retention, a memory store after a restart) may have been acted on already, so it is not offered to
 * the hook. The caller still shows it to the shopper and answers the service; the log says so, once per fact.
 */
import type { EventStore } from '../handler/event-store.js';
import type { Logger } from '../handler/logger.js';
import type { ConfirmedEvent, EventContext, OnEvent } from './confirmed-event.js';
import { createdFromOf } from './created-from.js';
import { factTime } from './fact-time.js';

/**
 * What came of offering a fact to the hook: it ran now, the fact was acted on before (`duplicate`), another
 * caller is acting on it right now (`busy`: it may still fail and give it back), or it happened before the store
 * remembers (`outsideRetention`: not acted on, whatever the store says of it).
 */
export type ActOutcome = 'acted' | 'duplicate' | 'busy' | 'outsideRetention';

/** Offers confirmed facts to the hook, once each; see the module's comment. */
export interface FactActor {
  /**
   * Claims `event.fact` and runs `onEvent` with it, with `hook.request` as the context's request (read only when
   * the hook reads it). Resolves without
   * running anything when the fact was claimed before or is older than the store's horizon; rethrows what the
   * hook threw, after giving the claim back.
   */
  act(event: ConfirmedEvent, hook: { readonly request: Request | undefined }): Promise<ActOutcome>;
  /** The store the facts are claimed in. */
  readonly store: EventStore;
}

/** How many facts outside the horizon are remembered as logged, so that a reload storm logs each once. */
const TOLD_LIMIT = 1_000;

/** The actor of one handler: its store, its hook, its log. */
export function factActor(store: EventStore, onEvent: OnEvent | undefined, logger: Logger): FactActor {
  const told = new Set<string>();
  const tellOnce = (event: ConfirmedEvent, at: number | undefined, from: number) => {
    if (told.has(event.fact)) return;
    told.add(event.fact);
    if (told.size > TOLD_LIMIT) told.delete(told.values().next().value!);
    const when = at === undefined ? 'at a time the API does not say' : `at ${new Date(at).toISOString()}`;
    logger.warn(
      `paykit: ${event.fact} (learnt by ${event.source}) happened ${when}, before the event store remembers ` +
        `(${new Date(from).toISOString()}): it may have been acted on already, so onEvent is not run for it. ` +
        'Check it by hand; keep facts longer (eventRetentionMs of createPostgresStores, maxEntries of ' +
        'FileEventStore) so that late webhooks and old return links stay inside.',
    );
  };
  return {
    store,
    async act(event, hook) {
      const at = factTime(event);
      const from = await store.remembersFrom();
      if (at === undefined || at < from) {
        tellOnce(event, at, from);
        return 'outsideRetention';
      }
      const claimed = await store.claim(event.fact, at);
      if (claimed !== true) return claimed === 'busy' ? 'busy' : 'duplicate';
      const createdFrom = createdFromOf(event);
      const context: EventContext = {
        get request() {
          return hook.request;
        },
        ...(createdFrom === undefined ? {} : { createdFrom }),
      };
      try {
        await onEvent?.(event, context);
      } catch (error) {
        await store.release(event.fact);
        throw error;
      }
      await store.complete(event.fact);
      return 'acted';
    },
  };
}
