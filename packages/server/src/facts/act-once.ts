/**
 * The one place a confirmed fact reaches the merchant's hook: claimed in the event store first, so that across
 * every instance and every path that learns it (either webhook format, the shopper's return, a reconcile sweep)
 * the hook runs once. A hook that throws gives the claim back, so that the next path to learn the fact runs it.
 */
import type { EventStore } from '../handler/event-store.js';
import type { ConfirmedEvent, EventContext, PaykitHandlerOptions } from '../handler/options.js';

/**
 * What came of offering a fact to the hook: it ran now, the fact was acted on before (`duplicate`), or another
 * caller is acting on it right now (`busy`: it may still fail and give it back).
 */
export type ActOutcome = 'acted' | 'duplicate' | 'busy';

/**
 * Claims `event.fact` and runs `onEvent` with it. Resolves `duplicate` or `busy` without running anything when the
 * fact was claimed before; rethrows what the hook threw, after giving the claim back.
 */
export async function actOnce(
  store: EventStore,
  onEvent: PaykitHandlerOptions['onEvent'],
  event: ConfirmedEvent,
  context: EventContext,
): Promise<ActOutcome> {
  const claimed = await store.claim(event.fact);
  if (claimed !== true) return claimed === 'busy' ? 'busy' : 'duplicate';
  try {
    await onEvent?.(event, context);
  } catch (error) {
    await store.release(event.fact);
    throw error;
  }
  await store.complete(event.fact);
  return 'acted';
}
