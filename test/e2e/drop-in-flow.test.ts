/**
 * The drop-in checkout as a shopper lives it, in every engine (Chromium, Firefox ESR, WebKitGTK; `PAYKIT_BROWSERS`
 * picks), through the engine-neutral tab of ../support/engine-browser.ts: the demo's Enamel mug page
 * (`<paykit-pay-button drop-in>`, the built script-tag file, a strict Content-Security-Policy with Trusted Types)
 * opens the sandbox's drop-in over the page; paying, failing and closing there; the shop's server confirming each
 * outcome and hearing of it once; the redirect when the drop-in's script cannot load (the sandbox drops the
 * connection that asks for it, as a blocker's refusal is a network error); and, on a page of its own, a frame of
 * another origin that forges the drop-in's messages.
 */
import { createPaykitHandler } from '@paykit/server';
import { ENGINE_NAMES, selectedEngines } from '@paykit/test-support/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type RunningDemo } from '../../demo/start-demo.js';
import { blocking, runAxeInTab } from '../support/axe.js';
import { browserForBlock, demoReports, problemsWithReports } from '../support/engine-block.js';
import type { Tab } from '../support/engine-browser.js';
import { pageWith, startPlatformPages, type PlatformPages } from '../support/platform-pages.js';

let demo: RunningDemo;
let shop: PlatformPages;
let stranger: PlatformPages;
/** The shop page's backend: how many times a page asked it for a payment request's status. */
let statusChecks = 0;
/** How many times the forger's frame said it had posted its messages. */
let forgeries = 0;

beforeAll(async () => {
  demo = await startDemo({ port: 0, sandboxPort: 0 });
  shop = await startPlatformPages();
  stranger = await startPlatformPages();
  const handler = createPaykitHandler({
    api: { apiBaseUrl: demo.sandbox.url, apiKey: demo.sandbox.seed.apiKey },
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
        checkout-origins="${demo.sandbox.url}" drop-in>Buy Enamel mug</paykit-pay-button>`,
    ),
    {
      'content-security-policy': [
        "default-src 'self'",
        `script-src 'self' ${demo.sandbox.url}`,
        `frame-src ${demo.sandbox.url} ${stranger.url}`,
        "require-trusted-types-for 'script'",
        'trusted-types lit-html paykit-drop-in',
      ].join('; '),
    },
  );
  // Pages whose policy refuses the drop-in: its script (script-src), or its frame (frame-src).
  const button = `<paykit-pay-button endpoint="/paykit" reference="sku-mug" amount="12.50" currency="SGD"
    checkout-origins="${demo.sandbox.url}" drop-in>Buy Enamel mug</paykit-pay-button>`;
  shop.page('/no-script', pageWith('Shop', button), {
    'content-security-policy': "default-src 'self'; script-src 'self'",
  });
  shop.page('/no-frame', pageWith('Shop', button), {
    'content-security-policy': `default-src 'self'; script-src 'self' ${demo.sandbox.url}; frame-src 'none'`,
  });
  stranger.page('/forger', '<!doctype html><title>Forger</title><script type="module" src="/forger.js"></script>');
  // Says "paid" to its parent in every way the drop-in's frame speaks, and as the script's own callbacks would;
  // then tells its own server that it has (the test waits for that, in any engine).
  stranger.script(
    '/forger.js',
    `const id = new URL(location.href).searchParams.get('id');
    for (const type of ['success', 'error', 'close'])
      window.parent.postMessage({ source: 'hitpay-drop-in', type, paymentRequest: id, status: 'completed' }, '*');
    fetch('/posted', { method: 'POST' });`,
  );
  stranger.mount('/posted', async () => {
    forgeries += 1;
    return new Response(null, { status: 204 });
  });
});
afterAll(async () => {
  await Promise.all([demo?.close(), shop?.close(), stranger?.close()]);
});

const requests = () => demo.sandbox.context.state.paymentRequests;

/** The drop-in's overlay as the page has it: whether it is open, modal, and the address of its checkout frame. */
const overlay = (tab: Tab) =>
  tab.run<{ open: boolean; modal: boolean; src: string | null } | null>(`() => {
    const dialog = document.querySelector('[data-hitpay-drop-in]')?.shadowRoot?.querySelector('dialog');
    return dialog ? { open: dialog.open, modal: dialog.matches(':modal'), src: dialog.querySelector('iframe')?.src ?? null } : null;
  }`);

/** The overlay's checkout frame (in the drop-in's shadow root). */
const checkoutFrame = (tab: Tab) => tab.frameAt('[data-hitpay-drop-in]', 'iframe');

/** What the pay button shows under itself: its status line or its error. */
const shown = (tab: Tab, part: 'status' | 'error') => tab.text('paykit-pay-button', `[part=${part}]`);

/** Clicks "Buy", waits for the overlay's checkout to show its Pay button, and returns the payment request's id. */
async function openOverlay(tab: Tab): Promise<string> {
  await tab.click('Buy Enamel mug');
  const checkout = await checkoutFrame(tab);
  await expect.poll(() => checkout.has(/^Pay /), { timeout: 15_000 }).toBe(true);
  const src = (await overlay(tab))?.src;
  expect(src).toMatch(new RegExp(`^${demo.sandbox.url}/`));
  return new URL(src!).pathname.split('/').pop()!;
}

/** Everything that went wrong, in the tab and as reported to the demo and its sandbox (their lists are emptied). */
const problems = (tab: Tab) => problemsWithReports(tab, demoReports(demo));

describe.each(selectedEngines())('in %s', (engine) => {
  const name = ENGINE_NAMES[engine];
  const browser = browserForBlock(engine);

  describe(`drop-in checkout on the demo (${name})`, () => {
    it(`a shopper pays over the page and stays: the confirmed payment shows under the button, and the shop hears of it once (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(`${demo.url}/products/sku-mug`);
      const id = await openOverlay(tab);
      await (await checkoutFrame(tab)).click(/^Pay /);
      await expect.poll(() => shown(tab, 'status'), { timeout: 15_000 }).toBe('Payment received. Thank you!');
      expect(await overlay(tab)).toBe(null);
      expect((await tab.url()).pathname).toBe('/products/sku-mug');
      expect(requests().get(id)?.status).toBe('completed');
      await expect
        .poll(() => demo.orders.list().find((order) => order.id === id), { timeout: 15_000 })
        .toMatchObject({ status: 'completed', events: { 'payment_request.completed': 1 } });
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`the open overlay is modal and passes axe (WCAG 2.2 A/AA, best practices) with no serious or critical finding (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(`${demo.url}/products/sku-mug`);
      await openOverlay(tab);
      const findings = await runAxeInTab(tab);
      expect(findings.filter(blocking)).toEqual([]);
      expect(await overlay(tab)).toMatchObject({ open: true, modal: true });
      await tab.close();
    }, 120_000);

    it(`a failed payment shows as failed under the button (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(`${demo.url}/products/sku-mug`);
      const id = await openOverlay(tab);
      await (await checkoutFrame(tab)).click('Fail payment');
      await expect.poll(() => shown(tab, 'error'), { timeout: 15_000 }).toBe('The payment failed.');
      expect(await overlay(tab)).toBe(null);
      expect(requests().get(id)?.status).toBe('failed');
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`closing gives focus back to the button; the request stays pending and the next click reopens it (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(`${demo.url}/products/sku-mug`);
      const id = await openOverlay(tab);
      const before = requests().size;
      // The overlay gives its checkout frame the focus once it has loaded: the key goes where a person's would.
      await expect
        .poll(() => tab.run<string | undefined>('() => document.activeElement?.shadowRoot?.activeElement?.localName'), {
          timeout: 10_000,
        })
        .toBe('iframe');
      await tab.press('Escape');
      // Escape reaches the checkout frame (focus is there); its script asks the overlay to close.
      await expect.poll(() => overlay(tab), { timeout: 10_000 }).toBe(null);
      expect(await tab.run('() => document.activeElement?.localName')).toBe('paykit-pay-button');
      expect(requests().get(id)?.status).toBe('pending');
      expect(await openOverlay(tab)).toBe(id);
      expect(requests().size).toBe(before);
      await tab.click('Close');
      await expect.poll(() => overlay(tab), { timeout: 10_000 }).toBe(null);
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`when the drop-in script cannot load (a blocker), the shopper is taken to the checkout page instead (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(`${demo.url}/products/sku-mug`);
      // The sandbox drops every connection that asks for the script (Firefox retries a dropped one up to 10 times).
      const armed = await fetch(`${demo.sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: '/hitpay.js', method: 'GET', kind: 'drop', times: 100 }),
      });
      expect(armed.status).toBe(201);
      try {
        const before = requests().size;
        await tab.click('Buy Enamel mug');
        const checkout = await tab.waitForUrl(
          (url) => url.origin === demo.sandbox.url && url.pathname.startsWith('/checkout/'),
          15_000,
        );
        // The script was asked for, and refused.
        expect(demo.sandbox.context.faults.armed[0]?.remaining).toBeLessThan(100);
        expect(checkout.searchParams.get('mode')).toBe(null);
        expect(requests().size).toBe(before + 1);
        await tab.click(/^Pay /);
        await tab.waitForUrl((url) => url.origin === demo.url && url.pathname === '/return', 15_000);
      } finally {
        await fetch(`${demo.sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
      }
      await tab.close();
    }, 120_000);
  });

  describe(`drop-in checkout on a page with a frame of another origin (${name})`, () => {
    for (const [path, refused] of [
      ['/no-script', 'its script'],
      ['/no-frame', 'its frame'],
    ])
      it(`a page whose Content-Security-Policy refuses ${refused} sends the shopper to the checkout page (${name})`, async () => {
        const tab = await browser.newTab();
        await tab.goto(`${shop.url}${path}`);
        const started = Date.now();
        await tab.click('Buy Enamel mug');
        await tab.waitForUrl((url) => url.origin === demo.sandbox.url && url.pathname.startsWith('/checkout/'), 15_000);
        // At once, not after the drop-in's own time limit (10 s): the bound is that limit, not a guess at how fast
        // a loaded machine clicks and navigates.
        expect(Date.now() - started).toBeLessThan(10_000);
        await tab.close();
      }, 120_000);

    it(`a forged message from another frame changes nothing: no check, no outcome, the overlay stays (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(shop.url);
      const id = await openOverlay(tab);
      const checks = statusChecks;
      const forged = forgeries;
      await tab.run(`() => {
        const forger = document.createElement('iframe');
        forger.src = ${JSON.stringify(`${stranger.url}/forger?id=${id}`)};
        document.body.append(forger);
      }`);
      await expect.poll(() => forgeries, { timeout: 10_000 }).toBe(forged + 1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(statusChecks).toBe(checks);
      expect(await overlay(tab)).toMatchObject({ open: true });
      expect(
        await tab.run(
          `() => document.querySelector('paykit-pay-button').shadowRoot.querySelectorAll('[part=status], [part=error]').length`,
        ),
      ).toBe(0);
      expect(requests().get(id)?.status).toBe('pending');
      // The real checkout in the overlay still pays, and that is believed once the backend confirms it.
      await (await checkoutFrame(tab)).click(/^Pay /);
      await expect.poll(() => shown(tab, 'status'), { timeout: 15_000 }).toBe('Payment received. Thank you!');
      expect(statusChecks).toBeGreaterThan(checks);
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);
  });
});
