/**
 * Every operation of the client against the running sandbox: success, not found, validation, wrong scope,
 * and pagination across thousands of entries.
 */
import { startHttpRecorder } from '@paykit/test-support/http-recorder';
import { call } from '@paykit/test-support/sandbox-calls';
import { createBusiness, registerApp } from '@paykit/test-support/sandbox-control';
import { approveOnSandbox } from '@paykit/test-support/sandbox-oauth';
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOAuthClient } from '../oauth/oauth-client.js';
import { createPaymentsClient, type PaymentsClient } from './payments-client.js';

let sandbox: RunningSandbox;
let client: PaymentsClient;
const business = () => sandbox.seed.businessId;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  client = createPaymentsClient({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
});
afterAll(() => sandbox.close());

async function paidRequest(amount: number, extra: Record<string, unknown> = {}) {
  const request = await client.paymentRequests.create({ amount, currency: 'SGD', ...extra });
  const paid = await call(sandbox, 'POST', `/_sandbox/payment-requests/${request.id}/pay`, {
    json: { outcome: 'succeeded' },
  });
  expect(paid.status).toBe(200);
  const charge = (await client.charges.list()).data.find((c) => c.payment_request_id === request.id)!;
  return { request, charge };
}
const UNKNOWN = '00000000-0000-4000-8000-00000000dead';

describe('payments client, operation by operation', () => {
  it('info and account status', async () => {
    expect(await client.info.get()).toMatchObject({ id: business(), name: 'Demo Store', payments_enabled: true });
    expect(await client.accountStatus.get()).toMatchObject({ payments_enabled: true });
  });

  it('payment requests: update, cancel, and not found', async () => {
    const created = await client.paymentRequests.create({ amount: 5, currency: 'SGD' });
    expect(
      await client.paymentRequests.update(created.id, { amount: 6, currency: 'SGD', purpose: 'More' }),
    ).toMatchObject({ amount: '6.00', purpose: 'More' });
    await expect(client.paymentRequests.update(created.id, { amount: 0, currency: 'SGD' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    expect((await client.paymentRequests.cancel(created.id)).status).toBe('canceled');
    await expect(client.paymentRequests.get(UNKNOWN)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refunds: partial refunds add up, never past what remains; both paths; webhook notified; ledger follows', async () => {
    const { charge } = await paidRequest(30);
    const hooks = await startHttpRecorder();
    const first = await client.refunds.create({ amount: 10, payment_id: charge.id, webhook: hooks.url });
    // The refund's webhook hears of the charge it changed, as the service's charge.updated event.
    const [delivery] = await hooks.waitFor(1);
    expect(delivery!.headers).toMatchObject({ 'hitpay-event-object': 'charge', 'hitpay-event-type': 'updated' });
    expect(JSON.parse(delivery!.body)).toMatchObject({
      id: charge.id,
      status: 'partially_refunded',
      refunded_amount: 10,
    });
    await hooks.close();
    expect(first).toMatchObject({ amount_refunded: 10, total_amount: 30, currency: 'sgd', status: 'succeeded' });
    expect(first.refunded_at).toMatch(/\.\d{6}Z$/);
    const viaSingular = await call(sandbox, 'POST', '/v1/refund', { json: { amount: 15, payment_id: charge.id } });
    expect(viaSingular.status).toBe(200);
    await expect(client.refunds.create({ amount: 5.01, payment_id: charge.id })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'amount', message: 'must not exceed 5.00' }],
    });
    expect(await client.refunds.get(first.id)).toMatchObject({ id: first.id, payment_id: charge.id });
    await expect(client.refunds.get(UNKNOWN)).rejects.toMatchObject({ code: 'not_found' });
    await expect(client.refunds.create({ amount: 1, payment_id: UNKNOWN })).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await client.charges.get(charge.id)).status).toBe('partially_refunded');
    const entries = sandbox.context.state.ledger.entries.filter(
      (e) => e.chargeId === charge.id && e.description.startsWith('Refund'),
    );
    expect(entries.map((e) => e.debitMinor)).toEqual([-1000, -1500]);
  });

  it('payouts: settle the balance, move through statuses; a failed payout carries its failure_code', async () => {
    await paidRequest(50);
    const settled = await call(sandbox, 'POST', '/_sandbox/payouts', { json: { business_id: business() } });
    expect(settled.status).toBe(201);
    expect(await client.payouts.get(settled.body.id)).toMatchObject({ status: 'scheduled', currency: 'sgd' });
    const noCode = await call(sandbox, 'POST', `/_sandbox/payouts/${settled.body.id}/status`, {
      json: { status: 'failed' },
    });
    expect(noCode.status).toBe(422);
    await call(sandbox, 'POST', `/_sandbox/payouts/${settled.body.id}/status`, {
      json: { status: 'failed', failure_code: 'account_closed', failure_message: 'The bank account is closed' },
    });
    expect(await client.payouts.get(settled.body.id)).toMatchObject({
      status: 'failed',
      failure_code: 'account_closed',
    });
    const other = await createBusiness(sandbox, { name: 'Other' });
    const otherClient = createPaymentsClient({ apiBaseUrl: sandbox.url, apiKey: other.api_key });
    await expect(otherClient.payouts.get(settled.body.id)).rejects.toMatchObject({ code: 'not_found', status: 404 });
  });

  it('saved cards: a payment with save_card saves it; charge it; cancel it; unknown names the plan record', async () => {
    await paidRequest(12, { save_card: true, email: 'shopper@example.test' });
    const cardId = sandbox.context.state.resources.list('recurring_billing', business())[0]!.id;
    const card = await client.recurringBilling.get(cardId);
    expect(card).toMatchObject({
      cycle: 'save_card',
      customer_email: 'shopper@example.test',
      payment_method: { card: { brand: 'visa', last4: '4242' } },
    });
    expect(await client.recurringBilling.charge(cardId, { amount: 7, currency: 'SGD' })).toMatchObject({
      status: 'succeeded',
      amount: 7,
    });
    expect((await client.recurringBilling.cancel(cardId)).status).toBe('canceled');
    await expect(client.recurringBilling.charge(cardId, { amount: 7, currency: 'SGD' })).rejects.toMatchObject({
      code: 'conflict',
    });
    await expect(client.recurringBilling.get(UNKNOWN)).rejects.toMatchObject({
      message: 'Subscription plan record not found',
    });
  });

  it('subscription plans, products, invoices, customers, orders', async () => {
    const plan = await client.subscriptionPlans.create({
      name: 'Coffee club',
      amount: 9.9,
      currency: 'sgd',
      cycle: 'monthly',
    });
    expect((await client.subscriptionPlans.list()).data.map((p) => p.id)).toContain(plan.id);
    await expect(
      client.subscriptionPlans.create({ name: 'x', amount: 1, currency: 'SGD', cycle: 'hourly' as 'monthly' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
    });
    const product = await client.products.create({ name: 'Mug', price: '12.50', currency: 'SGD' });
    expect((await client.products.list()).data[0]).toMatchObject({ id: product.id, price: 12.5 });
    await client.products.delete(product.id);
    await expect(client.products.delete(product.id)).rejects.toMatchObject({ code: 'not_found' });
    const invoice = await client.invoices.create({
      customer: { name: 'Ann', email: 'a@b.test' },
      invoice_date: '2026-11-23',
      payment_by: 'amount',
      amount: 100,
      currency: 'SGD',
    });
    expect((await client.invoices.list()).data[0]).toMatchObject({ id: invoice.id, status: 'pending' });
    const customer = await client.customers.create({ name: 'Ann', email: 'ann@example.test' });
    expect((await client.customers.list()).data[0]!.id).toBe(customer.id);
    await expect(client.customers.create({ name: 'Ann', email: 'nope' })).rejects.toMatchObject({
      errors: [{ path: 'email' }],
    });
    expect((await client.orders.list()).data.length).toBeGreaterThan(0);
  });

  it('beneficiaries, staff and transfers, with the not-found texts of the spec', async () => {
    const beneficiary = (
      await call(sandbox, 'POST', '/_sandbox/beneficiaries', {
        json: { business_id: business(), holder_name: 'Ann', account_number: '12345678' },
      })
    ).body;
    const read = await client.beneficiaries.get(beneficiary.id);
    expect(read).toMatchObject({ status: 'approved', holder_name: 'Ann' });
    expect(read.created_at).toMatch(/[+-]\d{2}:\d{2}$/);
    await expect(client.beneficiaries.get(UNKNOWN)).rejects.toMatchObject({ message: 'Bank account record not found' });
    const staff = (
      await call(sandbox, 'POST', '/_sandbox/staff', {
        json: { business_id: business(), name: 'Bo', email: 'bo@example.test', role_title: 'Cashier' },
      })
    ).body;
    expect(await client.staff.get(staff.id)).toMatchObject({ name: 'Bo', role: { title: 'Cashier' } });
    await expect(client.staff.get(UNKNOWN)).rejects.toMatchObject({ message: 'The staff cannot be found' });
    await paidRequest(20);
    const transfer = await client.transfers.create({
      beneficiary_id: beneficiary.id,
      source_amount: 1,
      source_currency: 'SGD',
    });
    expect(await client.transfers.get(transfer.id)).toMatchObject({
      status: 'scheduled',
      source_amount: 1,
      source_currency: 'sgd',
    });
    expect((await client.transfers.list()).data[0]!.id).toBe(transfer.id);
    await expect(
      client.transfers.create({ beneficiary_id: UNKNOWN, source_amount: 1, source_currency: 'SGD' }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('in person: a card-reader payment needs the business’s terminal, and the terminal page completes it', async () => {
    const terminal = (
      await call(sandbox, 'POST', '/_sandbox/terminals', { json: { business_id: business(), name: 'Counter 1' } })
    ).body;
    expect((await client.terminals.list()).data.map((t) => t.id)).toContain(terminal.id);
    await expect(
      client.paymentRequests.create({
        amount: 4,
        currency: 'SGD',
        payment_methods: ['wifi_card_reader'],
        wifi_terminal_id: UNKNOWN,
      }),
    ).rejects.toMatchObject({
      errors: [{ path: 'wifi_terminal_id' }],
    });
    const request = await client.paymentRequests.create({
      amount: 4,
      currency: 'SGD',
      payment_methods: ['wifi_card_reader'],
      wifi_terminal_id: terminal.id,
    });
    const page = await fetch(terminal.url);
    expect(await page.text()).toContain('SGD\u00a04.00');
    await fetch(terminal.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `payment_request_id=${request.id}`,
      redirect: 'manual',
    });
    expect((await client.paymentRequests.get(request.id)).status).toBe('completed');
    // The charge's payment_method is the service's object; the method's code is its `code`, and the charge
    // names the card reader it was paid on.
    const charge = (await client.charges.list()).data.find((c) => c.payment_request_id === request.id);
    expect(charge).toMatchObject({ payment_method: { code: 'wifi_card_reader' }, terminal_id: terminal.id });
    const qr = (
      await call(sandbox, 'POST', '/_sandbox/static-qr-codes', {
        json: { business_id: business(), name: 'Counter QR' },
      })
    ).body;
    expect((await client.qrCodes.list()).data).toEqual([expect.objectContaining({ id: qr.id, name: 'Counter QR' })]);
  });
});

describe('balance transactions', () => {
  it('walks thousands of entries in pages of 100, nothing skipped or repeated, and filters by date', async () => {
    const ledger = sandbox.context.state.ledger;
    const before = ledger.entries.filter((e) => e.businessId === business()).length;
    for (let i = 0; i < 3000; i += 1) {
      ledger.add({
        businessId: business(),
        description: `Entry ${i}`,
        chargeId: null,
        creditMinor: i + 1,
        debitMinor: null,
        currency: 'sgd',
      });
    }
    const seen: string[] = [];
    for await (const entry of client.balances.transactions.list.all({ perPage: 100 })) seen.push(entry.description);
    expect(seen).toHaveLength(before + 3000);
    expect(new Set(seen).size).toBe(seen.length);
    const entries = seen.filter((d) => d.startsWith('Entry '));
    expect(entries).toEqual(Array.from({ length: 3000 }, (_, i) => `Entry ${2999 - i}`));
    const today = new Date().toISOString().slice(0, 10);
    const page = await client.balances.transactions.list({
      created_at_from: today,
      created_at_to: today,
      perPage: 100,
    });
    expect(page.data).toHaveLength(100);
    expect(page.meta?.per_page).toBe('100');
    expect(page.data[0]?.datetime).toMatch(/\+00:00$/);
    expect(
      (await client.balances.transactions.list({ created_at_from: '2000-01-01', created_at_to: '2000-01-02' })).data,
    ).toEqual([]);
  });

  it('refuses a range that ends before it starts, and pages over 100', async () => {
    await expect(
      client.balances.transactions.list({ created_at_from: '2026-11-22', created_at_to: '2026-11-21' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'created_at_to' }],
    });
    const raw = await call(sandbox, 'GET', '/v1/balances/processor/transactions?per_page=101');
    expect(raw.status).toBe(422);
    const wrongSegment = createPaymentsClient({
      apiBaseUrl: sandbox.url,
      apiKey: sandbox.seed.apiKey,
      balanceProcessorSegment: 'other',
    });
    await expect(wrongSegment.balances.transactions.list()).rejects.toMatchObject({ code: 'not_found' });
  });
});

describe('with a Bearer connection', () => {
  // PKCE is required by the OAuth client (issue 12): the approval carries the verifier's challenge.
  const VERIFIER = 'v'.repeat(43);

  it('acts within its scopes: reads pass, writes outside the scope are forbidden naming it', async () => {
    const redirect = 'https://platform.example/cb';
    const app = await registerApp(sandbox, {
      businessId: business(),
      name: 'Reader',
      redirectUris: [redirect],
      scopes: ['business:read', 'payments:read'],
    });
    const { code } = await approveOnSandbox(sandbox, {
      userId: '00000000-0000-4000-8000-0000000000a1',
      clientId: app.client_id,
      redirectUri: redirect,
      scope: 'payments:read',
      businessId: business(),
      codeVerifier: VERIFIER,
    });
    const tokens = await createOAuthClient({
      apiBaseUrl: sandbox.url,
      clientId: app.client_id,
      clientSecret: app.client_secret,
    }).exchangeCode({ code, codeVerifier: VERIFIER, redirectUri: redirect });
    const bearer = createPaymentsClient({
      apiBaseUrl: sandbox.url,
      auth: { apply: (headers) => headers.set('authorization', `Bearer ${tokens.accessToken}`) },
      platformKey: sandbox.seed.platformKey,
    });
    expect((await bearer.paymentRequests.list()).data.length).toBeGreaterThan(0);
    expect((await bearer.balances.transactions.list({ perPage: 1 })).data).toHaveLength(1);
    await expect(bearer.paymentRequests.create({ amount: 1, currency: 'SGD' })).rejects.toMatchObject({
      code: 'forbidden',
      message: 'This token lacks the scope payments:create',
    });
    await expect(bearer.products.create({ name: 'x', price: 1, currency: 'SGD' })).rejects.toMatchObject({
      message: 'This token lacks the scope commerce:create',
    });
    await expect(bearer.refunds.create({ amount: 1, payment_id: UNKNOWN })).rejects.toMatchObject({
      message: 'This token lacks the scope payments:refund',
    });
  });
});
