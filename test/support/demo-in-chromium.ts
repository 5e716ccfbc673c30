/**
 * The end-to-end tests' fixture: the demo (with its embedded sandbox) on free ports and one Chromium, started
 * before a file's tests and stopped after them.
 */
import { launchChromium } from '@paykit/test-support/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startDemo, type RunningDemo } from '../../demo/start-demo.js';

/** What a test file reads once `beforeAll` has run. */
export interface DemoInChromium {
  readonly demo: RunningDemo;
  readonly browser: Browser;
}

/** Registers the hooks of the calling test file; read `demo` and `browser` inside tests only. */
export function demoInChromium(): DemoInChromium {
  let demo: RunningDemo | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    demo = await startDemo({ port: 0, sandboxPort: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The demo and Chromium start in beforeAll: read them inside tests');
    return value;
  };
  return {
    get demo() {
      return started(demo);
    },
    get browser() {
      return started(browser);
    },
  };
}
