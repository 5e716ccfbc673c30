/**
 * The framework examples of the demo, built by Vite as apps are: React through `@paykit/elements/react`, Vue
 * with the custom element used directly. In every engine (Chromium, Firefox ESR, WebKitGTK; `PAYKIT_BROWSERS`
 * picks) under the demo's strict CSP: each renders the shop, sends the shopper to the sandbox checkout on one
 * payment request, and shows the element's error when the API fails.
 */
import { ENGINE_NAMES, selectedEngines } from '@paykit/test-support/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type RunningDemo } from '../../demo/start-demo.js';
import { browserForBlock, demoReports, problemsWithReports } from '../support/engine-block.js';
import type { Tab } from '../support/engine-browser.js';

let demo: RunningDemo;
beforeAll(async () => {
  demo = await startDemo({ port: 0, sandboxPort: 0 });
});
afterAll(async () => {
  await demo?.close();
});

/** The line a browser writes to its console about a response it got with a 502 (Chromium writes one). */
const BAD_GATEWAY =
  /^console\.error: Failed to load resource: the server responded with a status of 502 \(Bad Gateway\)$/;

/** Everything that went wrong, in the tab and as reported to the demo and its sandbox (their lists are emptied). */
const problems = (tab: Tab) => problemsWithReports(tab, demoReports(demo));

describe.each(selectedEngines())('in %s', (engine) => {
  const browser = browserForBlock(engine);

  describe.each(['react', 'vue'])('the %s example', (framework) => {
    it(`renders the shop and sends the shopper to the checkout on one payment request (${ENGINE_NAMES[engine]})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(`${demo.url}/${framework}`);
      await expect.poll(() => tab.has('Buy Enamel mug'), { timeout: 10_000 }).toBe(true);
      const before = demo.sandbox.context.state.paymentRequests.size;
      await tab.click('Buy Enamel mug');
      await tab.waitForUrl((url) => url.origin === demo.sandbox.url);
      await expect.poll(() => tab.text('[data-testid=amount]'), { timeout: 10_000 }).toBe('SGD\u00a012.50');
      expect(demo.sandbox.context.state.paymentRequests.size).toBe(before + 1);
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`shows the element's error through the framework's event binding when the API fails (${ENGINE_NAMES[engine]})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(`${demo.url}/${framework}`);
      const answer = await fetch(`${demo.sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: '/v1/payment-requests', method: 'POST', kind: 'status', status: 500 }),
      });
      expect(answer.status).toBe(201);
      await tab.click('Buy Organic T-shirt');
      await expect
        .poll(() => tab.text('article[data-sku="sku-tee"] .example-status'), { timeout: 10_000 })
        .toMatch(/^Could not start the checkout \(\w+\)\.$/);
      expect((await tab.url()).href).toBe(`${demo.url}/${framework}`);
      // The browser's own line about the failed request is expected (Chromium's console has one; Firefox's and
      // WebKit's write none where a page can hear it); no CSP violation nor anything else is.
      const seen = await problems(tab);
      expect(seen.filter((line) => !BAD_GATEWAY.test(line))).toEqual([]);
      if (engine === 'chromium') expect(seen).toHaveLength(1);
      await tab.close();
    }, 120_000);
  });
});
