/**
 * `/v1/payment-requests` (spec 4.7 and 4.10): create (form or JSON), list, read and cancel.
 */
import { paymentRequestCreateSchema, parseAmount, toErrorBody } from '@paykit/core';
import { Hono } from 'hono';
import { readBody } from '../body.js';
import type { SandboxContext } from '../context.js';
import type { SandboxEnv } from '../env.js';
import { notFound, SandboxError } from '../errors.js';
import { newId } from '../ids.js';
import { paginate, readPageSize } from '../paginate.js';
import { paymentRequestJson } from '../serialize.js';
import type { PaymentRequestRecord } from '../state.js';

/** The payment-request routes, mounted under `/v1` behind authentication. */
export function paymentRequestRoutes(sandbox: SandboxContext) {
  const routes = new Hono<SandboxEnv>();

  const find = (id: string, businessId: string): PaymentRequestRecord => {
    const record = sandbox.state.paymentRequests.get(id);
    // Another business's request is "not found", never "forbidden": its existence is not this caller's business.
    if (!record || record.businessId !== businessId) throw notFound('Payment request not found');
    return record;
  };

  routes.post('/payment-requests', async (c) => {
    const caller = c.get('caller');
    const parsed = paymentRequestCreateSchema.safeParse(await readBody(c.req.raw));
    if (!parsed.success) {
      const body = toErrorBody(parsed.error, 'Payment request');
      throw new SandboxError(422, body.message, body.code, body.errors);
    }
    const input = parsed.data;
    if (input.platform_commission_amount !== undefined && !caller.platform) {
      throw new SandboxError(422, 'platform_commission_amount needs a valid X-PLATFORM-KEY', 'validation_failed', [
        { path: 'platform_commission_amount', message: 'needs a valid X-PLATFORM-KEY' },
      ]);
    }
    checkInPerson(sandbox, caller.business.id, input.payment_methods, input.wifi_terminal_id);
    const now = new Date();
    const record: PaymentRequestRecord = {
      id: newId(),
      businessId: caller.business.id,
      amountMinor: minor(input.amount),
      currency: input.currency.toLowerCase(),
      email: input.email ?? null,
      purpose: input.purpose ?? null,
      redirectUrl: input.redirect_url ?? null,
      webhook: input.webhook ?? null,
      paymentMethods: input.payment_methods ?? ['paynow_online', 'card'],
      wifiTerminalId: input.wifi_terminal_id ?? null,
      allowRepeatedPayments: input.allow_repeated_payments ?? false,
      saveCard: input.save_card ?? false,
      platformCommissionMinor:
        input.platform_commission_amount === undefined ? null : minor(input.platform_commission_amount),
      platformBusinessId: caller.platform?.id ?? null,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
    };
    sandbox.state.paymentRequests.set(record.id, record);
    return c.json(paymentRequestJson(record, sandbox.publicUrl()), 200);
  });

  routes.get('/payment-requests', (c) => {
    const businessId = c.get('caller').business.id;
    const mine = [...sandbox.state.paymentRequests.values()].filter((r) => r.businessId === businessId).reverse();
    const page = paginate(mine, (r) => r.id, {
      cursor: c.req.query('cursor'),
      perPage: readPageSize(c.req.query('per_page'), 'per_page'),
      cursorName: 'cursor',
    });
    return c.json({ data: page.data.map((r) => paymentRequestJson(r, sandbox.publicUrl())), meta: page.meta });
  });

  routes.get('/payment-requests/:id', (c) => {
    const record = find(c.req.param('id'), c.get('caller').business.id);
    return c.json(paymentRequestJson(record, sandbox.publicUrl()));
  });

  routes.put('/payment-requests/:id', async (c) => {
    const record = find(c.req.param('id'), c.get('caller').business.id);
    if (record.status !== 'pending') {
      throw new SandboxError(409, `A ${record.status} payment request cannot be updated`, 'conflict');
    }
    const parsed = paymentRequestCreateSchema.safeParse(await readBody(c.req.raw));
    if (!parsed.success) {
      const body = toErrorBody(parsed.error, 'Payment request');
      throw new SandboxError(422, body.message, body.code, body.errors);
    }
    const input = parsed.data;
    Object.assign(record, {
      amountMinor: minor(input.amount),
      currency: input.currency.toLowerCase(),
      email: input.email ?? record.email,
      purpose: input.purpose ?? record.purpose,
      redirectUrl: input.redirect_url ?? record.redirectUrl,
      updatedAt: new Date(),
    });
    return c.json(paymentRequestJson(record, sandbox.publicUrl()));
  });

  routes.delete('/payment-requests/:id', (c) => {
    const record = find(c.req.param('id'), c.get('caller').business.id);
    if (record.status !== 'pending') {
      throw new SandboxError(409, `A ${record.status} payment request cannot be canceled`, 'conflict');
    }
    record.status = 'canceled';
    record.updatedAt = new Date();
    return c.json(paymentRequestJson(record, sandbox.publicUrl()));
  });

  return routes;
}

/** Minor units of an amount the schema has already validated. */
function minor(amount: number): number {
  const parsed = parseAmount(amount);
  if (!parsed.ok) throw new Error(`validated amount ${amount} did not parse`);
  return parsed.minor;
}

/** In-person payments (spec 5.4.8): a card reader needs one of the business's own terminals. */
function checkInPerson(
  sandbox: SandboxContext,
  businessId: string,
  methods: string[] | undefined,
  terminalId: string | undefined,
) {
  if (terminalId === undefined && !methods?.includes('wifi_card_reader')) return;
  if (terminalId === undefined || !methods?.includes('wifi_card_reader')) {
    throw new SandboxError(422, 'wifi_card_reader and wifi_terminal_id go together', 'validation_failed', [
      { path: 'wifi_terminal_id', message: 'is needed with wifi_card_reader, and only with it' },
    ]);
  }
  if (!sandbox.state.resources.get('terminals', terminalId, businessId)) {
    throw new SandboxError(422, 'wifi_terminal_id is not a terminal of this business', 'validation_failed', [
      { path: 'wifi_terminal_id', message: 'is not a terminal of this business' },
    ]);
  }
}
