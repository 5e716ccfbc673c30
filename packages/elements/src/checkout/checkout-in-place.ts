/**
 * The headless drop-in checkout: the payment request is made through the backend exactly as for a redirect (the
 * same Idempotency-Key per choice), then opened in the payment service's drop-in overlay on this page. What the
 * overlay says is never believed: after its `onSuccess` or `onError` the backend is asked for the status
 * (`GET {endpoint}/payment-requests/{id}`), which is what this resolves with. A request whose overlay the shopper
 * closed stays pending, and is opened again by the next call with the same choice instead of a second request.
 * Part of the drop-in's lazy chunk.
 */
import { handleReturn } from '../return/lazy-handle-return.js';
import { FINAL_STATUSES } from '../return/statuses.js';
import type { CheckoutStarted } from '../types.js';
import { dropInScriptUrl, loadDropInScript } from './load-drop-in-script.js';
import { openDropIn } from './open-drop-in.js';
import { forgetPending, pendingCheckout, rememberPending } from './pending-checkouts.js';
import { loadCheckout } from './lazy-create-checkout.js';
import type { CheckoutInPlace, DropInScript, StartCheckoutOptions } from './types.js';

/** How long the backend is asked again after the overlay's `onSuccess`, while it still says `pending`. */
export const CONFIRM_WAIT_MS = 30_000;

/** Opens the payment request of `options.choice` in the drop-in; see {@link CheckoutInPlace}. */
export async function checkoutInPlace(
  options: StartCheckoutOptions & { dropIn: DropInScript },
): Promise<CheckoutInPlace> {
  const started = (await stillPending(options)) ?? (await (await loadCheckout()).createCheckout(options));
  rememberPending(options, started);
  const script = dropInScriptUrl(options.dropIn, started.url, options.checkoutOrigins);
  const api = script && (await loadDropInScript(script));
  if (!api) return { ...started, dropIn: 'unavailable', ...(script ? { script: script.href } : {}) };
  const end = await openDropIn(api, started, script);
  const unavailable = { ...started, dropIn: 'unavailable', script: script.href } as const;
  if (end === 'blocked') return unavailable;
  if (end === 'close') return { ...started, dropIn: 'closed' };
  // A claim of the overlay (or of anything that can call its callbacks): the backend says what happened. After an
  // error, one look: a payment that did not happen (a checkout that never loaded) is still pending.
  const confirmed = await confirm(options, started.id, end === 'success' ? CONFIRM_WAIT_MS : 0);
  if (FINAL_STATUSES.has(confirmed.status)) forgetPending(options);
  // The overlay failed without a payment: the checkout page, as without the drop-in.
  else if (end === 'error') return unavailable;
  return { ...started, ...confirmed, url: started.url, dropIn: 'finished' };
}

/**
 * The payment request this tab opened for the same choice and whose overlay was closed, if the backend says it is
 * still pending: opened again rather than a second one made. One paid or failed meanwhile (in another tab, or
 * after a redirect) is forgotten, and the choice gets a new payment request.
 */
async function stillPending(options: StartCheckoutOptions): Promise<CheckoutStarted | undefined> {
  const pending = pendingCheckout(options);
  if (!pending) return undefined;
  const now = await confirm(options, pending.id, 0).catch(() => undefined);
  if (now?.status === 'pending') return pending;
  forgetPending(options);
  return undefined;
}

/** The status the backend confirms for `id`, asked again for up to `maxWaitMs` while it is pending. */
function confirm(options: StartCheckoutOptions, id: string, maxWaitMs: number) {
  const reference = new URL(location.href);
  reference.search = '';
  reference.searchParams.set('reference', id);
  if (options.choice.merchant) reference.searchParams.set('merchant', options.choice.merchant);
  return handleReturn({
    endpoint: options.endpoint,
    url: reference.href,
    maxWaitMs,
    signal: options.signal,
    fetch: options.fetch,
  });
}
