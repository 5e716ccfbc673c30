/**
 * The root Vite config: the script-tag bundles of @paykit/elements (`pnpm build`), and Vitest's
 * configuration for every Node-side test (core, server, sandbox, and the end-to-end tests in `test/`).
 * The element tests run under web-test-runner instead, in Chromium, Firefox ESR and WebKitGTK (packages/elements).
 */
import { selectedEngines, type Engine } from './packages/test-support/src/engines.js';
import { LongestFirstSequencer } from './test/support/longest-first-sequencer.js';
import { readdirSync, readFileSync } from 'node:fs';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The end-to-end files that drive Chromium through Playwright, which cannot drive Debian's Firefox and WebKit
 * (its own builds of them download themselves): every file under test/e2e that launches Chromium; none does now,
 * and the list stays so that one added later is said and left out rather than failing in Firefox or WebKit. The
 * files that drive every engine import ../support/engine-browser.ts instead (all of test/e2e). Said once per run,
 * in one line, when there is one; left out when `PAYKIT_BROWSERS` leaves Chromium out.
 */
const engines = selectedEngines();
const chromiumOnly = readdirSync(new URL('./test/e2e/', import.meta.url))
  .filter((file) => file.endsWith('.test.ts'))
  .filter((file) =>
    /from '@paykit\/test-support\/browser'/.test(readFileSync(new URL(`./test/e2e/${file}`, import.meta.url), 'utf8')),
  )
  .map((file) => `test/e2e/${file}`);
if (
  process.env.VITEST_POOL_ID === undefined &&
  chromiumOnly.length > 0 &&
  engines.some((engine) => engine !== 'chromium')
) {
  // eslint-disable-next-line no-console
  console.info(
    `Chromium only (Playwright drives no Debian Firefox or WebKit; the pay, drop-in, connect and framed-page flows run in all): ${chromiumOnly.map((file) => file.replace('test/e2e/', '')).join(', ')}`,
  );
}

/**
 * How many end-to-end files run at once (in Chromium and Firefox, then in WebKit): `PAYKIT_TEST_WORKERS`, or
 * two. On two cores two workers keep the CPUs busy; three made flows time out. The Node tests, which mostly wait on
 * processes and sockets, run one more at a time. vitest's own default is one fewer than the CPUs: one file at a
 * time on a 2-core machine. Every file takes its own ports (port 0), temp folders and table prefix, so any count
 * is safe; what must run alone says so in its own file (a PostgreSQL server of its own, for the files that freeze
 * or stop one).
 */
const workers = Number(process.env.PAYKIT_TEST_WORKERS ?? 2);
if (!Number.isInteger(workers) || workers < 1) {
  throw new Error(`PAYKIT_TEST_WORKERS is "${process.env.PAYKIT_TEST_WORKERS}": a whole number of workers, 1 or more`);
}

/** How the Node-side tests run (the `node` project; test/exit-code.test.ts runs its fixture the same way). */
export const NODE_PROJECT: { pool: 'threads'; globalSetup: string[] } = {
  // Worker threads: cheaper to start than processes, and nothing here needs a process of its own (the tests that
  // run processes spawn them).
  pool: 'threads',
  // One PostgreSQL server for the run (the @paykit/server/postgres tests, the fleets), a table prefix per test
  // file, unless PAYKIT_TEST_DATABASE_URL is set.
  globalSetup: ['packages/test-support/src/postgres-global-setup.ts'],
};

/**
 * The end-to-end files in `engines`, `maxWorkers` at a time, in vitest group `group` (groups run one after the
 * other). A process per worker, kept across its files (no isolation): its browsers, one per engine, stay open from
 * one file to the next (test/support/worker-browsers.ts). Each file starts its own demo, sandbox and sites on ports
 * of their own, and each test opens fresh browser contexts. The files read their engines from `PAYKIT_BROWSERS`.
 */
function e2eProject(name: string, engines: Engine[], group: number, maxWorkers: number) {
  return {
    extends: true as const,
    test: {
      name,
      sequence: { groupOrder: group },
      maxWorkers,
      env: { PAYKIT_BROWSERS: engines.join(',') },
      // A hang detector, not a measure: a flow that takes 10 s alone took over 60 s beside the other worker's
      // browsers.
      testTimeout: 120_000,
      include: ['test/e2e/**/*.test.ts'],
      exclude: [...configDefaults.exclude, ...(engines.includes('chromium') ? [] : chromiumOnly)],
      pool: 'forks' as const,
      isolate: false,
    },
  };
}

/**
 * The Node test files that need a module graph of their own. The other Node files share their worker's modules
 * from one file to the next (`isolate: false`: 45 s less wall time and 94 CPU-seconds less in `vitest run --project
 * node` on the 2-core machine, 169 s against 214; importing took 48 s instead of 121), which these two cannot:
 * persistence.test.ts replaces `node:fs` with `vi.mock`, and adapters/node.test.ts checks that the merchant's code
 * gets Node's own `Request`, which @hono/node-server (the sandbox's server) replaces process-wide as soon as a file
 * in the same worker has started a sandbox.
 */
const ISOLATED_NODE_FILES = ['packages/sandbox/src/persistence.test.ts', 'packages/server/src/adapters/node.test.ts'];

export default defineConfig({
  test: {
    // The longest files first, from test/file-durations.json where vitest's cache has no figures (a fresh clone).
    sequence: { sequencer: LongestFirstSequencer },
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // expect.poll waits up to 5 s, not vitest's 1 s: a poll returns as soon as it holds, and on a loaded CI machine a
    // browser may take longer than a second to show what a test waits for.
    expect: { poll: { timeout: 5_000 } },
    projects: [
      {
        extends: true,
        test: {
          ...NODE_PROJECT,
          name: 'node',
          isolate: false,
          // The Node tests first, then the end-to-end files: each group with its own number of workers.
          sequence: { groupOrder: 0 },
          maxWorkers: workers + 1,
          include: ['packages/{core,server,sandbox}/src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'test/e2e/**', ...ISOLATED_NODE_FILES],
        },
      },
      {
        extends: true,
        test: {
          ...NODE_PROJECT,
          name: 'node-isolated',
          sequence: { groupOrder: 0 },
          maxWorkers: workers + 1,
          include: ISOLATED_NODE_FILES,
        },
      },
      ...(engines.some((engine) => engine !== 'webkit')
        ? [
            e2eProject(
              'e2e',
              engines.filter((engine) => engine !== 'webkit'),
              1,
              workers,
            ),
          ]
        : []),
      // WebKit's flows after the others, `workers` files at a time, each worker with its own WebKitWebDriver and
      // virtual display (xvfb-run -a tries the next display number when two start at once). WebKit waits more than it
      // works, so a second worker is nearly free: alone, the group took 152 s and 280 CPU-s with two workers; with one,
      // in a whole timing run at 0a703aa, 210 s and about 285 CPU-s, the CPUs 68 % busy. Two drivers at once once made
      // new MiniBrowser sessions wait past 60 s: the virtual display resetting between sessions, fixed since by Xvfb's
      // -noreset (packages/test-support/src/engines.ts). In a whole timing run at 4cdbff0 the group took 175 s, the
      // CPUs 94 % busy; fresh clones' whole runs have not shown the gain beyond their spread. One pool for WebKit and the other engines bought nothing on
      // two cores (443 s and 760 CPU-s against about 425 s one group after the other): the groups stay apart.
      ...(engines.includes('webkit') ? [e2eProject('e2e-webkit', ['webkit'], 2, workers)] : []),
    ],
  },
});
