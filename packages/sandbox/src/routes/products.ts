/**
 * Products (spec 4.10, the `commerce:*` scopes; shapes the spec does not show are the service's OpenAPI's):
 * create with multipart as the service documents it, list and delete.
 */
import { majorToMinor } from '@paykit/core';
import type { HandlersOf } from '../operation-call.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { productJson } from '../serialize.js';

/** The product operations. */
export function productHandlers(sandbox: SandboxContext): HandlersOf<'products'> {
  const { state } = sandbox;
  return {
    // The service documents multipart/form-data for products; JSON and form-urlencoded are taken as well. File
    // parts of a multipart body (the product's image) are left out: the sandbox stores no files.
    'products.create': async ({ c, caller: { business }, body }) => {
      const input = await body({ accept: ['json', 'form', 'multipart'] });
      const product = state.resources.add(
        'products',
        business.id,
        productJson({
          businessId: business.id,
          name: input.name,
          description: input.description ?? null,
          headline: input.headline ?? null,
          currency: input.currency ?? business.currency,
          priceMinor: majorToMinor(input.price, { field: 'price' }),
          categoryIds: input.category_ids ?? [],
          isManageable: input.is_manageable ?? true,
          isPinned: input.is_pinned ?? false,
          published: input.publish ?? true,
          productWeight: input.product_weight ?? null,
          deliveryMethodRequired: input.delivery_method_required ?? true,
          at: sandbox.clocks.now(business.id),
        }),
      );
      return c.json(product, 201);
    },
    'products.list': ({ businessId }) => state.resources.list('products', businessId),
    'products.delete': ({ c, params, businessId }) => {
      if (!state.resources.get('products', params.id, businessId)) throw notFound('Product not found');
      state.resources.delete('products', params.id);
      return c.body(null, 204);
    },
  };
}
