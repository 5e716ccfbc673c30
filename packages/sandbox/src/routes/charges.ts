/**
 * `/v1/charges` (spec 4.10): list and read. The charge record is not shown by the spec; see core's `chargeSchema`.
 */
import { ListItems, type HandlersOf } from '../operation-call.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { chargeJson } from '../serialize.js';

/** The charge operations. */
export function chargeHandlers(sandbox: SandboxContext): HandlersOf<'charges'> {
  return {
    // Newest first, in the service's cursor list (its charges OpenAPI: links, meta.path, per_page a number).
    'charges.list': ({ businessId }) =>
      ListItems.of(
        [...sandbox.state.charges.values()].filter((r) => r.businessId === businessId).reverse(),
        (r) => r.id,
        (r) => chargeJson(r, sandbox.publicUrl()),
      ),
    'charges.get': ({ params, businessId }) => {
      const charge = sandbox.state.charges.get(params.id);
      if (!charge || charge.businessId !== businessId) throw notFound('Charge not found');
      return chargeJson(charge, sandbox.publicUrl());
    },
  };
}
