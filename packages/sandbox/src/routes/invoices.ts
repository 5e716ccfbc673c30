/**
 * Invoices (spec 4.10, the `commerce:*` scopes; shapes the spec does not show are the service's OpenAPI's):
 * create, and list by customer email, status and reference.
 */
import type { HandlersOf } from '../operation-call.js';
import { isoWithOffset } from '../clock.js';
import type { SandboxContext } from '../context.js';
import { sendEvent } from '../webhooks/send.js';

/** The invoice operations. */
export function invoiceHandlers(sandbox: SandboxContext): HandlersOf<'invoices'> {
  const { state } = sandbox;
  return {
    // The service answers its invoice create with 200 and documents no body; the sandbox echoes the invoice.
    'invoices.create': async ({ caller: { business }, body }) => {
      const input = await body();
      const today = sandbox.clocks.now(business.id).toISOString().slice(0, 10);
      const count = state.resources.list('invoices', business.id).length;
      const at = isoWithOffset(sandbox.clocks.now(business.id));
      const invoice = state.resources.add('invoices', business.id, {
        customer: input.customer ?? null,
        customer_id: input.customer_id ?? null,
        invoice_number: input.invoice_number ?? `INV-${String(count + 1).padStart(6, '0')}`,
        // Required (the schema's refinement): the fallbacks only satisfy the optional field's type.
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
            (customerEmail === undefined || i.customer?.email === customerEmail) &&
            (status === undefined || i.status === status) &&
            (reference === undefined || i.reference === reference),
        );
    },
  };
}
