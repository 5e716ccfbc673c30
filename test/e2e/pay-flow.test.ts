/**
 * The pay flow as a shopper lives it, in every engine (Chromium, Firefox ESR, WebKitGTK; `PAYKIT_BROWSERS`
 * picks), through the engine-neutral tab of ../support/engine-browser.ts: the demo store (script tag, strict CSP
 * with Trusted Types), the server handler, the sandbox checkout, the return page, and the webhook reaching the shop
 * once. The flows end with no uncaught error, no console error and no CSP violation, neither as the pages saw them
 * nor as the browsers reported them to the demo and the sandbox (`report-uri`).
 */
import { createPaykitHandler } from '@paykit/server';
import { ENGINE_NAMES, selectedEngines, type Engine } from '@paykit/test-support/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type RunningDemo } from '../../demo/start-demo.js';
import { browserForBlock, demoReports, problemsWithReports } from '../support/engine-block.js';
import type { Tab } from '../support/engine-browser.js';
import { startPlatformPages, type PlatformPages } from '../support/platform-pages.js';

let demo: RunningDemo;
/** A site of its own on 127.0.0.1 for the legacy page (classic script tag, no module anywhere). */
let legacy: PlatformPages;
beforeAll(async () => {
  demo = await startDemo({ port: 0, sandboxPort: 0 });
  legacy = await startPlatformPages();
  const handler = createPaykitHandler({
    api: { apiBaseUrl: demo.sandbox.url, apiKey: demo.sandbox.seed.apiKey },
    publicOrigin: legacy.url,
    createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD', purpose: 'Enamel mug' }),
  });
  legacy.mount('/paykit', handler);
  legacy.page(
    '/',
    `<!doctype html><html lang="en"><head><title>Legacy</title><script src="/paykit.iife.js"></script></head><body>
      <paykit-pay-button endpoint="/paykit" reference="sku-mug" amount="12.50" currency="SGD"
        checkout-origins="${demo.sandbox.url}">Buy Enamel mug</paykit-pay-button></body></html>`,
  );
});
afterAll(async () => {
  await Promise.all([demo?.close(), legacy?.close()]);
});

/** The status line of `<paykit-return>`. */
const status = (tab: Tab) => tab.text('paykit-return', '[role=status]');

/** Waits until the sandbox has settled every webhook delivery. */
async function webhooksSettled(): Promise<void> {
  await expect
    .poll(() => demo.sandbox.context.webhooks.deliveries.every((d) => d.status !== 'pending'), { timeout: 15_000 })
    .toBe(true);
}

/** Clicks "Buy <product>", waits for the checkout, and returns the payment request's id. */
async function buy(tab: Tab, product: string): Promise<string> {
  await tab.click(`Buy ${product}`);
  const checkout = await tab.waitForUrl((url) => url.origin === demo.sandbox.url, 15_000);
  return checkout.pathname.split('/').pop()!;
}

/**
 * The engines whose automation cannot tap the pay button, and why (probed): Firefox ESR 153 over WebDriver BiDi
 * delivers a touch's pointerdown and pointerup to the pay button's slot, but no touchstart, touchend or click (the
 * same tap on a plain button clicks); WebKitGTK's WebDriver delivers a touch pointer's actions as a mouse's. The
 * tap-then-click case is proved in Chromium only.
 */
const NO_TOUCH: Partial<Record<Engine, string>> = {
  firefox: "Firefox's WebDriver BiDi touch gives the pay button pointer events only, never a click",
  webkit: "WebKitGTK's WebDriver turns touch actions into mouse input",
};

/** Everything that went wrong, in the tab and as reported to the demo and its sandbox (their lists are emptied). */
const problems = (tab: Tab) => problemsWithReports(tab, demoReports(demo));

describe.each(selectedEngines())('in %s', (engine) => {
  const name = ENGINE_NAMES[engine];
  const browser = browserForBlock(engine);

  describe(`pay flow (${name})`, () => {
    it(`a shopper pays, comes back to the truth, and the shop hears of it once (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(demo.url);
      const id = await buy(tab, 'Enamel mug');
      await expect.poll(() => tab.text('[data-testid=amount]'), { timeout: 10_000 }).toBe('SGD\u00a012.50');
      await tab.click(/^Pay /);
      const back = await tab.waitForUrl((url) => url.origin === demo.url && url.pathname === '/return', 15_000);
      expect(back.searchParams.get('reference')).toBe(id);
      await expect
        .poll(() => status(tab), { timeout: 15_000 })
        .toMatch(/payment (was )?(received|successful|complete)/i);
      expect(demo.sandbox.context.state.paymentRequests.get(id)?.status).toBe('completed');

      await webhooksSettled();
      // The shop heard of it in both of the service's formats, signed with its salt, and recorded it once.
      const told = demo.sandbox.context.webhooks.deliveries.filter(
        (d) => d.event === 'payment_request.completed' && d.request.body.includes(id),
      );
      expect(told.map((d) => [d.format, d.status, d.response_status]).sort()).toEqual([
        ['event', 'delivered', 200],
        ['notification', 'delivered', 200],
      ]);
      expect(demo.orders.list().find((order) => order.id === id)).toEqual({
        id,
        status: 'completed',
        amount: '12.50',
        currency: 'SGD',
        events: { 'payment_request.completed': 1 },
      });
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`a failed payment shows as failed, even when the return URL is edited to say completed (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(demo.url);
      const id = await buy(tab, 'Organic T-shirt');
      await tab.click('Fail payment');
      await tab.waitForUrl((url) => url.origin === demo.url && url.pathname === '/return', 15_000);
      await expect.poll(() => status(tab), { timeout: 15_000 }).toMatch(/fail|not completed|declined/i);

      await tab.goto(`${demo.url}/return?reference=${id}&status=completed`);
      await expect.poll(() => status(tab), { timeout: 15_000 }).toMatch(/fail|not completed|declined/i);
      await webhooksSettled();
      expect(demo.orders.list().find((order) => order.id === id)?.events).toEqual({ 'payment_request.failed': 1 });
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`after a failed payment on the real checkout, "Try again" goes back to the page that started it (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(`${demo.url}/products/sku-tee`);
      await buy(tab, 'Organic T-shirt');
      await tab.click('Fail payment');
      await tab.waitForUrl((url) => url.origin === demo.url && url.pathname === '/return', 15_000);
      // The checkout sends no referrer, and the return page sets no retry-url: the pay button remembered its page.
      expect(await tab.run<string>('() => document.referrer')).toBe('');
      const again = () =>
        tab.run<string | null>(
          `() => [...document.querySelector('paykit-return')?.shadowRoot?.querySelectorAll('a') ?? []].find((a) => a.textContent.trim() === 'Try again')?.getAttribute('href') ?? null`,
        );
      await expect.poll(again, { timeout: 15_000 }).toBe(`${demo.url}/products/sku-tee`);
      await tab.click('Try again');
      await tab.waitForUrl((url) => url.href === `${demo.url}/products/sku-tee`, 15_000);
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`a double click makes one payment request (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(demo.url);
      const before = demo.sandbox.context.state.paymentRequests.size;
      await tab.doubleClick('Buy Harbour map print');
      await tab.waitForUrl((url) => url.origin === demo.sandbox.url, 15_000);
      expect(demo.sandbox.context.state.paymentRequests.size).toBe(before + 1);
      await tab.close();
    }, 120_000);

    const tapTitle = `a tap followed by a click while the first request is in flight makes one payment request (${name})`;
    const noTap = NO_TOUCH[engine];
    // Said in the log as well as in the title: a passing run's report does not list skipped tests.
    // eslint-disable-next-line no-console
    if (noTap) console.warn(`skipped in ${engine}: "${tapTitle}": ${noTap}`);
    it.skipIf(noTap !== undefined)(
      noTap === undefined ? tapTitle : `${tapTitle} (skipped in ${engine}: ${noTap})`,
      async () => {
        const tab = await browser.newTab({ touch: true });
        await tab.goto(demo.url);
        // The API answers the create slowly, so that the click lands while the tap's request is in flight.
        const armed = await fetch(`${demo.sandbox.url}/_sandbox/faults`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ path: '/v1/payment-requests', method: 'POST', kind: 'slow', delay_ms: 800 }),
        });
        expect(armed.status).toBe(201);
        const before = demo.sandbox.context.state.paymentRequests.size;
        await tab.tap('Buy Harbour map print');
        // On the busy button (aria-disabled), as a person's second press lands.
        await expect.poll(() => busy(tab, 'Buy Harbour map print'), { timeout: 5_000 }).toBe('true');
        await tab.click('Buy Harbour map print');
        await tab.waitForUrl((url) => url.origin === demo.sandbox.url, 15_000);
        expect(demo.sandbox.context.state.paymentRequests.size).toBe(before + 1);
        await tab.close();
      },
      60_000,
    );

    it(`the themes page shows the same button under three token sets (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(`${demo.url}/themes`);
      const backgrounds = await tab.run<string[]>(
        `() => [...document.querySelectorAll('paykit-pay-button')].map((b) => getComputedStyle(b.shadowRoot.querySelector('button')).backgroundColor)`,
      );
      expect(backgrounds).toHaveLength(3);
      expect(new Set(backgrounds).size).toBe(3);
      await tab.close();
    }, 120_000);

    it(`coming back with the back button finds the button usable again (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(demo.url);
      await buy(tab, 'Enamel mug');
      expect((await tab.back()).href).toBe(`${demo.url}/`);
      await expect.poll(() => busy(tab, 'Buy Enamel mug'), { timeout: 10_000 }).toBe('false');
      await tab.click('Buy Enamel mug');
      await tab.waitForUrl((url) => url.origin === demo.sandbox.url, 15_000);
      await tab.close();
    }, 120_000);
  });

  describe(`the classic-script build, on pages without modules (${name})`, () => {
    it(`defines every element, exposes the global Paykit, and the pay button reaches the checkout (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(`${legacy.url}/`);
      expect(
        await tab.run(`() => {
          const paykit = globalThis.Paykit;
          return {
            pay: customElements.get('paykit-pay-button') === paykit.PaykitPayButton,
            connect: customElements.get('paykit-connect-button') === paykit.PaykitConnectButton,
            ret: customElements.get('paykit-return') === paykit.PaykitReturn,
            headless: typeof paykit.startCheckout === 'function' && typeof paykit.handleReturn === 'function',
          };
        }`),
      ).toEqual({ pay: true, connect: true, ret: true, headless: true });
      const id = await buy(tab, 'Enamel mug');
      expect(demo.sandbox.context.state.paymentRequests.get(id)).toBeDefined();
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);
  });
});

/** The `aria-busy` of the inner button of the pay button named `words` ('true' while its click is at work). */
function busy(tab: Tab, words: string): Promise<string | null> {
  return tab.run<string | null>(
    `() => [...document.querySelectorAll('paykit-pay-button')].find((b) => b.textContent.trim() === ${JSON.stringify(words)})?.shadowRoot?.querySelector('button')?.getAttribute('aria-busy') ?? null`,
  );
}
