/**
 * Customers (the `customer:*` scopes; the service's customers OpenAPI): create and list.
 */
import type { HandlersOf } from '../operation-call.js';
import { isoWithoutOffset } from '../clock.js';
import type { SandboxContext } from '../context.js';

/** The customer operations. */
export function customerHandlers(sandbox: SandboxContext): HandlersOf<'customers'> {
  const { state } = sandbox;
  return {
    'customers.create': async ({ c, businessId, body }) => {
      const input = await body();
      return c.json(
        state.resources.add('customers', businessId, {
          phone: null,
          ...input,
          created_at: isoWithoutOffset(sandbox.clocks.now(businessId)),
        }),
        201,
      );
    },
    'customers.list': ({ businessId }) => state.resources.list('customers', businessId),
  };
}
