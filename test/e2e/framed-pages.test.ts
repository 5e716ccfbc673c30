/**
 * The pay and connect buttons inside a frame, as a site builder's page embeds the shop's "embed code": the demo's
 * `/site-builder` page frames `/embed/<sku>` (or the marketplace's `/platform/embed`), opened on the shop's own
 * origin (`http://127.0.0.1:<port>`: a parent of the same origin) or on `http://localhost:<port>` (a parent of
 * another origin, and another site), with the iframe's `sandbox` as site builders set it. The checkout refuses to
 * be framed, so the top window goes there; when the sandbox forbids that, a new tab opens; when it forbids both,
 * the shopper is told. Written with what every Playwright engine offers (frames, the context's pages), nothing
 * Chromium-only. Playwright launches Chromium with its popup blocker off: the tests that matter for it show the tab
 * opening before the backend has answered, that is in the click itself.
 */
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { demoInChromium } from '../support/demo-in-chromium.js';

const e2e = demoInChromium();

/** The words the framed chunk shows (packages/elements/src/framed/framed.ts). */
const SAID = {
  checkoutInTab: /checkout opened in a new tab/i,
  pressAgain: /press the button again/i,
  frameBlocked: /can't open the checkout/i,
};

let context: BrowserContext | undefined;
afterEach(async () => {
  await context?.close();
  context = undefined;
});

interface SiteBuilder {
  page: Page;
  frame: Frame;
  /** Uncaught errors and Content-Security-Policy violations, in the page or the frame. */
  problems: string[];
  /** Payment requests the frame asked the shop's backend for. */
  requests: () => number;
}

/**
 * Opens the site builder's page on `parent` (`same`: the shop's origin; `other`: localhost) with the iframe's
 * `sandbox` (a key of the demo's EMBED_SANDBOXES), and waits for the framed button. `backendDelayMs` holds the
 * frame's payment request that long before it goes on to the shop's backend (a slow backend).
 */
async function openSiteBuilder(
  parent: 'same' | 'other',
  sandbox: string,
  options: { embed?: 'connect'; backendDelayMs?: number } = {},
): Promise<SiteBuilder> {
  context = await e2e.browser.newContext();
  let requests = 0;
  await context.route('**/paykit/payment-requests', async (route) => {
    requests += 1;
    if (options.backendDelayMs) await new Promise((resolve) => setTimeout(resolve, options.backendDelayMs));
    await route.continue();
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  const origin = parent === 'same' ? e2e.demo.url : e2e.demo.url.replace('127.0.0.1', 'localhost');
  const query = new URLSearchParams({ sandbox, ...(options.embed ? { embed: options.embed } : {}) });
  await page.goto(`${origin}/site-builder?${query}`);
  const frame = page.frames().find((candidate) => candidate !== page.mainFrame())!;
  await frame.getByRole('button').first().waitFor();
  // The framed chunk is fetched as the button joins the page: wait for it, as a shopper's first click would.
  await expect
    .poll(() =>
      frame.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((r) => r.name)
          .join(' '),
      ),
    )
    .toMatch(/paykit\.framed-/);
  return { page, frame, problems, requests: () => requests };
}

/** The checkout's origin (the sandbox). */
const atCheckout = (url: URL) => url.origin === e2e.demo.sandbox.url && url.pathname.includes('/checkout');

/** The authorization request on the sandbox's dashboard (which first asks the merchant to sign in). */
const atAuthorization = (url: URL) =>
  url.origin === e2e.demo.sandbox.url &&
  (url.pathname === '/oauth/authorize' || !!url.searchParams.get('next')?.startsWith('/oauth/authorize?'));

/** What the framed pay button says under itself. */
const said = (frame: Frame) => frame.locator('paykit-pay-button').locator('[part="status"], [part="error"]');

describe('a pay button inside a frame takes the top window to the checkout', () => {
  it('with a parent of the same origin: the shopper pays and comes back to the return page in the top window', async () => {
    const { page, frame, problems } = await openSiteBuilder('same', 'none');
    await frame.getByRole('button', { name: 'Buy Enamel mug' }).click();
    await page.waitForURL(atCheckout);
    expect(context!.pages()).toHaveLength(1);
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL((url) => url.origin === e2e.demo.url && url.pathname === '/return');
    await expect
      .poll(() => page.locator('paykit-return').getByRole('status').textContent(), { timeout: 10_000 })
      .toMatch(/payment (was )?(received|successful|complete)/i);
    expect(problems).toEqual([]);
  });

  it('with a parent of another origin (another site): the top window, which the frame cannot read, still goes', async () => {
    const { page, frame, problems } = await openSiteBuilder('other', 'none');
    expect(new URL(page.url()).hostname).toBe('localhost');
    await frame.getByRole('button', { name: 'Buy Enamel mug' }).click();
    await page.waitForURL(atCheckout);
    expect(context!.pages()).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  for (const parent of ['same', 'other'] as const)
    it(`in a frame sandboxed with allow-top-navigation-by-user-activation (parent: ${parent} origin)`, async () => {
      const { page, frame, problems } = await openSiteBuilder(parent, 'top-navigation');
      await frame.getByRole('button', { name: 'Buy Enamel mug' }).click();
      await page.waitForURL(atCheckout);
      expect(context!.pages()).toHaveLength(1);
      expect(problems).toEqual([]);
    });
});

describe('a pay button in a frame that may not navigate the top opens the checkout in a new tab', () => {
  it('a sandbox this page can read (same origin): the tab opens in the click, before the backend answers', async () => {
    const { page, frame, problems, requests } = await openSiteBuilder('same', 'popups', { backendDelayMs: 1_500 });
    const top = page.url();
    const clickedAt = Date.now();
    const [tab] = await Promise.all([
      context!.waitForEvent('page'),
      frame.getByRole('button', { name: 'Buy Enamel mug' }).click(),
    ]);
    // Opened by the click itself: the shop's backend had not answered yet (it is held 1.5 s).
    expect(Date.now() - clickedAt).toBeLessThan(1_500);
    await tab.waitForURL(atCheckout);
    await expect.poll(() => said(frame).textContent()).toMatch(SAID.checkoutInTab);
    // Severed from the shop's page: the checkout cannot reach back to it.
    expect(await tab.evaluate(() => window.opener)).toBeNull();
    expect(page.url()).toBe(top);
    expect(requests()).toBe(1);
    // The button is ready again (the shopper may have closed the tab).
    await expect
      .poll(() => frame.getByRole('button', { name: 'Buy Enamel mug' }).getAttribute('aria-busy'))
      .toBe('false');
    expect(problems).toEqual([]);
  });

  it('a sandbox this page cannot read (another origin): the top refuses, and the tab opens instead', async () => {
    const { page, frame, problems } = await openSiteBuilder('other', 'popups');
    const top = page.url();
    const [tab] = await Promise.all([
      context!.waitForEvent('page'),
      frame.getByRole('button', { name: 'Buy Enamel mug' }).click(),
    ]);
    await tab.waitForURL(atCheckout);
    await expect.poll(() => said(frame).textContent()).toMatch(SAID.checkoutInTab);
    expect(page.url()).toBe(top);
    expect(context!.pages()).toHaveLength(2);
    expect(problems).toEqual([]);
  });
});

describe('a pay button in a frame that may neither navigate the top nor open a tab tells the shopper', () => {
  it('a sandbox this page can read: the error in shopper words, and paykit-error with navigation_blocked', async () => {
    const { page, frame, problems } = await openSiteBuilder('same', 'neither');
    const top = page.url();
    const codes = frame.evaluate(
      () =>
        new Promise<string>((resolve) =>
          document.addEventListener('paykit-error', (event) => resolve((event as CustomEvent).detail.code)),
        ),
    );
    await frame.getByRole('button', { name: 'Buy Enamel mug' }).click();
    expect(await codes).toBe('navigation_blocked');
    await expect.poll(() => frame.getByRole('alert').textContent()).toMatch(SAID.frameBlocked);
    expect(page.url()).toBe(top);
    expect(context!.pages()).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('a sandbox this page cannot read: first "press again", then, as that click cannot either, the error', async () => {
    const { page, frame, problems } = await openSiteBuilder('other', 'neither');
    const top = page.url();
    const button = frame.getByRole('button', { name: 'Buy Enamel mug' });
    await button.click();
    await expect.poll(() => said(frame).textContent()).toMatch(SAID.pressAgain);
    await button.click();
    await expect.poll(() => frame.getByRole('alert').textContent()).toMatch(SAID.frameBlocked);
    expect(page.url()).toBe(top);
    expect(context!.pages()).toHaveLength(1);
    expect(problems).toEqual([]);
  });
});

describe('a slow backend outlives the click', () => {
  it('allow-top-navigation-by-user-activation: the next click takes the top to the same checkout, the backend not asked again', async () => {
    // Past the click's transient activation (five seconds in Chromium and Firefox): the top refuses the navigation.
    const { page, frame, problems, requests } = await openSiteBuilder('other', 'top-navigation', {
      backendDelayMs: 6_000,
    });
    const button = frame.getByRole('button', { name: 'Buy Enamel mug' });
    const answered = page.waitForResponse('**/paykit/payment-requests', { timeout: 15_000 });
    await button.click();
    // Nothing is asked of the frame while the backend is held: Playwright's evaluations in a frame count as a user
    // gesture in Chromium, and would renew the click's activation.
    await answered;
    await page.waitForTimeout(500);
    await expect.poll(() => said(frame).textContent()).toMatch(SAID.pressAgain);
    expect(new URL(page.url()).hostname).toBe('localhost');
    await button.click();
    await page.waitForURL(atCheckout);
    expect(requests()).toBe(1);
    expect(problems).toEqual([]);
  }, 30_000);
});

describe('a connect button inside a frame', () => {
  it('takes the top window to the authorization page', async () => {
    const { page, frame, problems } = await openSiteBuilder('same', 'none', { embed: 'connect' });
    await frame.getByRole('button', { name: 'Connect with Payments' }).click();
    await page.waitForURL(atAuthorization);
    expect(context!.pages()).toHaveLength(1);
    expect(problems).toEqual([]);
  });

  it('in a sandbox without top navigation (readable): the authorization page opens in a new tab from the click', async () => {
    const { page, frame, problems } = await openSiteBuilder('same', 'popups', { embed: 'connect' });
    const top = page.url();
    const [tab] = await Promise.all([
      context!.waitForEvent('page'),
      frame.getByRole('button', { name: 'Connect with Payments' }).click(),
    ]);
    await tab.waitForURL(atAuthorization);
    await expect
      .poll(() => frame.locator('paykit-connect-button').locator('[part="status"]').textContent())
      .toMatch(/opened in a new tab/i);
    expect(page.url()).toBe(top);
    expect(problems).toEqual([]);
  });
});
