/**
 * Accessibility and looks, tested rather than assumed (issue 13 item 4), in every engine (Chromium, Firefox ESR,
 * WebKitGTK; `PAYKIT_BROWSERS` picks): every page of the demo and of the sandbox (see test/support/page-tour.ts)
 * passes axe-core (WCAG 2.2 A/AA and best practices, shadow roots included) with no serious or critical violation,
 * at desktop (1280x800) and phone (390x844; WebKitGTK's MiniBrowser window is no narrower than 447 px) sizes, in
 * light and dark, under each page's own Content-Security-Policy (axe runs as the automation's evaluation, which the
 * policy does not govern). Each page is also photographed in each of the four ways into test/screenshots/ (not
 * committed), for a person to look at. One tab per way, signed in to the sandbox dashboard through its page.
 */
import { ENGINE_NAMES, selectedEngines } from '@paykit/test-support/engines';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemo, type RunningDemo } from '../../demo/start-demo.js';
import { blocking, runAxeInTab, type AxeFinding } from '../support/axe.js';
import { browserForBlock } from '../support/engine-block.js';
import { WEBKIT_NARROWEST, type TabOptions } from '../support/engine-browser.js';
import { prepareTour, type Tour } from '../support/page-tour.js';

const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));

/** The four ways a page is seen. */
const VARIANTS = [
  { size: 'desktop', viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
  { size: 'desktop', viewport: { width: 1280, height: 800 }, colorScheme: 'dark' },
  { size: 'phone', viewport: { width: 390, height: 844 }, colorScheme: 'light', touch: true },
  { size: 'phone', viewport: { width: 390, height: 844 }, colorScheme: 'dark', touch: true },
] as const satisfies readonly (TabOptions & { size: string })[];

beforeAll(async () => {
  await mkdir(SCREENSHOTS, { recursive: true });
  // Said once per run so that a person knows where to look; the files are not committed (.gitignore).
  // eslint-disable-next-line no-console
  console.log(`Screenshots of every page (desktop and phone, light and dark, each engine): ${SCREENSHOTS}`);
});

describe.each(selectedEngines())('every demo and sandbox page, in %s', (engine) => {
  const name = ENGINE_NAMES[engine];
  let demo: RunningDemo;
  const browser = browserForBlock(engine);
  let tour: Tour;
  // A demo per engine: the tour's walk pays and connects, once per demo.
  beforeAll(async () => {
    demo = await startDemo({ port: 0, sandboxPort: 0 });
    const walk = await browser.newTab();
    tour = await prepareTour(demo, walk);
    await walk.close();
  }, 90_000);
  afterAll(async () => {
    await demo?.close();
  });

  it.each(
    VARIANTS.map((variant) => ({
      ...variant,
      width: engine === 'webkit' ? Math.max(variant.viewport.width, WEBKIT_NARROWEST) : variant.viewport.width,
    })),
  )(
    `has no serious or critical axe violation at $size size in $colorScheme ($width x $viewport.height, ${name})`,
    async ({ size, width, ...options }) => {
      const tab = await browser.newTab(options);
      expect(await tab.run('() => innerWidth')).toBe(width);
      await tour.signIn(tab);
      const report: Record<string, AxeFinding[]> = {};
      const lesser: string[] = [];
      for (const tourPage of tour.pages) {
        await tab.goto(tourPage.url);
        await tourPage.ready?.(tab);
        await tab.screenshot(`${SCREENSHOTS}${tourPage.name}-${size}-${options.colorScheme}-${engine}.png`);
        const findings = await runAxeInTab(tab);
        const refused = findings.filter(blocking);
        if (refused.length > 0) report[tourPage.name] = refused;
        for (const f of findings.filter((finding) => !blocking(finding)))
          lesser.push(`${tourPage.name}: ${f.impact} ${f.rule} at ${f.targets.join(', ')}`);
      }
      await tab.close();
      // Moderate and minor findings are printed for a person to weigh, not refused.
      if (lesser.length > 0) {
        // eslint-disable-next-line no-console
        console.log(`axe, ${name} ${size} ${options.colorScheme}, not refused:\n  ${lesser.join('\n  ')}`);
      }
      expect(report).toEqual({});
      expect(tour.pages).toHaveLength(20);
    },
    180_000,
  );
});
