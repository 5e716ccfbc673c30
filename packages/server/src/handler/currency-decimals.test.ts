/**
 * Money as the currency has it, on the server: the handler refuses a shown price, or a price its hook decided,
 * with more decimals than the currency has (JPY has none), naming the currency; the API client refuses such a
 * body before sending it. Real HTTP all the way: a node:http server with the handler, the sandbox behind it.
 */
import type { ShopperChoice } from '@paykit/core';
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeListener } from '../adapters/node.js';
import { createMerchantApi } from '../api/merchant-api.js';
import { createPaykitHandler } from './create-handler.js';

/** The shop's prices: a kettle in yen, and a mistake (a yen price with sen). */
const PRICES: Record<string, { amount: string; currency: string; platform_commission_amount?: string }> = {
  'sku-kettle': { amount: '1250', currency: 'JPY' },
  'sku-typo': { amount: '1250.50', currency: 'JPY' },
  // The currency typo of issue 35: Sudanese pounds for Singapore dollars, and a code that is no currency.
  'sku-mug': { amount: '12.50', currency: 'SDG' },
  'sku-cap': { amount: '8.00', currency: 'SGX' },
  // A commission above the price: the API's rule (spec 2.7), which the client's schema applies before sending.
  'sku-bundle': { amount: '10.00', currency: 'SGD', platform_commission_amount: '12.00' },
};

/** What the handler's logger was told. */
const lines: string[] = [];

let sandbox: RunningSandbox;
let server: Server;
let base: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const handler = createPaykitHandler({
    api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
    createPaymentRequest: (choice: ShopperChoice) => ({ ...PRICES[choice.reference!]!, purpose: 'Kettle' }),
    returnUrl: 'http://127.0.0.1:1/return',
    logger: {
      warn: (m) => void lines.push(m),
      error: (m) => void lines.push(m),
    },
  });
  server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await sandbox.close();
});

const created = async () =>
  (
    (await (
      await fetch(`${sandbox.url}/v1/payment-requests`, { headers: { 'x-business-api-key': sandbox.seed.apiKey } })
    ).json()) as { data: unknown[] }
  ).data.length;

async function startCheckout(choice: ShopperChoice) {
  const response = await fetch(`${base}/paykit/payment-requests`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
    body: JSON.stringify(choice),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('decimals by currency, on the server', () => {
  it('the handler refuses a shown price of 1250.50 JPY, naming JPY, and creates nothing', async () => {
    const before = await created();
    const { status, body } = await startCheckout({ reference: 'sku-kettle', amount: '1250.50', currency: 'JPY' });
    expect(status).toBe(422);
    expect(body.code).toBe('validation_failed');
    expect(body.message).toContain('JPY');
    expect(body.errors).toEqual([{ path: 'amount', message: 'must have no decimal places in JPY' }]);
    expect(await created()).toBe(before);
  });

  it("a hook that decides 1250.50 JPY is the shop's mistake: 500 checkout_misconfigured, the log names it", async () => {
    const before = await created();
    lines.length = 0;
    const { status, body } = await startCheckout({ reference: 'sku-typo' });
    expect(status).toBe(500);
    expect(body).toEqual({
      code: 'checkout_misconfigured',
      message: 'This shop cannot take this payment right now. Please try again later.',
    });
    expect(lines).toEqual([
      'paykit: checkout_misconfigured: createPaymentRequest decided the amount "1250.50" JPY, which must have no ' +
        "decimal places in JPY: return the price as the currency has it (a decimal string such as '12.50').",
    ]);
    expect(await created()).toBe(before);
  });

  it('the handler takes 1250 JPY, shown as 1250 or 1250.00', async () => {
    for (const amount of ['1250', '1250.00']) {
      const { status, body } = await startCheckout({ reference: 'sku-kettle', amount, currency: 'JPY' });
      expect(status).toBe(201);
      expect(body).toMatchObject({ amount: '1250.00', currency: 'JPY' });
    }
  });

  it('a currency typo (SDG for the SGD the page shows) is not a price change: the log names both', async () => {
    const before = await created();
    lines.length = 0;
    for (let i = 0; i < 2; i += 1) {
      const { status, body } = await startCheckout({ reference: 'sku-mug', amount: '12.50', currency: 'SGD' });
      expect(status).toBe(500);
      expect(body.code).toBe('checkout_misconfigured');
      expect(body.message).not.toMatch(/price has changed/);
    }
    // Once: the second click is counted, not written.
    expect(lines).toEqual([
      'paykit: checkout_misconfigured: the page showed a price in SGD and createPaymentRequest decided SDG: if the ' +
        "page shows that currency, set the pay button's currency to the hook's or correct the hook's (a typo such " +
        'as SDG for SGD?); if it does not, someone sent another currency than the page. Nothing was created.',
    ]);
    expect(await created()).toBe(before);
  });

  it("a page's currency that is no currency is the caller's mistake: 422 naming the field, no line in the log", async () => {
    const before = await created();
    lines.length = 0;
    // No page of the shop sends it (a hostile or broken caller): not the shop's configuration to fix.
    const { status, body } = await startCheckout({ reference: 'sku-mug', amount: '12.50', currency: '<SCRIPT>' });
    expect(status).toBe(422);
    expect(body.code).toBe('validation_failed');
    expect(body.errors).toEqual([{ path: 'currency', message: 'must be an ISO 4217 currency code, such as SGD' }]);
    expect(lines).toEqual([]);
    expect(await created()).toBe(before);
  });

  it('a currency that is no ISO 4217 code is refused before the API is called, naming it', async () => {
    const before = await created();
    lines.length = 0;
    const { status, body } = await startCheckout({ reference: 'sku-cap' });
    expect(status).toBe(500);
    expect(body.code).toBe('checkout_misconfigured');
    expect(lines).toEqual([
      expect.stringContaining('createPaymentRequest decided the currency "SGX", which is not an ISO 4217'),
    ]);
    expect(await created()).toBe(before);
  });

  it("the API's refusal of a price field the hook decided is the shop's too, with the API's words in the log", async () => {
    const before = await created();
    lines.length = 0;
    const { status, body } = await startCheckout({ reference: 'sku-bundle' });
    expect(status).toBe(500);
    expect(body.code).toBe('checkout_misconfigured');
    expect(lines).toEqual([
      expect.stringMatching(
        /^paykit: checkout_misconfigured: the Payments API refused the price createPaymentRequest decided: platform_commission_amount /,
      ),
    ]);
    expect(await created()).toBe(before);
  });

  it('a changed amount is still a price change (409 amount_mismatch)', async () => {
    const { status, body } = await startCheckout({ reference: 'sku-kettle', amount: '1200', currency: 'JPY' });
    expect(status).toBe(409);
    expect(body.code).toBe('amount_mismatch');
  });

  it('the API client refuses 1250.5 JPY before sending it', async () => {
    const api = createMerchantApi({ apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey });
    const before = await created();
    await expect(api.createPaymentRequest({ amount: 1250.5, currency: 'JPY' })).rejects.toMatchObject({
      code: 'validation_failed',
      errors: [{ path: 'amount', message: 'must have no decimal places in JPY' }],
    });
    expect(await created()).toBe(before);
    await expect(api.createPaymentRequest({ amount: 12.5, currency: 'SGD' })).resolves.toMatchObject({
      amount: '12.50',
    });
  });
});
