/**
 * The flags that make Debian's Chromium quiet, offline-friendly and container-safe: shared by playwright-core
 * (end-to-end tests, benchmarks) and web-test-runner (element tests).
 */
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

/** `$CHROME_PATH`, or Debian's `/usr/bin/chromium`. */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
