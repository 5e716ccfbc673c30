/**
 * What every end-to-end file that runs in each engine does alike: the engine's browser for a `describe` block,
 * and the problems a flow ends with (the tab's own, and the CSP violations the browsers reported to the servers).
 */
import { ENGINE_NAMES, type Engine } from '@paykit/test-support/engines';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { RunningDemo } from '../../demo/start-demo.js';
import type { EngineBrowser, Tab } from './engine-browser.js';
import { workerBrowser } from './worker-browsers.js';

/**
 * Registers the calling `describe` block's hooks: `engine`'s browser ready before its tests (the worker's own,
 * launched on first use and kept for its next files: ./worker-browsers.ts; 60 s: WebKit's first window is slow on
 * a loaded machine), every tab closed after each test (a failed test's too: WebKitWebDriver holds one session at a
 * time) and after the block. The answer forwards to that browser: use it in tests and in hooks registered after
 * this call. Its `close()` closes the block's tabs only; the worker closes the browser when it exits.
 */
export function browserForBlock(engine: Engine): EngineBrowser {
  let browser: EngineBrowser | undefined;
  beforeAll(async () => {
    browser = await workerBrowser(engine);
  }, 60_000);
  afterEach(async () => {
    await browser?.closeTabs();
  }, 60_000);
  afterAll(async () => {
    await browser?.closeTabs();
  }, 60_000);
  const started = (): EngineBrowser => {
    if (browser) return browser;
    throw new Error(`${ENGINE_NAMES[engine]} starts in beforeAll: use the browser in tests and later hooks`);
  };
  return {
    engine,
    newTab: (options) => started().newTab(options),
    closeTabs: () => started().closeTabs(),
    close: () => started().closeTabs(),
    alive: () => started().alive(),
    kill: () => started().kill(),
  };
}

/** The CSP report lists of the servers a flow's pages came from, by the name a problem line gives each. */
export type ReportLists = Readonly<Record<string, unknown[]>>;

/** The demo's and its sandbox's report lists (`report-uri` of their pages). */
export function demoReports(demo: RunningDemo): ReportLists {
  // Readonly for the demo's callers; the tests empty it between flows.
  return { demo: demo.cspReports as unknown[], sandbox: demo.sandbox.context.cspReports };
}

/**
 * Everything that went wrong: the tab's uncaught errors, console errors and CSP violations, and the violations
 * the browsers reported to each server of `reports`. The lists are emptied, so the next call sees only what came
 * after.
 */
export async function problemsWithReports(tab: Tab, reports: ReportLists): Promise<string[]> {
  // Browsers send their reports a moment after the violation.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const reported = Object.entries(reports).flatMap(([server, list]) =>
    list.splice(0).map((report) => `reported to the ${server}: ${JSON.stringify(report)}`),
  );
  return [...(await tab.problems()), ...reported];
}
