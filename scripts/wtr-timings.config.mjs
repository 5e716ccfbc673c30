/**
 * The element tests' own config (packages/elements/web-test-runner.config.mjs), unchanged, with one more reporter
 * beside web-test-runner's default one: how long each test file took in each engine, written as JSON to
 * `$PAYKIT_TIMINGS_DIR/wtr-<engine>.json` (default `.paykit-timings/`; one per engine's process) when the run stops. `pnpm test:timings` runs the
 * element tests with it (`pnpm run test:browser --config <this file>`); the run itself is the same.
 *
 * A file's time in an engine is from its session leaving the queue (INITIALIZING: the page is opened) to its
 * session finishing, as web-test-runner's session manager announces them; the tests' own durations, as mocha
 * measured them, are summed beside it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const elements = join(root, 'packages/elements');
// @web/test-runner is the elements' dependency, not the root's: resolved from there.
const { defaultReporter } = await import(
  pathToFileURL(createRequire(join(elements, 'package.json')).resolve('@web/test-runner')).href
);
const { default: base } = await import(pathToFileURL(join(elements, 'web-test-runner.config.mjs')).href);

/** The sum of the durations mocha gave the tests of one suite and its children, in ms. */
function testMs(suite) {
  if (!suite) return 0;
  const own = (suite.tests ?? []).reduce((sum, test) => sum + (test.duration ?? 0), 0);
  return own + (suite.suites ?? []).reduce((sum, child) => sum + testMs(child), 0);
}

/** Counts the tests of a suite and its children. */
function testCount(suite) {
  if (!suite) return 0;
  return (suite.tests ?? []).length + (suite.suites ?? []).reduce((sum, child) => sum + testCount(child), 0);
}

/** The timing reporter: listens to the session manager, writes one JSON file at the end. */
function timingsReporter() {
  const began = new Map();
  const ended = new Map();
  let startTime = Date.now();
  return {
    start({ sessions, startTime: start }) {
      startTime = start ?? Date.now();
      sessions.on('session-status-updated', (session) => {
        if (session.status === 'INITIALIZING' && !began.has(session.id)) began.set(session.id, Date.now());
        if (session.status === 'FINISHED') ended.set(session.id, Date.now());
      });
    },
    stop({ sessions }) {
      const files = sessions.map((session) => ({
        file: relative(root, session.testFile),
        engine: session.browser.name,
        ms: (ended.get(session.id) ?? Date.now()) - (began.get(session.id) ?? startTime),
        testsMs: testMs(session.testResults),
        tests: testCount(session.testResults),
        passed: session.passed === true,
      }));
      const dir = process.env.PAYKIT_TIMINGS_DIR ?? join(root, '.paykit-timings');
      mkdirSync(dir, { recursive: true });
      // One file per web-test-runner process: the engines run in processes of their own, side by side.
      const name = `wtr-${(process.env.PAYKIT_BROWSERS ?? 'all').replace(/[^a-z]+/g, '-')}.json`;
      writeFileSync(join(dir, name), `${JSON.stringify({ startTime, endTime: Date.now(), files }, null, 2)}\n`);
    },
  };
}

export default { ...base, reporters: [...(base.reporters ?? [defaultReporter()]), timingsReporter()] };
