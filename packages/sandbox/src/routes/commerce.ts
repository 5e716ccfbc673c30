/**
 * Commerce (spec 4.10, the `commerce:*` scopes; shapes the spec does not show are the service's OpenAPI's):
 * products (create with multipart as the service documents it, list, delete), invoices (create, list by customer
 * email, status and reference) and orders (list and read).
 */
import { majorToMinor } from '@paykit/core';
import type { HandlersOf } from '../operation-call.js';
import { isoWithOffset } from '../clock.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import { productJson } from '../serialize.js';
import { sendEvent } from '../webhooks/send.js';

/** The product, invoice and order operations. */
export function commerceHandlers(sandbox: SandboxContext): HandlersOf<'products' | 'invoices' | 'orders'> {
  const { state } = sandbox;
  return {
    // The service documents multipart/form-data for products; JSON and form-urlencoded are taken as well. File
    // parts of a multipart body (the product's image) are left out: the sandbox stores no files.
    'products.create': async ({ c, caller: { business }, body }) => {
      // File parts of a multipart body (the product's image) are left out: the sandbox stores no files.
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
          at: new Date(),
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

    // The service answers its invoice create with 200 and documents no body; the sandbox echoes the invoice.
    'invoices.create': async ({ caller: { business }, body }) => {
      const input = await body();
      const today = new Date().toISOString().slice(0, 10);
      const count = state.resources.list('invoices', business.id).length;
      const at = isoWithOffset(new Date());
      const invoice = state.resources.add('invoices', business.id, {
        customer: input.customer ?? (input.customer_email ? { name: null, email: input.customer_email } : null),
        customer_id: input.customer_id ?? null,
        invoice_number: input.invoice_number ?? `INV-${String(count + 1).padStart(6, '0')}`,
        invoice_date: input.invoice_date ?? today,
        due_date: input.due_date ?? null,
        currency: (input.currency ?? business.currency).toLowerCase(),
        amount: input.amount,
        subtotal: input.subtotal ?? input.amount,
        payment_by: input.payment_by ?? 'amount',
        payment_methods: input.payment_methods ?? [],
        tax_setting: input.tax_setting ?? null,
        send_email: input.send_email ?? false,
        reference: input.reference ?? null,
        description: input.description ?? null,
        footer: input.footer ?? null,
        allow_partial_payments: input.allow_partial_payments ?? false,
        // The service's invoice statuses are draft, sent, pending, overdue and paid; a new one waits for payment.
        status: 'pending',
        url: null,
        created_at: at,
        updated_at: at,
      });
      sendEvent(sandbox, 'invoice.created', invoice, business.id);
      return invoice;
    },
    // The service's invoice list takes `page` and `per_page` (default 10); it shows no answer: page-numbered.
    'invoices.list': ({ businessId, filters }) => {
      const { customer_email: customerEmail, status, reference } = filters();
      return state.resources
        .list('invoices', businessId)
        .filter(
          (i) =>
            (customerEmail === undefined || (i.customer as { email?: string } | null)?.email === customerEmail) &&
            (status === undefined || i.status === status) &&
            (reference === undefined || i.reference === reference),
        );
    },
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
