/**
 * The operations of spec 4.10 whose shapes the spec does not show, emulated with enough state to create, list
 * and read: products (delete needs `commerce:delete`), invoices, orders, customers, transfers, account status,
 * terminals and static QR codes; and the reads of beneficiaries (4.3) and staff (4.4).
 */
import {
  customerCreateSchema,
  invoiceCreateSchema,
  minorToMajor,
  parseAmount,
  productCreateSchema,
  transferCreateSchema,
} from '@paykit/core';
import { Hono } from 'hono';
import { isoWithoutOffset } from '../clock.js';
import type { SandboxContext } from '../context.js';
import type { SandboxEnv } from '../env.js';
import { notFound, SandboxError } from '../errors.js';
import type { ResourceKind } from '../resources.js';
import { listPage, parseBody } from './money.js';

/** The routes. */
export function commerceRoutes(sandbox: SandboxContext) {
  const routes = new Hono<SandboxEnv>();
  const { state } = sandbox;
  const now = () => isoWithoutOffset(new Date());
  const list =
    (kind: ResourceKind) =>
    (c: {
      req: { query(): Record<string, string> };
      get(k: 'caller'): SandboxEnv['Variables']['caller'];
      json: (v: unknown) => Response;
    }) =>
      c.json(listPage(state.resources.list(kind, c.get('caller').business.id), c.req.query()));

  routes.post('/products', async (c) => {
    const input = await parseBody(productCreateSchema, c.req.raw, 'Product');
    const product = state.resources.add('products', c.get('caller').business.id, {
      ...input,
      currency: input.currency.toLowerCase(),
      created_at: now(),
    });
    return c.json(product, 201);
  });
  routes.get('/products', (c) => list('products')(c));
  routes.delete('/products/:id', (c) => {
    if (!state.resources.get('products', c.req.param('id'), c.get('caller').business.id))
      throw notFound('Product not found');
    state.resources.delete('products', c.req.param('id'));
    return c.body(null, 204);
  });

  routes.post('/invoices', async (c) => {
    const input = await parseBody(invoiceCreateSchema, c.req.raw, 'Invoice');
    const invoice = state.resources.add('invoices', c.get('caller').business.id, {
      ...input,
      currency: input.currency.toLowerCase(),
      status: 'open',
      url: null,
      created_at: now(),
    });
    return c.json(invoice, 201);
  });
  routes.get('/invoices', (c) => list('invoices')(c));
  routes.get('/orders', (c) => list('orders')(c));

  routes.post('/customers', async (c) => {
    const input = await parseBody(customerCreateSchema, c.req.raw, 'Customer');
    return c.json(
      state.resources.add('customers', c.get('caller').business.id, { phone: null, ...input, created_at: now() }),
      201,
    );
  });
  routes.get('/customers', (c) => list('customers')(c));

  routes.post('/transfers', async (c) => {
    const business = c.get('caller').business;
    const input = await parseBody(transferCreateSchema, c.req.raw, 'Transfer');
    if (!state.resources.get('beneficiaries', input.beneficiary_id, business.id)) {
      throw new SandboxError(422, 'beneficiary_id is not a beneficiary of this business', 'validation_failed', [
        { path: 'beneficiary_id', message: 'is not a beneficiary of this business' },
      ]);
    }
    const parsed = parseAmount(input.amount);
    const amountMinor = parsed.ok ? parsed.minor : 0;
    if (amountMinor > state.ledger.balanceMinor(business.id)) {
      throw new SandboxError(409, 'The available balance is lower than the transfer', 'conflict');
    }
    const transfer = state.resources.add('transfers', business.id, {
      status: 'succeeded',
      beneficiary_id: input.beneficiary_id,
      amount: minorToMajor(amountMinor),
      currency: input.currency.toLowerCase(),
      reference: input.reference ?? null,
      created_at: now(),
    });
    state.ledger.add({
      businessId: business.id,
      description: `Transfer ${transfer.id} to beneficiary ${input.beneficiary_id}`,
      chargeId: null,
      transferId: transfer.id,
      creditMinor: null,
      debitMinor: -amountMinor,
      currency: input.currency.toLowerCase(),
    });
    return c.json(transfer, 201);
  });
  routes.get('/transfers', (c) => list('transfers')(c));
  routes.get('/transfers/:id', (c) => {
    const found = state.resources.get('transfers', c.req.param('id'), c.get('caller').business.id);
    if (!found) throw notFound('Transfer not found');
    return c.json(found);
  });

  routes.get('/account-status', (c) => c.json({ payments_enabled: true, payouts_enabled: true, status: 'active' }));
  routes.get('/terminals', (c) => list('terminals')(c));
  routes.get('/static-qr-codes', (c) => list('static_qr_codes')(c));

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
