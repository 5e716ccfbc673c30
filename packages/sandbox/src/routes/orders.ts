/**
 * Orders (spec 4.10, the `commerce:*` scopes; the service's OpenAPI): list and read. A paid payment request
 * leaves one behind (`payments.ts`); nothing here makes them.
 */
import type { HandlersOf } from '../operation-call.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';

/** The order operations. */
export function orderHandlers(sandbox: SandboxContext): HandlersOf<'orders'> {
  const { state } = sandbox;
  return {
    // The service shows no answer for its order list: a cursor list like the charges, whose filters it shares.
    'orders.list': ({ businessId }) => state.resources.list('orders', businessId),
    // The service's "get-order"; what a server re-fetches when an `order.*` webhook names an order.
    'orders.get': ({ params, businessId }) => {
      const found = state.resources.get('orders', params.id, businessId);
      if (!found) throw notFound('Order not found');
      return found;
    },
  };
}
