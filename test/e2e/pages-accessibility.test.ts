/**
 * Accessibility and looks, tested rather than assumed (issue 13 item 4): every page of the demo and of the
 * sandbox (see test/support/page-tour.ts) passes axe-core (WCAG 2.2 A/AA and best practices, shadow roots
 * included) with no serious or critical violation, at desktop (1280x800) and phone (390x844) sizes, in light
 * and dark. Each page is also photographed in each of the four ways into test/screenshots/ (not committed),
 * for a person to look at.
 */
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { BrowserContextOptions } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { blocking, runAxe, type AxeFinding } from '../support/axe.js';
import { demoInChromium } from '../support/demo-in-chromium.js';
import { prepareTour, type Tour } from '../support/page-tour.js';

const e2e = demoInChromium();
const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** The four ways a page is seen. */
const VARIANTS = [
  { size: 'desktop', viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
  { size: 'desktop', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
  { size: 'phone', viewport: { width: 390, height: 844 }, colorScheme: 'light', isMobile: true, hasTouch: true },
  { size: 'phone', viewport: { width: 390, height: 844 }, colorScheme: 'dark', isMobile: true, hasTouch: true },
] as const satisfies readonly (BrowserContextOptions & { size: string; colorScheme: 'light' | 'dark' })[];

let tour: Tour;
beforeAll(async () => {
  tour = await prepareTour(e2e.demo, e2e.browser);
  await mkdir(SCREENSHOTS, { recursive: true });
  // Said once per run so that a person knows where to look; the files are not committed (.gitignore).
  // eslint-disable-next-line no-console
  console.log(`Screenshots of every page (desktop and phone, light and dark): ${SCREENSHOTS}`);
}, 60_000);

describe('every demo and sandbox page', () => {
  it.each(VARIANTS)(
    'has no serious or critical axe violation at $size size in $colorScheme ($viewport.width x $viewport.height)',
    async ({ size, ...options }) => {
      const context = await e2e.browser.newContext({ ...options, storageState: tour.storageState, bypassCSP: true });
      const report: Record<string, AxeFinding[]> = {};
      const lesser: string[] = [];
      try {
        for (const tourPage of tour.pages) {
          const page = await context.newPage();
          await page.goto(tourPage.url);
          // 'networkidle' is only a settling aid (fonts, the elements' first calls): on a loaded machine a page that
          // keeps checking a payment may not go quiet for 500 ms in time, and that is no accessibility finding.
          // Each page's own `ready` waits for what its check needs.
          await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
          await tourPage.ready?.(page);
          await page.screenshot({
            path: `${SCREENSHOTS}${tourPage.name}-${size}-${options.colorScheme}.png`,
            fullPage: true,
          });
          const findings = await runAxe(page);
          const refused = findings.filter(blocking);
          if (refused.length > 0) report[tourPage.name] = refused;
          for (const f of findings.filter((finding) => !blocking(finding)))
            lesser.push(`${tourPage.name}: ${f.impact} ${f.rule} at ${f.targets.join(', ')}`);
          await page.close();
        }
      } finally {
        await context.close();
      }
      // Moderate and minor findings are printed for a person to weigh, not refused.
      // eslint-disable-next-line no-console
      if (lesser.length > 0) console.log(`axe, ${size} ${options.colorScheme}, not refused:\n  ${lesser.join('\n  ')}`);
      expect(report).toEqual({});
      expect(tour.pages).toHaveLength(20);
    },
    120_000,
  );
});
