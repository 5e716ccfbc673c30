/**
 * The sandbox's drop-in (`/hitpay.js`), in Chromium, driven by a shop page written for the service's own drop-in
 * as its public WooCommerce plugin writes it (`if (!HitPay.inited) HitPay.init(url, { domain, apiDomain }, {
 * onClose, onSuccess, onError }); HitPay.toggle({ paymentRequest })`), under a strict Content-Security-Policy with
 * Trusted Types. What the callbacks receive is written into the page, where the test reads it; the payment
 * request's status is read from the sandbox itself.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { launchChromium } from '@paykit/test-support/browser';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPlatformPages, type PlatformPages } from '../support/platform-pages.js';

let sandbox: RunningSandbox;
let shop: PlatformPages;
/** Another origin, whose frame on the shop's page posts forged messages. */
let stranger: PlatformPages;
let browser: Browser;

/** The shop's script: the service's documented calls, nothing of the sandbox's own. */
const SHOP_JS = `
const log = (text) => {
  const line = document.createElement('li');
  line.textContent = text;
  document.getElementById('log').append(line);
};
document.getElementById('pay').addEventListener('click', async () => {
  const method = document.getElementById('pay').dataset.method;
  const { id, url } = await (await fetch('/create', { method: 'POST' })).json();
  document.getElementById('pay').dataset.id = id;
  if (!window.HitPay.inited) {
    window.HitPay.init(url, { domain: 'sandbox.hit-pay.com', apiDomain: 'api.sandbox.hit-pay.com' }, {
      onClose: () => log('closed'),
      onSuccess: (data) => log('success ' + JSON.stringify(data)),
      onError: (error) => log('error ' + error),
    });
  }
  window.HitPay.toggle(method ? { paymentRequest: id, method } : { paymentRequest: id });
});
`;

/** The forged frame: tells its parent, of any origin, that the payment in the id it is given succeeded. */
const FORGER_JS = `
const id = new URL(location.href).searchParams.get('id');
for (const type of ['success', 'close', 'error'])
  window.parent.postMessage({ source: 'hitpay-drop-in', type, paymentRequest: id, status: 'completed' }, '*');
document.title = 'posted';
`;

const shopPage = (sandboxUrl: string, method = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script src="${sandboxUrl}/hitpay.js"></script>
<script type="module" src="/shop.js"></script></head>
<body><main><h1>Shop</h1><button id="pay" type="button" data-method="${method}">Pay with the drop-in</button><ol id="log"></ol></main></body></html>`;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  shop = await startPlatformPages();
  stranger = await startPlatformPages();
  const policy = (frames: string) =>
    [
      "default-src 'self'",
      `script-src 'self' ${sandbox.url}`,
      `frame-src ${frames}`,
      "style-src 'self'",
      "base-uri 'none'",
      "object-src 'none'",
      "require-trusted-types-for 'script'",
      "trusted-types 'none'",
    ].join('; ');
  shop.page('/', shopPage(sandbox.url), { 'content-security-policy': policy(sandbox.url) });
  shop.page('/card', shopPage(sandbox.url, 'card'), { 'content-security-policy': policy(sandbox.url) });
  shop.page('/with-stranger', shopPage(sandbox.url), {
    'content-security-policy': policy(`${sandbox.url} ${stranger.url}`),
  });
  shop.script('/shop.js', SHOP_JS);
  shop.mount('/create', async () => {
    const answer = await fetch(`${sandbox.url}/v1/payment-requests`, {
      method: 'POST',
      headers: { 'x-business-api-key': sandbox.seed.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: '12.50',
        currency: 'SGD',
        purpose: 'Enamel mug',
        reference_number: 'order-1042',
        payment_methods: ['paynow_online', 'card'],
        redirect_url: `${shop.url}/return`,
      }),
    });
    return new Response(await answer.text(), { headers: { 'content-type': 'application/json' } });
  });
  stranger.page('/forger', '<!doctype html><title>Forger</title><script type="module" src="/forger.js"></script>');
  stranger.script('/forger.js', FORGER_JS);
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([shop?.close(), stranger?.close(), sandbox?.close()]);
});

/** A fresh page at `path` of the shop, recording page errors and CSP violations. */
async function openShop(path = '/'): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(`${shop.url}${path}`);
  return { page, problems };
}

/** Clicks the shop's button and waits for the overlay's checkout to have loaded (focus moved into it). */
async function openOverlay(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Pay with the drop-in' }).click();
  await expect.poll(() => page.getByRole('dialog', { name: 'Checkout' }).count()).toBe(1);
  const frame = page.frameLocator('iframe[title="Checkout"]');
  await frame.getByRole('button', { name: /^Pay / }).waitFor();
  // Focus moved into the frame, on its first control.
  await expect
    .poll(
      () =>
        frame
          .locator(':focus')
          .getAttribute('name')
          .catch(() => null),
      { timeout: 5_000 },
    )
    .toBe('payment_method');
  return (await page.locator('#pay').getAttribute('data-id'))!;
}

const log = (page: Page) => page.locator('#log li').allTextContents();
const statusOf = (id: string) => sandbox.context.state.paymentRequests.get(id)?.status;
const focusedId = (page: Page) => page.evaluate(() => document.activeElement?.id);

describe('the sandbox drop-in (/hitpay.js), driven as the service documents it', () => {
  it('pays in an accessible modal overlay; onSuccess gets the id; the overlay closes and focus returns', async () => {
    const { page, problems } = await openShop();
    const id = await openOverlay(page);
    expect(await page.evaluate(() => window.HitPay.inited)).toBe(true);
    // Modal: the page behind is inert while it is open.
    expect(await page.getByRole('dialog').evaluate((dialog) => dialog.matches(':modal'))).toBe(true);
    const frame = page.frameLocator('iframe[title="Checkout"]');
    await frame.getByRole('button', { name: /^Pay / }).click();
    await expect
      .poll(() => log(page))
      .toEqual([
        `success ${JSON.stringify({ payment_request_id: id, status: 'completed', reference_number: 'order-1042' })}`,
      ]);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await focusedId(page)).toBe('pay');
    expect(statusOf(id)).toBe('completed');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a failed payment calls onError with a message and stays open until closed; Escape closes it', async () => {
    const { page, problems } = await openShop();
    const id = await openOverlay(page);
    const frame = page.frameLocator('iframe[title="Checkout"]');
    await frame.getByRole('button', { name: 'Fail payment' }).click();
    await expect.poll(() => log(page)).toEqual(['error The payment was declined.']);
    expect(statusOf(id)).toBe('failed');
    await expect.poll(() => frame.getByRole('status').textContent()).toMatch(/declined/);
    expect(await page.getByRole('dialog', { name: 'Checkout' }).count()).toBe(1);
    // Escape with focus in the frame: the frame tells the overlay, which closes.
    await frame.locator('body').press('Escape');
    await expect.poll(() => log(page)).toEqual(['error The payment was declined.', 'closed']);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await focusedId(page)).toBe('pay');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('the close button and Escape close it with onClose; the request stays pending and opens again', async () => {
    const { page } = await openShop();
    const id = await openOverlay(page);
    await page.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => log(page)).toEqual(['closed']);
    expect(await focusedId(page)).toBe('pay');
    expect(statusOf(id)).toBe('pending');
    // Opened again by the shop's code for the same request; Escape with focus on the close button.
    await page.evaluate((paymentRequest) => window.HitPay.toggle({ paymentRequest }), id);
    await page.getByRole('button', { name: 'Close' }).focus();
    await page.keyboard.press('Escape');
    await expect.poll(() => log(page)).toEqual(['closed', 'closed']);
    expect(statusOf(id)).toBe('pending');
    await page.close();
  });

  it('preselects the method toggle names', async () => {
    const { page } = await openShop('/card');
    await openOverlay(page);
    const frame = page.frameLocator('iframe[title="Checkout"]');
    await expect.poll(() => frame.locator('input[name=payment_method]:checked').getAttribute('value')).toBe('card');
    await page.close();
  });

  it('ignores messages from a frame of another origin and from the page itself', async () => {
    const { page } = await openShop('/with-stranger');
    const id = await openOverlay(page);
    // The shop's page is inert behind the modal overlay, but any script can still add a frame and post.
    await page.evaluate(
      ({ url, id }) => {
        const forger = document.createElement('iframe');
        forger.src = `${url}/forger?id=${id}`;
        document.body.append(forger);
        for (const type of ['success', 'close', 'error'])
          window.postMessage({ source: 'hitpay-drop-in', type, paymentRequest: id }, '*');
      },
      { url: stranger.url, id },
    );
    await expect.poll(() => page.frame({ url: /\/forger/ })?.title()).toBe('posted');
    await page.waitForTimeout(300);
    expect(await log(page)).toEqual([]);
    expect(await page.getByRole('dialog', { name: 'Checkout' }).count()).toBe(1);
    expect(statusOf(id)).toBe('pending');
    await page.close();
  });

  it('the normal checkout refuses every frame; the drop-in mode refuses frames of another origin', async () => {
    const { page } = await openShop('/with-stranger');
    const id = await openOverlay(page);
    await page.getByRole('button', { name: 'Close' }).click();
    const blocked: string[] = [];
    page.on('console', (message) => blocked.push(message.text()));
    await page.evaluate(
      ({ sandboxUrl, id, other }) => {
        for (const src of [
          `${sandboxUrl}/checkout/${id}`,
          `${sandboxUrl}/checkout/${id}?mode=drop-in&parent=${encodeURIComponent(other)}`,
        ]) {
          const frame = document.createElement('iframe');
          frame.src = src;
          document.body.append(frame);
        }
      },
      { sandboxUrl: sandbox.url, id, other: stranger.url },
    );
    const refusals = () => blocked.filter((line) => /violates .*"frame-ancestors/.test(line)).sort();
    await expect.poll(() => refusals().length).toBe(2);
    expect(refusals()[0]).toContain(`"frame-ancestors 'none'"`);
    expect(refusals()[1]).toContain(`"frame-ancestors ${stranger.url}"`);
    // Neither loaded: both frames show the browser's error page.
    expect(page.frames().filter((frame) => frame.url().startsWith('chrome-error:'))).toHaveLength(2);
    await page.close();
  });
});

declare global {
  interface Window {
    HitPay: { inited: boolean; toggle(params: { paymentRequest: string }): void };
  }
}
