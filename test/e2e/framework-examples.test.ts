/**
 * The framework examples of the demo, built by Vite as apps are: React through `@paykit/elements/react`, Vue
 * with the custom element used directly. In Chromium under the demo's strict CSP: each renders the shop, sends
 * the shopper to the sandbox checkout on one payment request, and shows the element's error when the API fails.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { demoInChromium } from '../support/demo-in-chromium.js';

const e2e = demoInChromium();

async function open(path: string): Promise<{ page: Page; problems: string[] }> {
  const page = await e2e.browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  await page.goto(`${e2e.demo.url}${path}`);
  return { page, problems };
}

describe.each(['react', 'vue'])('the %s example', (framework) => {
  it('renders the shop and sends the shopper to the checkout on one payment request', async () => {
    const { page, problems } = await open(`/${framework}`);
    const button = page.getByRole('button', { name: 'Buy Enamel mug' });
    await expect.poll(() => button.count()).toBe(1);
    const before = e2e.demo.sandbox.context.state.paymentRequests.size;
    await button.click();
    await page.waitForURL((url) => url.origin === e2e.demo.sandbox.url);
    await expect.poll(() => page.getByTestId('amount').textContent()).toBe('SGD\u00a012.50');
    expect(e2e.demo.sandbox.context.state.paymentRequests.size).toBe(before + 1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows the element's error through the framework's event binding when the API fails", async () => {
    const { page, problems } = await open(`/${framework}`);
    const answer = await fetch(`${e2e.demo.sandbox.url}/_sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: '/v1/payment-requests', method: 'POST', kind: 'status', status: 500 }),
    });
    expect(answer.status).toBe(201);
    const product = page.locator('article[data-sku="sku-tee"]');
    await product.getByRole('button', { name: 'Buy Organic T-shirt' }).click();
    await expect
      .poll(() => product.locator('.example-status').textContent())
      .toMatch(/^Could not start the checkout \(\w+\)\.$/);
    expect(page.url()).toBe(`${e2e.demo.url}/${framework}`);
    // The browser's own line about the failed request is expected; no CSP violation nor anything else is.
    expect(problems).toEqual(['Failed to load resource: the server responded with a status of 502 (Bad Gateway)']);
    await page.close();
  });
});
