/**
 * A lazy chunk not served beside the script-tag file (issue 26): the development file says in the console which
 * file did not load, the URL it tried and where to serve it from (that the production files carry none of those
 * words is test/chunk-load-words.test.ts).
 * Against the built `packages/elements/dist` (`pnpm --filter @paykit/elements build`), in every engine (Chromium,
 * Firefox ESR, WebKitGTK; `PAYKIT_BROWSERS` picks), with the page served from 127.0.0.1 as a site that copied
 * `paykit.development.js` alone.
 */
import { ENGINE_NAMES, selectedEngines } from '@paykit/test-support/engines';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserForBlock } from '../support/engine-block.js';

const DIST = new URL('../../packages/elements/dist/', import.meta.url);

/** The site: its page, `/js/paykit.development.js`, and a 404 for every other file (every chunk beside it). */
let site: Server;
let SITE: string;
beforeAll(async () => {
  site = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/js/paykit.development.js')
      return res
        .writeHead(200, { 'content-type': 'text/javascript' })
        .end(readFileSync(new URL('paykit.development.js', DIST)));
    if (path !== '/') return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    // The page's first script keeps what is written to the console's errors, for the test to read in any engine
    // (WebDriver, WebKit's automation, hears no console); the element's module runs after it.
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><html lang="en"><head>
      <script>
        window.__consoleErrors = [];
        const error = console.error;
        console.error = (...args) => { window.__consoleErrors.push(args.map(String).join(' ')); error.apply(console, args); };
      </script>
      <script type="module" src="/js/paykit.development.js"></script>
      </head><body><paykit-connect-button client-id="c" scope="business:read" redirect-uri="${SITE}/back"
      dashboard-url="https://dashboard.test"></paykit-connect-button></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  SITE = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(async () => {
  site?.closeAllConnections();
  await new Promise((resolve) => site?.close(resolve));
});

describe.each(selectedEngines())('in %s', (engine) => {
  const name = ENGINE_NAMES[engine];
  const browser = browserForBlock(engine);

  describe(`a lazy chunk that does not load (${name})`, () => {
    it(`is named by the development file with its URL and where to serve it from (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(`${SITE}/`);
      const said = () =>
        tab.run<string | undefined>(`() => window.__consoleErrors.find((line) => line.startsWith('[paykit]'))`);
      await expect
        .poll(said, { timeout: 15_000 })
        .toMatch(
          new RegExp(
            `^\\[paykit\\] ${SITE}/js/paykit\\.development\\.start-connect-[\\w-]+\\.js could not be loaded: .*` +
              'a <paykit-connect-button> is added to the page\\. Serve every paykit\\.development\\.\\*\\.js file',
          ),
        );
      // Where the automation hears the console itself (puppeteer: Chromium, Firefox), it heard the same line.
      if (engine !== 'webkit')
        expect(await tab.problems()).toContainEqual(
          expect.stringMatching(/^console\.error: \[paykit\] .*could not be loaded/),
        );
      await tab.close();
    }, 120_000);
  });
});
