/**
 * The hosted pages as a shopper on a phone sees them (issue 13 item 3), against the demo, in every engine
 * (Chromium, Firefox ESR, WebKitGTK; `PAYKIT_BROWSERS` picks): the checkout's way back is a cancel that changes
 * nothing, every control is a 44 px target, methods are named and chosen by their whole row, dark mode follows
 * the device, no page scrolls sideways, and the demo's /orders is a page for people with its JSON kept for scripts.
 * A phone is a 390 px wide viewport; WebKitGTK's MiniBrowser window is no narrower than 447 px, which its test
 * names say.
 */
import { ENGINE_NAMES, selectedEngines } from '@paykit/test-support/engines';
import { call } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type RunningDemo } from '../../demo/start-demo.js';
import { browserForBlock } from '../support/engine-block.js';
import { WEBKIT_NARROWEST, type Tab, type TabOptions } from '../support/engine-browser.js';

let demo: RunningDemo;
beforeAll(async () => {
  demo = await startDemo({ port: 0, sandboxPort: 0 });
});
afterAll(async () => {
  await demo?.close();
});

const PHONE = { viewport: { width: 390, height: 844 } } as const satisfies TabOptions;

/** Heights of the controls a finger presses inside `<main>` that are shorter than 44 px. */
const SMALL_TARGETS = `() => [...document.querySelectorAll('main button, main a, main label.choice, main input:not([type=hidden])')]
  .map((element) => ({ element, box: element.getBoundingClientRect() }))
  // A radio or email input counts through its whole-row label or its own box.
  .filter(({ element, box }) => !(element instanceof HTMLInputElement && element.type === 'radio') && box.height < 44 && box.width > 0)
  .map(({ element, box }) => element.outerHTML.slice(0, 80) + ': ' + Math.round(box.height) + ' px')`;

/** The relative luminance of the page's background (0 black, 1 white). */
const BACKGROUND_LUMINANCE = `() => {
  const parse = (color) => (color.match(/[\\d.]+/g) ?? []).slice(0, 3).map(Number);
  const seen = [document.body, document.documentElement]
    .map((element) => getComputedStyle(element).backgroundColor)
    .find((color) => !/rgba\\(0, 0, 0, 0\\)|transparent/.test(color));
  const [r = 255, g = 255, b = 255] = parse(seen ?? 'rgb(255, 255, 255)').map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}`;

describe.each(selectedEngines())('in %s', (engine) => {
  const browser = browserForBlock(engine);
  const name = ENGINE_NAMES[engine];
  /** The phone's width in this engine. */
  const phoneWidth = engine === 'webkit' ? WEBKIT_NARROWEST : PHONE.viewport.width;

  /** Opens the shop in a fresh tab and goes to the checkout of `product`; returns the request's id. */
  async function checkoutOf(product: string, options: TabOptions = {}): Promise<{ tab: Tab; id: string }> {
    const tab = await browser.newTab(options);
    await tab.goto(demo.url);
    await tab.click(`Buy ${product}`);
    const checkout = await tab.waitForUrl((url) => url.origin === demo.sandbox.url);
    // The address changes before the page has loaded: what is measured below (boxes, colours, text) needs its styles.
    await expect.poll(() => tab.run('() => document.readyState'), { timeout: 10_000 }).toBe('complete');
    return { tab, id: checkout.pathname.split('/').pop()! };
  }

  describe('the sandbox checkout', () => {
    it(`"Cancel and return" goes back to the shop as a cancel and leaves the payment request pending (${name})`, async () => {
      const { tab, id } = await checkoutOf('Enamel mug');
      await tab.click('Cancel and return to Demo Store');
      const back = await tab.waitForUrl((url) => url.origin === demo.url && url.pathname === '/return');
      expect(Object.fromEntries(back.searchParams)).toEqual({ reference: id, status: 'canceled' });
      const request = await call(demo.sandbox, 'GET', `/v1/payment-requests/${id}`);
      expect(request.body.status).toBe('pending');
      const charges = (await call(demo.sandbox, 'GET', '/v1/charges')).body.data as { payment_request_id: string }[];
      expect(charges.filter((charge) => charge.payment_request_id === id)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`names the methods, selects one by a click anywhere on its row, and posts its code (${name}, ${phoneWidth} px)`, async () => {
      const { tab, id } = await checkoutOf('Organic T-shirt', PHONE);
      // Polled: innerText follows the style sheet, which Firefox may not have applied when the address changed.
      await expect
        .poll(
          () =>
            tab.run(
              `() => [...document.querySelectorAll('input[type=radio]')].map((r) => r.closest('label').innerText.trim().split('\\n')[0])`,
            ),
          { timeout: 10_000 },
        )
        .toEqual(['PayNow', 'Card']);
      // The row's hint, away from the radio itself.
      expect(await tab.text('label.choice:has(input[value=card]) .choice-hint')).toBe(
        'Visa, Mastercard, American Express',
      );
      await tab.clickOn('label.choice:has(input[value=card]) .choice-hint');
      expect(await tab.run(`() => document.querySelector('input[type=radio][value=card]').checked`)).toBe(true);
      await tab.click(/^Pay /);
      await tab.waitForUrl((url) => url.origin === demo.url);
      const charges = (await call(demo.sandbox, 'GET', '/v1/charges')).body.data as {
        payment_request_id: string;
        payment_method: { code: string };
      }[];
      // The service's payment_method object: the code the checkout posted is its `code`.
      expect(charges.find((charge) => charge.payment_request_id === id)?.payment_method.code).toBe('card');
      await tab.close();
    }, 120_000);

    it(`has 44 px targets and no sideways scrolling on a phone (${name}, ${phoneWidth} px)`, async () => {
      const { tab } = await checkoutOf('Harbour map print', PHONE);
      expect(await tab.run('() => innerWidth')).toBe(phoneWidth);
      expect(await tab.run(SMALL_TARGETS)).toEqual([]);
      expect(await tab.run<number>('() => document.documentElement.scrollWidth')).toBeLessThanOrEqual(phoneWidth);
      await tab.goto(`${demo.sandbox.url}/dashboard/sign-in`);
      expect(await tab.run(SMALL_TARGETS)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`follows the device into dark mode, as the demo shop does (${name})`, async () => {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { tab } = await checkoutOf('Enamel mug', { colorScheme });
        const pages = [(await tab.url()).href, `${demo.sandbox.url}/dashboard/sign-in`, demo.url, `${demo.url}/orders`];
        for (const url of pages) {
          await tab.goto(url);
          const luminance = await tab.run<number>(BACKGROUND_LUMINANCE);
          if (colorScheme === 'dark') expect(luminance, url).toBeLessThan(0.05);
          else expect(luminance, url).toBeGreaterThan(0.8);
        }
        await tab.close();
      }
    }, 90_000);
  });

  describe("the demo's /orders", () => {
    it(`is a table for people, and the same orders as JSON for scripts (${name})`, async () => {
      const { tab, id } = await checkoutOf('Enamel mug');
      await tab.click(/^Pay /);
      await tab.waitForUrl((url) => url.origin === demo.url);
      await expect.poll(() => demo.orders.list().some((order) => order.id === id), { timeout: 10_000 }).toBe(true);

      const html = await fetch(`${demo.url}/orders`, { headers: { accept: 'text/html' } });
      expect(html.headers.get('content-type')).toMatch(/^text\/html/);
      await tab.goto(`${demo.url}/orders`);
      expect(
        await tab.run(
          `() => [...document.querySelectorAll('tr[data-order="${id}"] td')].map((cell) => cell.innerText)`,
        ),
      ).toEqual([id, 'Paid', 'SGD\u00a012.50', 'payment_request.completed']);

      for (const [path, accept] of [
        ['/orders.json', '*/*'],
        ['/orders', 'application/json'],
      ] as const) {
        const json = await fetch(`${demo.url}${path}`, { headers: { accept } });
        expect(json.headers.get('content-type'), path).toMatch(/^application\/json/);
        expect(await json.json(), path).toEqual(demo.orders.list());
      }
      await tab.close();
    }, 120_000);
  });
});
