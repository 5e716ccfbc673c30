/**
 * The hosted pages as a shopper on a phone sees them (issue 13 item 3), in Chromium against the demo: the
 * checkout's way back is a cancel that changes nothing, every control is a 44 px target, methods are named
 * and chosen by their whole row, dark mode follows the device, no page scrolls sideways, and the demo's
 * /orders is a page for people with its JSON kept for scripts.
 */
import { call } from '@paykit/test-support/sandbox-calls';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoInChromium } from '../support/demo-in-chromium.js';

const e2e = demoInChromium();
const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } as const;

/** Opens the shop in a fresh context and goes to the checkout of `product`; returns the request's id. */
async function checkoutOf(product: string, options: Parameters<typeof e2e.browser.newContext>[0] = {}) {
  const context = await e2e.browser.newContext(options);
  const page = await context.newPage();
  await page.goto(e2e.demo.url);
  await page.getByRole('button', { name: `Buy ${product}` }).click();
  await page.waitForURL((url) => url.origin === e2e.demo.sandbox.url);
  return { context, page, id: new URL(page.url()).pathname.split('/').pop()! };
}

/** Heights of the controls a finger presses inside `<main>` that are shorter than 44 px. */
const smallTargets = (page: Page) =>
  page.$$eval('main button, main a, main label.choice, main input:not([type=hidden])', (elements) =>
    elements
      .map((element) => ({ element, box: element.getBoundingClientRect() }))
      .filter(({ element, box }) => {
        // A radio or email input counts through its whole-row label or its own box.
        if (element instanceof HTMLInputElement && element.type === 'radio') return false;
        return box.height < 44 && box.width > 0;
      })
      .map(({ element, box }) => `${element.outerHTML.slice(0, 80)}: ${Math.round(box.height)} px`),
  );

/** The relative luminance of the page's background (0 black, 1 white). */
const backgroundLuminance = (page: Page) =>
  page.evaluate(() => {
    const parse = (color: string) => (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
    const seen = [document.body, document.documentElement]
      .map((element) => getComputedStyle(element).backgroundColor)
      .find((color) => !/rgba\(0, 0, 0, 0\)|transparent/.test(color));
    const [r = 255, g = 255, b = 255] = parse(seen ?? 'rgb(255, 255, 255)').map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  });

describe('the sandbox checkout', () => {
  it('"Cancel and return" goes back to the shop as a cancel and leaves the payment request pending', async () => {
    const { context, page, id } = await checkoutOf('Enamel mug');
    await page.getByRole('link', { name: 'Cancel and return to Demo Store' }).click();
    await page.waitForURL((url) => url.origin === e2e.demo.url && url.pathname === '/return');
    const back = new URL(page.url());
    expect(Object.fromEntries(back.searchParams)).toEqual({ reference: id, status: 'canceled' });
    const request = await call(e2e.demo.sandbox, 'GET', `/v1/payment-requests/${id}`);
    expect(request.body.status).toBe('pending');
    const charges = (await call(e2e.demo.sandbox, 'GET', '/v1/charges')).body.data as { payment_request_id: string }[];
    expect(charges.filter((charge) => charge.payment_request_id === id)).toEqual([]);
    await context.close();
  });

  it('names the methods, selects one by a tap anywhere on its row, and posts its code', async () => {
    const { context, page, id } = await checkoutOf('Organic T-shirt', PHONE);
    const methods = page.getByRole('radio');
    expect(
      await methods.evaluateAll((radios) => radios.map((r) => r.closest('label')!.innerText.split('\n')[0])),
    ).toEqual(['PayNow', 'Card']);
    await page.getByText('Visa, Mastercard, American Express').tap();
    expect(await page.getByRole('radio', { name: /^Card/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: /^Pay / }).tap();
    await page.waitForURL((url) => url.origin === e2e.demo.url);
    const charges = (await call(e2e.demo.sandbox, 'GET', '/v1/charges')).body.data as {
      payment_request_id: string;
      payment_method: { code: string };
    }[];
    // The service's payment_method object: the code the checkout posted is its `code`.
    expect(charges.find((charge) => charge.payment_request_id === id)?.payment_method.code).toBe('card');
    await context.close();
  });

  it('has 44 px targets and no sideways scrolling on a phone', async () => {
    const { context, page } = await checkoutOf('Harbour map print', PHONE);
    expect(await smallTargets(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.goto(`${e2e.demo.sandbox.url}/dashboard/sign-in`);
    expect(await smallTargets(page)).toEqual([]);
    await context.close();
  });

  it('follows the device into dark mode, as the demo shop does', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context, page } = await checkoutOf('Enamel mug', { colorScheme });
      const pages = [page.url(), `${e2e.demo.sandbox.url}/dashboard/sign-in`, e2e.demo.url, `${e2e.demo.url}/orders`];
      for (const url of pages) {
        await page.goto(url);
        const luminance = await backgroundLuminance(page);
        if (colorScheme === 'dark') expect(luminance, url).toBeLessThan(0.05);
        else expect(luminance, url).toBeGreaterThan(0.8);
      }
      await context.close();
    }
  });
});

describe("the demo's /orders", () => {
  it('is a table for people, and the same orders as JSON for scripts', async () => {
    const { context, page, id } = await checkoutOf('Enamel mug');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL((url) => url.origin === e2e.demo.url);
    await expect.poll(() => e2e.demo.orders.list().some((order) => order.id === id), { timeout: 10_000 }).toBe(true);

    const html = await fetch(`${e2e.demo.url}/orders`, { headers: { accept: 'text/html' } });
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    await page.goto(`${e2e.demo.url}/orders`);
    const row = page.locator(`tr[data-order="${id}"]`);
    expect(await row.locator('td').allInnerTexts()).toEqual([
      id,
      'Paid',
      'SGD\u00a012.50',
      'payment_request.completed',
    ]);

    for (const [path, accept] of [
      ['/orders.json', '*/*'],
      ['/orders', 'application/json'],
    ] as const) {
      const json = await fetch(`${e2e.demo.url}${path}`, { headers: { accept } });
      expect(json.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(await json.json(), path).toEqual(e2e.demo.orders.list());
    }
    await context.close();
  });
});
