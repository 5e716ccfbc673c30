/**
 * What the element tests learn from their backend (see test-support/backend.ts): the sandbox checkout
 * origin, and how many payment requests exist.
 */
export async function backendState(): Promise<{ checkoutOrigin: string; count: number }> {
  return (await (await fetch('/__test/config')).json()) as { checkoutOrigin: string; count: number };
}

/** Pays or fails a payment request as a shopper on the sandbox checkout would. */
export async function settle(id: string, outcome: 'succeeded' | 'failed'): Promise<void> {
  const answer = await fetch(`/__test/pay/${id}/${outcome}`, { method: 'POST' });
  if (!answer.ok) throw new Error(`could not settle ${id}: ${answer.status}`);
}

/** Resolves with the next `type` event on `target`. */
export function next<E extends Event>(target: EventTarget, type: string): Promise<E> {
  return new Promise((resolve) => target.addEventListener(type, (event) => resolve(event as E), { once: true }));
}
