/**
 * Debian's Chromium (its headless shell: chromium-args.ts) driven by playwright-core: the browser of the end-to-end tests and the benchmarks.
 * Playwright's own browser download does not work on these machines (TOOLCHAIN.md).
 */
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium-args.js';

/** Launches headless Chromium from `$CHROME_PATH`, or Debian's `/usr/bin/chromium-headless-shell`. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
}
