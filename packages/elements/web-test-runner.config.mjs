/**
 * Element tests in Chromium, Firefox ESR and WebKitGTK (Debian's three; `PAYKIT_BROWSERS=chromium` or any
 * comma-separated subset runs fewer), against a real backend (see test-support/backend.ts). Run through
 * `node --import tsx` so that this config can start the TypeScript sandbox and handler. Modules resolve with
 * the `development` condition, as a dev server does: the elements carry their console diagnostics (`#dev`),
 * and Lit its dev mode. What the production build leaves out is checked on its bundles (`pnpm bench:sizes`).
 */
import { CHROMIUM_ARGS, CHROMIUM_HEADLESS, CHROMIUM_PATH } from '@paykit/test-support/chromium-args';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import {
  ENGINE_NAMES,
  FIREFOX_PATH,
  selectedEngines,
  startWebKitDriver,
  webkitCapabilities,
} from '@paykit/test-support/engines';
import { freePort } from '@paykit/test-support/loopback';
import { chromeLauncher } from '@web/test-runner-chrome';
import { webdriverLauncher } from '@web/test-runner-webdriver';
import * as puppeteer from 'puppeteer-core';
import { startTestBackend } from './test-support/backend.ts';
import { checkoutFramePlugin } from './test-support/checkout-frame-plugin.ts';
import { reactAsEsm } from './test-support/react-as-esm.ts';

const backend = await startTestBackend();
const engines = selectedEngines();
// WebKit: MiniBrowser under its own virtual display, driven over classic WebDriver (no BiDi in Debian's build).
const webkit = engines.includes('webkit') ? await startWebKitDriver() : undefined;

/** One launcher per engine. Firefox speaks WebDriver BiDi to puppeteer-core, no separate driver needed. */
const launchers = {
  chromium: () =>
    chromeLauncher({
      launchOptions: { executablePath: CHROMIUM_PATH, headless: CHROMIUM_HEADLESS, args: CHROMIUM_ARGS },
    }),
  firefox: () =>
    chromeLauncher({ puppeteer, launchOptions: { browser: 'firefox', executablePath: FIREFOX_PATH, headless: true } }),
  webkit: () =>
    webdriverLauncher({
      hostname: '127.0.0.1',
      port: webkit.port,
      logLevel: 'error',
      capabilities: { ...webkitCapabilities({ allowPopups: true }), 'wdio:enforceWebDriverClassic': true },
    }),
};
// eslint-disable-next-line no-console
console.log(`Element tests in ${engines.map((engine) => ENGINE_NAMES[engine]).join(', ')} (PAYKIT_BROWSERS picks)`);

export default {
  files: 'src/**/*.test.ts',
  // A port of its own: test-support/run-engines.ts starts one web-test-runner per engine at once, and
  // web-test-runner's own choice (the first free port from 8000) races between them.
  port: await freePort(),
  nodeResolve: { exportConditions: ['development'] },
  concurrency: 1,
  // One file at a time: the tests count what reached the backend (payment requests, callbacks). The engines run
  // side by side, each in a web-test-runner process of its own with its own backend (test-support/run-engines.ts).
  concurrentBrowsers: 1,
  // A hang detector, not a measure: a drop-in test beside the other engines took over 10 s in Chromium.
  testFramework: { config: { timeout: 20_000 } },
  middleware: [backend.middleware],
  plugins: [
    { name: 'paykit-webkit-driver', serverStop: () => webkit?.stop() },
    checkoutFramePlugin(),
    await reactAsEsm(),
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: new URL('./tsconfig.json', import.meta.url).pathname }),
  ],
  browsers: engines.map((engine) => launchers[engine]()),
};
