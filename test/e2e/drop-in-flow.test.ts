/**
 * The drop-in checkout as a shopper lives it, in Chromium: the demo's Enamel mug page (`<paykit-pay-button
 * drop-in>`, the built script-tag file, a strict Content-Security-Policy with Trusted Types) opens the sandbox's
 * drop-in over the page; paying, failing and closing there; the shop's server confirming each outcome and hearing of
 * it once; the redirect when the drop-in's script cannot load; and, on a page of its own, a frame of another
 * origin that forges the drop-in's messages.
 */
import { createPaykitHandler } from '@paykit/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocking, runAxe } from '../support/axe.js';
import { demoInChromium } from '../support/demo-in-chromium.js';
import { pageWith, startPlatformPages, type PlatformPages } from '../support/platform-pages.js';

const e2e = demoInChromium();

/** The mug's page, with the errors and policy violations it reports. */
async function openMugPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await (await e2e.browser.newContext()).newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  await page.goto(`${e2e.demo.url}/products/sku-mug`);
  return { page, problems };
}

const buyButton = (page: Page) => page.getByRole('button', { name: 'Buy Enamel mug' });
const overlay = (page: Page) => page.getByRole('dialog', { name: 'Checkout' });
const checkout = (page: Page) => page.frameLocator('iframe[title="Checkout"]');
const shown = (page: Page, part: 'status' | 'error') => page.locator(`paykit-pay-button [part=${part}]`);
const requests = () => e2e.demo.sandbox.context.state.paymentRequests;

/** Clicks "Buy", waits for the overlay's checkout, and returns the payment request's id. */
async function openOverlay(page: Page): Promise<string> {
  await buyButton(page).click();
  await checkout(page).getByRole('button', { name: /^Pay / }).waitFor();
  const src = await page.locator('iframe[title="Checkout"]').getAttribute('src');
  return new URL(src!).pathname.split('/').pop()!;
}

describe('drop-in checkout on the demo', () => {
  it('a shopper pays over the page and stays: the confirmed payment shows under the button, and the shop hears of it once', async () => {
    const { page, problems } = await openMugPage();
    const id = await openOverlay(page);
    await checkout(page).getByRole('button', { name: /^Pay / }).click();
    await expect
      .poll(() => shown(page, 'status').textContent(), { timeout: 10_000 })
      .toBe('Payment received. Thank you!');
    expect(await overlay(page).count()).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/products/sku-mug');
    expect(requests().get(id)?.status).toBe('completed');
    await expect
      .poll(() => e2e.demo.orders.list().find((order) => order.id === id)?.status, { timeout: 10_000 })
      .toBe('completed');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the open overlay passes axe (WCAG 2.2 A/AA, best practices) with no serious or critical finding', async () => {
    // axe is injected into the page: the page's policy is bypassed for that, in this context only.
    const page = await (await e2e.browser.newContext({ bypassCSP: true })).newPage();
    await page.goto(`${e2e.demo.url}/products/sku-mug`);
    await openOverlay(page);
    const findings = await runAxe(page);
    expect(findings.filter(blocking)).toEqual([]);
    expect(await overlay(page).evaluate((dialog) => dialog.matches(':modal'))).toBe(true);
    await page.context().close();
  });

  it('a failed payment shows as failed under the button', async () => {
    const { page, problems } = await openMugPage();
    const id = await openOverlay(page);
    await checkout(page).getByRole('button', { name: 'Fail payment' }).click();
    await expect.poll(() => shown(page, 'error').textContent(), { timeout: 10_000 }).toBe('The payment failed.');
    expect(await overlay(page).count()).toBe(0);
    expect(requests().get(id)?.status).toBe('failed');
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('closing gives focus back to the button; the request stays pending and the next click reopens it', async () => {
    const { page, problems } = await openMugPage();
    const id = await openOverlay(page);
    const before = requests().size;
    await page.keyboard.press('Escape');
    // Escape reaches the checkout frame (focus is there); its script asks the overlay to close.
    await expect.poll(() => overlay(page).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.localName)).toBe('paykit-pay-button');
    expect(requests().get(id)?.status).toBe('pending');
    expect(await openOverlay(page)).toBe(id);
    expect(requests().size).toBe(before);
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => overlay(page).count()).toBe(0);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('when the drop-in script cannot load (a blocker), the shopper is taken to the checkout page instead', async () => {
    const { page } = await openMugPage();
    await page.route('**/hitpay.js', (route) => route.abort('blockedbyclient'));
    const before = requests().size;
    await buyButton(page).click();
    await page.waitForURL((url) => url.origin === e2e.demo.sandbox.url && url.pathname.startsWith('/checkout/'));
    expect(new URL(page.url()).searchParams.get('mode')).toBe(null);
    expect(requests().size).toBe(before + 1);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL((url) => url.origin === e2e.demo.url && url.pathname === '/return');
    await page.context().close();
  });
});

describe('drop-in checkout on a page with a frame of another origin', () => {
  let shop: PlatformPages;
  let stranger: PlatformPages;
  let statusChecks = 0;

  beforeAll(async () => {
    shop = await startPlatformPages();
    stranger = await startPlatformPages();
    const handler = createPaykitHandler({
      api: { apiBaseUrl: e2e.demo.sandbox.url, apiKey: e2e.demo.sandbox.seed.apiKey },
      publicOrigin: shop.url,
      createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD', purpose: 'Enamel mug' }),
    });
    shop.mount('/paykit', async (request) => {
      if (request.method === 'GET' && new URL(request.url).pathname.startsWith('/paykit/payment-requests/'))
        statusChecks += 1;
      return handler(request);
    });
    shop.page(
      '/',
      pageWith(
        'Shop',
        `<paykit-pay-button endpoint="/paykit" reference="sku-mug" amount="12.50" currency="SGD"
          checkout-origins="${e2e.demo.sandbox.url}" drop-in>Buy Enamel mug</paykit-pay-button>`,
      ),
      {
        'content-security-policy': [
          "default-src 'self'",
          `script-src 'self' ${e2e.demo.sandbox.url}`,
          `frame-src ${e2e.demo.sandbox.url} ${stranger.url}`,
          "require-trusted-types-for 'script'",
          'trusted-types lit-html paykit-drop-in',
        ].join('; '),
      },
    );
    // Pages whose policy refuses the drop-in: its script (script-src), or its frame (frame-src).
    const button = `<paykit-pay-button endpoint="/paykit" reference="sku-mug" amount="12.50" currency="SGD"
      checkout-origins="${e2e.demo.sandbox.url}" drop-in>Buy Enamel mug</paykit-pay-button>`;
    shop.page('/no-script', pageWith('Shop', button), {
      'content-security-policy': "default-src 'self'; script-src 'self'",
    });
    shop.page('/no-frame', pageWith('Shop', button), {
      'content-security-policy': `default-src 'self'; script-src 'self' ${e2e.demo.sandbox.url}; frame-src 'none'`,
    });
    stranger.page('/forger', '<!doctype html><title>Forger</title><script type="module" src="/forger.js"></script>');
    // Says "paid" to its parent in every way the drop-in's frame speaks, and as the script's own callbacks would.
    stranger.script(
      '/forger.js',
      `const id = new URL(location.href).searchParams.get('id');
      for (const type of ['success', 'error', 'close'])
        window.parent.postMessage({ source: 'hitpay-drop-in', type, paymentRequest: id, status: 'completed' }, '*');
      document.title = 'posted';`,
    );
  });
  afterAll(async () => {
    await Promise.all([shop?.close(), stranger?.close()]);
  });

  for (const [path, refused] of [
    ['/no-script', 'its script'],
    ['/no-frame', 'its frame'],
  ])
    it(`a page whose Content-Security-Policy refuses ${refused} sends the shopper to the checkout page`, async () => {
      const page = await (await e2e.browser.newContext()).newPage();
      await page.goto(`${shop.url}${path}`);
      const started = Date.now();
      await buyButton(page).click();
      await page.waitForURL((url) => url.origin === e2e.demo.sandbox.url && url.pathname.startsWith('/checkout/'));
      // At once, not after the drop-in's own time limits (10 s).
      expect(Date.now() - started).toBeLessThan(5_000);
      await page.context().close();
    });

  it('a forged message from another frame changes nothing: no check, no outcome, the overlay stays', async () => {
    const page = await (await e2e.browser.newContext()).newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    await page.goto(shop.url);
    const id = await openOverlay(page);
    const checks = statusChecks;
    await page.evaluate(
      ({ url, id }) => {
        const forger = document.createElement('iframe');
        forger.src = `${url}/forger?id=${id}`;
        document.body.append(forger);
      },
      { url: stranger.url, id },
    );
    await expect.poll(() => page.frame({ url: /\/forger/ })?.title()).toBe('posted');
    await page.waitForTimeout(500);
    expect(statusChecks).toBe(checks);
    expect(await overlay(page).count()).toBe(1);
    expect(await page.locator('paykit-pay-button [part=status], paykit-pay-button [part=error]').count()).toBe(0);
    expect(requests().get(id)?.status).toBe('pending');
    // The real checkout in the overlay still pays, and that is believed once the backend confirms it.
    await checkout(page).getByRole('button', { name: /^Pay / }).click();
    await expect
      .poll(() => shown(page, 'status').textContent(), { timeout: 10_000 })
      .toBe('Payment received. Thank you!');
    expect(statusChecks).toBeGreaterThan(checks);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});
