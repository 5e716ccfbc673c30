/**
 * The operations of spec 4.10 whose shapes the spec does not show, emulated with enough state to create, list
 * and read: products (delete needs `commerce:delete`), invoices, orders (list and read), customers, transfers,
 * account status, terminals and static QR codes; and the reads of beneficiaries (4.3) and staff (4.4).
 */
import { majorToMinor, PaykitError, type TransferEstimateOutput } from '@paykit/core';
import { Hono } from 'hono';
import { isoWithOffset, isoWithoutOffset } from '../clock.js';
import type { SandboxContext } from '../context.js';
import type { SandboxEnv } from '../env.js';
import { parseOperationBody } from '../operation-body.js';
import { notFound } from '../errors.js';
import type { ResourceKind } from '../resources.js';
import { estimateJson, quoteTransfer, transferMoneyJson } from '../transfer-quote.js';
import { productJson } from '../serialize.js';
import { recordsCursorList, recordsNumberedList } from '../paginate.js';
import { sendEvent } from '../webhooks/send.js';

/** The routes. */
export function commerceRoutes(sandbox: SandboxContext) {
  const routes = new Hono<SandboxEnv>();
  const { state } = sandbox;
  const now = () => isoWithoutOffset(new Date());
  // Each list answers the shape the service's OpenAPI shows for it (the README lists them): a cursor list or a
  // page-numbered one, with the page size it documents as the default.
  type ListContext = {
    req: { url: string; query(): Record<string, string> };
    get(k: 'caller'): SandboxEnv['Variables']['caller'];
    json: (v: unknown) => Response;
  };
  const list = (kind: ResourceKind, shape: 'cursor' | 'numbered', perPage: number) => (c: ListContext) => {
    const items = state.resources.list(kind, c.get('caller').business.id);
    return c.json(
      shape === 'cursor' ? recordsCursorList(items, c.req, perPage) : recordsNumberedList(items, c.req, perPage),
    );
  };

  // The service documents multipart/form-data for products; JSON and form-urlencoded are taken as well.
  routes.post('/products', async (c) => {
    const business = c.get('caller').business;
    // File parts of a multipart body (the product's image) are left out: the sandbox stores no files.
    const input = await parseOperationBody(c, 'products.create', { accept: ['json', 'form', 'multipart'] });
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
  });
  routes.get('/products', (c) => list('products', 'numbered', 10)(c));
  routes.delete('/products/:id', (c) => {
    if (!state.resources.get('products', c.req.param('id'), c.get('caller').business.id))
      throw notFound('Product not found');
    state.resources.delete('products', c.req.param('id'));
    return c.body(null, 204);
  });

  // The service answers its invoice create with 200 and documents no body; the sandbox echoes the invoice.
  routes.post('/invoices', async (c) => {
    const business = c.get('caller').business;
    const input = await parseOperationBody(c, 'invoices.create');
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
    return c.json(invoice);
  });
  // The service filters its invoice list by customer email, status and reference.
  routes.get('/invoices', (c) => {
    const { customer_email: customerEmail, status, reference } = c.req.query();
    const kept = state.resources
      .list('invoices', c.get('caller').business.id)
      .filter(
        (i) =>
          (customerEmail === undefined || (i.customer as { email?: string } | null)?.email === customerEmail) &&
          (status === undefined || i.status === status) &&
          (reference === undefined || i.reference === reference),
      );
    // The service's invoice list takes `page` and `per_page` (default 10); it shows no answer: page-numbered.
    return c.json(recordsNumberedList(kept, c.req, 10));
  });
  // The service shows no answer for its order list: a cursor list like the charges, whose filters it shares.
  routes.get('/orders', (c) => list('orders', 'cursor', 20)(c));
  // The service's "get-order"; what a server re-fetches when an `order.*` webhook names an order.
  routes.get('/orders/:id', (c) => {
    const found = state.resources.get('orders', c.req.param('id'), c.get('caller').business.id);
    if (!found) throw notFound('Order not found');
    return c.json(found);
  });

  routes.post('/customers', async (c) => {
    const input = await parseOperationBody(c, 'customers.create');
    return c.json(
      state.resources.add('customers', c.get('caller').business.id, { phone: null, ...input, created_at: now() }),
      201,
    );
  });
  routes.get('/customers', (c) => list('customers', 'cursor', 10)(c));

  /** The beneficiary a transfer names, or 422 naming `beneficiary_id`. */
  const beneficiaryOf = (beneficiaryId: string, businessId: string) => {
    const found = state.resources.get('beneficiaries', beneficiaryId, businessId);
    if (!found) {
      throw new PaykitError('validation_failed', 'beneficiary_id is not a beneficiary of this business', {
        errors: [{ path: 'beneficiary_id', message: 'is not a beneficiary of this business' }],
      });
    }
    return found;
  };
  // The schema has made sure of a currency and an amount; `currency`/`amount` are paykit's earlier names.
  const quoteFor = (input: TransferEstimateOutput, beneficiary: Record<string, unknown>) =>
    quoteTransfer({
      sourceCurrency: input.source_currency ?? input.currency ?? '',
      paymentCurrency: String(beneficiary.currency),
      sourceAmount: input.source_amount ?? input.amount,
      paymentAmount: input.payment_amount,
    });

  // An estimate changes nothing: no balance check, no record (the service's estimate-fee operation).
  routes.post('/transfers/estimate', async (c) => {
    const business = c.get('caller').business;
    const input = await parseOperationBody(c, 'transfers.estimate');
    return c.json(estimateJson(quoteFor(input, beneficiaryOf(input.beneficiary_id, business.id))));
  });

  routes.post('/transfers', async (c) => {
    const business = c.get('caller').business;
    const input = await parseOperationBody(c, 'transfers.create');
    const beneficiary = beneficiaryOf(input.beneficiary_id, business.id);
    const quote = quoteFor(input, beneficiary);
    // The payer bears the fee, so the balance in the source currency must cover amount and fee.
    const needed = quote.sourceMinor + quote.feeMinor;
    if (needed > state.ledger.balanceMinor(business.id, quote.sourceCurrency)) {
      throw new PaykitError('conflict', 'The available balance is lower than the transfer and its fee');
    }
    const transfer = state.resources.add('transfers', business.id, {
      beneficiary: { ...beneficiary },
      ...transferMoneyJson(quote),
      remark: input.remark ?? null,
      reference: input.reference ?? null,
      // The service schedules a transfer; the sandbox's stays scheduled (its money has left the balance).
      status: 'scheduled',
      attachment: null,
      created_by: null,
      approved_by: null,
      rejected_by: null,
      created_at: isoWithOffset(new Date()),
    });
    state.ledger.recordTransfer({
      transferId: transfer.id,
      businessId: business.id,
      beneficiaryId: input.beneficiary_id,
      sourceMinor: quote.sourceMinor,
      feeMinor: quote.feeMinor,
      currency: quote.sourceCurrency,
    });
    // The service's transfer events: created, and one per status it reaches (a new transfer is scheduled).
    sendEvent(sandbox, 'transfer.created', transfer, business.id);
    sendEvent(sandbox, 'transfer.scheduled', transfer, business.id);
    return c.json(transfer, 201);
  });
  // The service filters its transfer list by beneficiary and status.
  routes.get('/transfers', (c) => {
    const { beneficiary_id: beneficiaryId, status } = c.req.query();
    const all = state.resources.list('transfers', c.get('caller').business.id);
    const kept = all.filter(
      (t) =>
        (beneficiaryId === undefined || (t.beneficiary as { id: string }).id === beneficiaryId) &&
        (status === undefined || t.status === status),
    );
    return c.json(recordsCursorList(kept, c.req, 10));
  });
  routes.get('/transfers/:id', (c) => {
    const found = state.resources.get('transfers', c.req.param('id'), c.get('caller').business.id);
    if (!found) throw notFound('Transfer not found');
    return c.json(found);
  });

  routes.get('/account-status', (c) => c.json({ payments_enabled: true, payouts_enabled: true, status: 'active' }));
  // Terminals answer as the service's card readers (`GET /v1/readers`: page-numbered, 10 a page).
  routes.get('/terminals', (c) => list('terminals', 'numbered', 10)(c));
  routes.get('/static-qr-codes', (c) => list('static_qr_codes', 'cursor', 20)(c));

  // Not-found texts as the spec gives them (4.3, 4.4).
  routes.get('/beneficiaries/:id', (c) => {
    const found = state.resources.get('beneficiaries', c.req.param('id'), c.get('caller').business.id);
    if (!found) throw notFound('Bank account record not found');
    return c.json(found);
  });
  routes.get('/staffs/:id', (c) => {
    const found = state.resources.get('staff', c.req.param('id'), c.get('caller').business.id);
    if (!found) throw notFound('The staff cannot be found');
    return c.json(found);
  });

  return routes;
}
