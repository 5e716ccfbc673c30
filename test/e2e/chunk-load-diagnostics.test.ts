/**
 * A lazy chunk not served beside the script-tag file (issue 26): the development file says in the console which
 * file did not load, the URL it tried and where to serve it from; the production files carry none of those words.
 * Against the built `packages/elements/dist` (`pnpm --filter @paykit/elements build`), in Chromium, with the page
 * served as a site that copied `paykit.development.js` alone.
 */
import { launchChromium } from '@paykit/test-support/browser';
import { readdirSync, readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const DIST = new URL('../../packages/elements/dist/', import.meta.url);
const SITE = 'http://shop.test';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());

describe('a lazy chunk that does not load', () => {
  it('is named by the development file with its URL and where to serve it from', async () => {
    const page = await browser.newPage();
    const lines: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') lines.push(message.text());
    });
    // Only the entry file is served; every chunk beside it is a 404, as on a site that copied one file.
    await page.route(`${SITE}/js/**`, async (route) => {
      const name = new URL(route.request().url()).pathname.slice('/js/'.length);
      if (name !== 'paykit.development.js') return route.fulfill({ status: 404, body: 'not found' });
      return route.fulfill({ contentType: 'text/javascript', body: readFileSync(new URL(name, DIST)) });
    });
    await page.route(`${SITE}/`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><head><script type="module" src="/js/paykit.development.js"></script>
          </head><body><paykit-connect-button client-id="c" scope="business:read" redirect-uri="${SITE}/back"
          dashboard-url="https://dashboard.test"></paykit-connect-button></body></html>`,
      }),
    );
    await page.goto(`${SITE}/`);
    await expect
      .poll(() => lines.find((line) => line.startsWith('[paykit]')), { timeout: 10_000 })
      .toMatch(
        new RegExp(
          `^\\[paykit\\] ${SITE}/js/paykit\\.development\\.start-connect-[\\w-]+\\.js could not be loaded: .*` +
            'a <paykit-connect-button> is added to the page\\. Serve every paykit\\.development\\.\\*\\.js file',
        ),
      );
    await page.close();
  });

  it('is not explained by the production files: none of these words ship to shoppers', () => {
    const production = readdirSync(DIST).filter((name) => /^paykit(?!\.development)[\w.-]*\.js$/.test(name));
    expect(production).toContain('paykit.js');
    for (const name of production)
      expect(readFileSync(new URL(name, DIST), 'utf8'), name).not.toMatch(/could not be loaded|\[paykit\]/);
    const development = readFileSync(new URL('paykit.development.js', DIST), 'utf8');
    expect(development).toContain('could not be loaded');
  });
});
