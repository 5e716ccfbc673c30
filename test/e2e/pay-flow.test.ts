/**
 * The pay flow as a shopper lives it, in Chromium: the demo store (script tag, strict CSP), the server
 * handler, the sandbox checkout, the return page, and the webhook reaching the shop once.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoInChromium } from '../support/demo-in-chromium.js';

const e2e = demoInChromium();

/** A fresh page that records console errors and Content-Security-Policy violations. */
async function openStore(): Promise<{ page: Page; problems: string[] }> {
  const page = await e2e.browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  await page.goto(e2e.demo.url);
  return { page, problems };
}

/** Waits until the sandbox has settled every webhook delivery. */
async function webhooksSettled(): Promise<void> {
  await expect
    .poll(() => e2e.demo.sandbox.context.webhooks.deliveries.every((d) => d.status !== 'pending'), { timeout: 10_000 })
    .toBe(true);
}

async function buy(page: Page, product: string): Promise<string> {
  await page.getByRole('button', { name: `Buy ${product}` }).click();
  await page.waitForURL((url) => url.origin === e2e.demo.sandbox.url);
  return new URL(page.url()).pathname.split('/').pop()!;
}

describe('pay flow in Chromium', () => {
  it('a shopper pays, comes back to the truth, and the shop hears of it once', async () => {
    const { page, problems } = await openStore();
    const id = await buy(page, 'Enamel mug');
    await expect.poll(() => page.getByTestId('amount').textContent()).toBe('SGD\u00a012.50');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL((url) => url.origin === e2e.demo.url && url.pathname === '/return');
    expect(new URL(page.url()).searchParams.get('reference')).toBe(id);
    const status = page.locator('paykit-return').getByRole('status');
    await expect
      .poll(() => status.textContent(), { timeout: 10_000 })
      .toMatch(/payment (was )?(received|successful|complete)/i);

    await webhooksSettled();
    // The shop heard of it in both of the service's formats, signed with its salt, and recorded it once.
    const told = e2e.demo.sandbox.context.webhooks.deliveries.filter(
      (d) => d.event === 'payment_request.completed' && d.request.body.includes(id),
    );
    expect(told.map((d) => [d.format, d.status, d.response_status]).sort()).toEqual([
      ['event', 'delivered', 200],
      ['notification', 'delivered', 200],
    ]);
    expect(e2e.demo.orders.list().find((order) => order.id === id)).toEqual({
      id,
      status: 'completed',
      amount: '12.50',
      currency: 'SGD',
      events: { 'payment_request.completed': 1 },
    });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a failed payment shows as failed, even when the return URL is edited to say completed', async () => {
    const { page, problems } = await openStore();
    const id = await buy(page, 'Organic T-shirt');
    await page.getByRole('button', { name: 'Fail payment' }).click();
    await page.waitForURL((url) => url.pathname === '/return');
    const status = page.locator('paykit-return').getByRole('status');
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/fail|not completed|declined/i);

    await page.goto(`${e2e.demo.url}/return?reference=${id}&status=completed`);
    await expect.poll(() => status.textContent(), { timeout: 10_000 }).toMatch(/fail|not completed|declined/i);
    await webhooksSettled();
    expect(e2e.demo.orders.list().find((order) => order.id === id)?.events).toEqual({ 'payment_request.failed': 1 });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('after a failed payment on the real checkout, "Try again" goes back to the page that started it', async () => {
    const { page, problems } = await openStore();
    await page.goto(`${e2e.demo.url}/products/sku-tee`);
    await buy(page, 'Organic T-shirt');
    await page.getByRole('button', { name: 'Fail payment' }).click();
    await page.waitForURL((url) => url.pathname === '/return');
    // The checkout sends no referrer, and the return page sets no retry-url: the pay button remembered its page.
    expect(await page.evaluate(() => document.referrer)).toBe('');
    const again = page.locator('paykit-return').getByRole('link', { name: 'Try again' });
    await expect.poll(() => again.getAttribute('href'), { timeout: 10_000 }).toBe(`${e2e.demo.url}/products/sku-tee`);
    await again.click();
    await page.waitForURL(`${e2e.demo.url}/products/sku-tee`);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a double click makes one payment request', async () => {
    const { page } = await openStore();
    const before = e2e.demo.sandbox.context.state.paymentRequests.size;
    await page.getByRole('button', { name: 'Buy Harbour map print' }).dblclick();
    await page.waitForURL((url) => url.origin === e2e.demo.sandbox.url);
    expect(e2e.demo.sandbox.context.state.paymentRequests.size).toBe(before + 1);
    await page.close();
  });

  it('a tap followed by a click while the first request is in flight makes one payment request', async () => {
    const context = await e2e.browser.newContext({ hasTouch: true });
    const page = await context.newPage();
    await page.goto(e2e.demo.url);
    // The API answers the create slowly, so that the click lands while the tap's request is in flight.
    const armed = await fetch(`${e2e.demo.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/v1/payment-requests', method: 'POST', kind: 'slow', delay_ms: 800 }),
    });
    expect(armed.status).toBe(201);
    const before = e2e.demo.sandbox.context.state.paymentRequests.size;
    const button = page.getByRole('button', { name: 'Buy Harbour map print' });
    await button.tap();
    // `force`: Playwright would otherwise wait for the busy button (aria-disabled) to be enabled; a person does not.
    await button.click({ force: true });
    await page.waitForURL((url) => url.origin === e2e.demo.sandbox.url);
    expect(e2e.demo.sandbox.context.state.paymentRequests.size).toBe(before + 1);
    await context.close();
  });

  it('the themes page shows the same button under three token sets', async () => {
    const page = await e2e.browser.newPage();
    await page.goto(`${e2e.demo.url}/themes`);
    const backgrounds = await page.$$eval('paykit-pay-button', (buttons) =>
      buttons.map((b) => getComputedStyle(b.shadowRoot!.querySelector('button')!).backgroundColor),
    );
    expect(new Set(backgrounds).size).toBe(3);
    await page.close();
  });

  it('coming back with the back button finds the button usable again', async () => {
    const { page } = await openStore();
    await buy(page, 'Enamel mug');
    await page.goBack();
    const button = page.getByRole('button', { name: 'Buy Enamel mug' });
    await expect.poll(() => button.getAttribute('aria-busy')).not.toBe('true');
    await button.click();
    await page.waitForURL((url) => url.origin === e2e.demo.sandbox.url);
    await page.close();
  });
});

describe('the classic-script build (pages without modules)', () => {
  it('defines every element, exposes the global Paykit, and the pay button reaches the checkout', async () => {
    const page = await e2e.browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    // A legacy page: one plain <script> tag, no module anywhere.
    await page.route(`${e2e.demo.url}/legacy`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><head><script src="/assets/paykit.iife.js"></script></head><body>
          <paykit-pay-button endpoint="/paykit" reference="sku-mug" amount="12.50" currency="SGD"
            checkout-origins="${e2e.demo.sandbox.url}">Buy Enamel mug</paykit-pay-button></body></html>`,
      }),
    );
    await page.goto(`${e2e.demo.url}/legacy`);
    expect(
      await page.evaluate(() => {
        const paykit = (globalThis as unknown as { Paykit: Record<string, unknown> }).Paykit;
        return {
          pay: customElements.get('paykit-pay-button') === paykit.PaykitPayButton,
          connect: customElements.get('paykit-connect-button') === paykit.PaykitConnectButton,
          ret: customElements.get('paykit-return') === paykit.PaykitReturn,
          headless: typeof paykit.startCheckout === 'function' && typeof paykit.handleReturn === 'function',
        };
      }),
    ).toEqual({ pay: true, connect: true, ret: true, headless: true });
    const id = await buy(page, 'Enamel mug');
    expect(e2e.demo.sandbox.context.state.paymentRequests.get(id)).toBeDefined();
    expect(problems).toEqual([]);
    await page.close();
  });
});
