/**
 * The connect flow in every engine (Chromium, Firefox ESR, WebKitGTK; `PAYKIT_BROWSERS` picks): the demo platform
 * under its strict CSP (script tag, Trusted Types), the sandbox's hosted dashboard and consent pages, the return
 * page. It ends with no uncaught error, no console error and no CSP violation: neither as the pages saw them nor as
 * the browsers reported them to the demo and the sandbox (`report-uri`). The pay and fail flows (with "Try again")
 * are in pay-flow.test.ts, in every engine too.
 */
import { ENGINE_NAMES, selectedEngines } from '@paykit/test-support/engines';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT } from '../../demo/platform.js';
import { startDemo, type RunningDemo } from '../../demo/start-demo.js';
import { launchEngine, type EngineBrowser, type Tab } from '../support/engine-browser.js';

let demo: RunningDemo;
beforeAll(async () => {
  demo = await startDemo({ port: 0, sandboxPort: 0 });
});
afterAll(async () => {
  await demo?.close();
});

/** The status line of `<paykit-return>`. */
const status = (tab: Tab) => tab.text('paykit-return', '[role=status]');

/** Everything that went wrong, in the tab and as reported to the two servers; the servers' lists are emptied. */
async function problems(tab: Tab): Promise<string[]> {
  // Browsers send their reports a moment after the violation.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const reported = [
    ...demo.cspReports.map((report) => `reported to the demo: ${JSON.stringify(report)}`),
    ...demo.sandbox.context.cspReports.map((report) => `reported to the sandbox: ${JSON.stringify(report)}`),
  ];
  (demo.cspReports as unknown[]).length = 0;
  demo.sandbox.context.cspReports.length = 0;
  return [...(await tab.problems()), ...reported];
}

describe.each(selectedEngines())('in %s', (engine) => {
  let browser: EngineBrowser;
  beforeAll(async () => {
    browser = await launchEngine(engine);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  // A failed test's tab too: WebKitWebDriver holds one session at a time.
  afterEach(async () => {
    await browser?.closeTabs();
  });

  it(`a merchant connects through the dashboard's sign-in and consent pages (${ENGINE_NAMES[engine]})`, async () => {
    const tab = await browser.newTab();
    await tab.goto(`${demo.url}/platform`);
    await tab.click('Connect with Payments');
    await tab.waitForUrl((url) => url.pathname === '/dashboard/sign-in');
    await tab.fill('Email', DEMO_MERCHANT.ownerEmail);
    await tab.click('Sign in');
    await tab.waitForUrl((url) => url.pathname === '/oauth/authorize');
    expect(await tab.text('h1')).toContain('Acme Marketplace wants to connect');
    await tab.click('Connect');
    const back = await tab.waitForUrl((url) => url.origin === demo.url && url.pathname === '/platform/return');
    await expect.poll(() => status(tab), { timeout: 10_000 }).toBe(`Connected to ${DEMO_MERCHANT.name}.`);
    // The code and state are taken off the address once handled.
    await expect.poll(async () => (await tab.url()).search, { timeout: 5_000 }).toBe('');
    expect(back.pathname).toBe('/platform/return');
    // One merchant, connected once per engine: the platform keeps one connection to it.
    expect([...demo.platform.connected.keys()]).toHaveLength(1);
    expect(await problems(tab)).toEqual([]);
    await tab.close();
  }, 60_000);
});
