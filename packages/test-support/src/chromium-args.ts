/**
 * The Chromium the tests drive, and the flags that make it quiet, offline-friendly and container-safe: shared by
 * puppeteer-core (end-to-end tests), playwright-core (benchmarks) and web-test-runner (element tests).
 */
import { basename } from 'node:path';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  // Cross-origin frames in processes of their own, as in desktop Chromium (the headless shell keeps them in the
  // page's process unless asked): the drop-in's checkout frame and the site builders' frames cross processes.
  '--site-per-process',
];

/**
 * `$CHROME_PATH`, or Debian's `/usr/bin/chromium-headless-shell` (package chromium-headless-shell): the same
 * Chromium release and Blink as `/usr/bin/chromium`, built as the headless shell that Puppeteer and Playwright run
 * headless tests in by default. It does the same work in a third of the CPU: the end-to-end files in Chromium
 * alone took 220 s of wall time in the full browser and 77 s in the shell on this 2-core machine (README, "The
 * suite's time"). A full Chromium still works: `CHROME_PATH=/usr/bin/chromium`.
 */
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium-headless-shell';

/**
 * Puppeteer's `headless` for {@link CHROMIUM_PATH}: `'shell'` for a headless shell (headless is all it does),
 * `true` for a full Chromium (its new headless mode).
 */
export const CHROMIUM_HEADLESS: true | 'shell' = basename(CHROMIUM_PATH).includes('headless-shell') ? 'shell' : true;
