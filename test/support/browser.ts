/**
 * Debian's Chromium driven by playwright-core: the browser of the end-to-end tests and the benchmarks.
 * Playwright's own browser download does not work on these machines (TOOLCHAIN.md).
 */
import { chromium, type Browser } from 'playwright-core';

/** The flags that make Chromium quiet, offline-friendly and container-safe. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--headless=new',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** Launches headless Chromium from `$CHROME_PATH`, or Debian's `/usr/bin/chromium`. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}
