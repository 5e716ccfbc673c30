/**
 * Languages on a script-tag page, in every engine (Chromium, Firefox ESR, WebKitGTK; `PAYKIT_BROWSERS` picks):
 * the all-in-one file (ES module or classic script) and a locale module loaded beside it are separate copies of
 * the message code, and the locale must still reach the elements. The built files are served as a CDN would
 * serve them, from the package's dist folder on a real server on 127.0.0.1, nothing bundled for the page.
 */
import { ENGINE_NAMES, selectedEngines } from '@paykit/test-support/engines';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserForBlock } from '../support/engine-block.js';
import { startPlatformPages, type PlatformPages } from '../support/platform-pages.js';

const DIST = new URL('../../packages/elements/dist/', import.meta.url);

let site: PlatformPages;
beforeAll(async () => {
  site = await startPlatformPages();
  site.mount('/dist', async (request) => {
    const file = new URL(new URL(request.url).pathname.slice('/dist/'.length), DIST);
    const body = await readFile(file).catch(() => undefined);
    return body === undefined
      ? new Response('Not found', { status: 404 })
      : new Response(body, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
  });
  for (const [path, lang, main, locale] of [
    ['/fr-module', 'fr', '/dist/paykit.js', '/dist/locales/fr.js'],
    ['/ar-classic', 'ar', '/dist/paykit.iife.js', '/dist/locales/ar.js'],
  ] as const) {
    site.page(
      path,
      `<!doctype html><html lang="${lang}"><head>
        ${main.endsWith('.iife.js') ? `<script src="${main}"></script>` : `<script type="module" src="${main}"></script>`}
        <script type="module" src="${locale}"></script></head><body>
        <paykit-pay-button endpoint="/paykit" checkout-origins="https://checkout.test"></paykit-pay-button>
        <paykit-connect-button client-id="c" scope="business:read"></paykit-connect-button></body></html>`,
    );
  }
});
afterAll(() => site?.close());

/** The labels of the two elements, or nothing while either is not defined yet. */
const LABELS = `() => ['paykit-pay-button', 'paykit-connect-button'].every((tag) => customElements.get(tag))
  ? ['paykit-pay-button', 'paykit-connect-button'].map(
      (tag) => document.querySelector(tag)?.shadowRoot?.querySelector('[part=label]')?.textContent ?? null)
  : null`;

describe.each(selectedEngines())('a locale module beside the script-tag file, in %s', (engine) => {
  const browser = browserForBlock(engine);

  /** The labels the page at `path` shows once both scripts ran, and what went wrong on it. */
  async function labelsOn(path: string) {
    const tab = await browser.newTab();
    await tab.goto(`${site.url}${path}`);
    await expect.poll(() => tab.run<(string | null)[] | null>(LABELS), { timeout: 10_000 }).not.toBeNull();
    // Labels are read after both scripts ran: a locale that arrives after the first render must still apply.
    await expect
      .poll(async () => (await tab.run<(string | null)[]>(LABELS))[0], { timeout: 3_000 })
      .not.toBe('Pay')
      .catch(() => undefined);
    const labels = await tab.run<(string | null)[]>(LABELS);
    const problems = await tab.problems();
    await tab.close();
    return { labels, problems };
  }

  it(`speaks French with the ES module build (${ENGINE_NAMES[engine]})`, async () => {
    expect(await labelsOn('/fr-module')).toEqual({
      labels: ['Payer', 'Se connecter avec Payments'],
      problems: [],
    });
  }, 30_000);

  it(`speaks Arabic with the classic-script build (${ENGINE_NAMES[engine]})`, async () => {
    const { labels, problems } = await labelsOn('/ar-classic');
    expect(labels[0]).toBe('ادفع');
    expect(labels[1]).not.toBe('Connect with Payments');
    expect(problems).toEqual([]);
  }, 30_000);
});
