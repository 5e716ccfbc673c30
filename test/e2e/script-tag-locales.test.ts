/**
 * Languages on a script-tag page: the all-in-one file (ES module or classic script) and a locale module loaded
 * beside it are separate copies of the message code, and the locale must still reach the elements.
 */
import { launchChromium } from '@paykit/test-support/browser';
import { readFile } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DIST = new URL('../../packages/elements/dist/', import.meta.url);
const SITE = 'http://shop.test';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

/** The labels a page shows, with `main` as its script tag and `locale` as a module beside it. */
async function labelsOn(lang: string, main: string, locale: string) {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(String(error)));
  // The built files as a CDN would serve them: the package's dist folder, nothing bundled for the page.
  await page.route(`${SITE}/dist/**`, async (route) => {
    const file = new URL(new URL(route.request().url()).pathname.slice('/dist/'.length), DIST);
    await route.fulfill({ contentType: 'text/javascript', body: await readFile(file) });
  });
  await page.route(`${SITE}/`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="${lang}"><head>
        ${main.endsWith('.iife.js') ? `<script src="${main}"></script>` : `<script type="module" src="${main}"></script>`}
        <script type="module" src="${locale}"></script></head><body>
        <paykit-pay-button endpoint="/paykit" checkout-origins="https://checkout.test"></paykit-pay-button>
        <paykit-connect-button client-id="c" scope="business:read"></paykit-connect-button></body></html>`,
    }),
  );
  await page.goto(`${SITE}/`);
  await page.waitForFunction(
    () => customElements.get('paykit-pay-button') && customElements.get('paykit-connect-button'),
  );
  // Labels are read after both scripts ran: a locale that arrives after the first render must still apply.
  await page
    .waitForFunction(
      () =>
        document.querySelector('paykit-pay-button')?.shadowRoot?.querySelector('[part=label]')?.textContent !== 'Pay',
      undefined,
      { timeout: 3_000 },
    )
    .catch(() => undefined);
  const labels = await page.evaluate(() =>
    ['paykit-pay-button', 'paykit-connect-button'].map(
      (tag) => document.querySelector(tag)!.shadowRoot!.querySelector('[part=label]')!.textContent,
    ),
  );
  await page.close();
  return { labels, problems };
}

describe('a locale module beside the script-tag file', () => {
  it('speaks French with the ES module build', async () => {
    expect(await labelsOn('fr', '/dist/paykit.js', '/dist/locales/fr.js')).toEqual({
      labels: ['Payer', 'Se connecter avec Payments'],
      problems: [],
    });
  });

  it('speaks Arabic with the classic-script build', async () => {
    const { labels, problems } = await labelsOn('ar', '/dist/paykit.iife.js', '/dist/locales/ar.js');
    expect(labels[0]).toBe('ادفع');
    expect(labels[1]).not.toBe('Connect with Payments');
    expect(problems).toEqual([]);
  });
});
