/**
 * The suite on workerd, the runtime of Cloudflare Workers, through Miniflare (its local host): the Worker
 * (`worker.ts`, bundled by the matrix as wrangler would bundle it) is served on a free port of 127.0.0.1, and
 * `GET /__suite` runs the suite inside it. Run with Node 22 or later (Miniflare 4 asks for it).
 *
 *   node run-workerd.js <miniflare module path> <worker bundle> <compatibility date> <sandbox url> <database url> [only]
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { allPassed, resultLine } from './report.js';
import type { Outcome } from './suite.js';

/** The part of Miniflare's API this runner uses (Miniflare is installed in the runtimes cache, not here). */
export interface MiniflareModule {
  Miniflare: new (options: {
    modules: boolean;
    script: string;
    compatibilityDate: string;
    compatibilityFlags: string[];
    bindings: Record<string, string>;
    host: string;
    port: number;
  }) => { ready: Promise<URL>; dispose(): Promise<void> };
}

const [miniflarePath, bundlePath, compatibilityDate, sandboxUrl, databaseUrl, only] = process.argv.slice(2);
if (!miniflarePath || !bundlePath || !compatibilityDate || !sandboxUrl || !databaseUrl) {
  throw new Error(
    'usage: node run-workerd.js <miniflare module> <worker bundle> <compatibility date> <sandbox url> <database url> [only]',
  );
}

const { Miniflare } = (await import(pathToFileURL(miniflarePath).href)) as MiniflareModule;
const workerdVersion = JSON.parse(
  await readFile(new URL('../../../workerd/package.json', pathToFileURL(miniflarePath)), 'utf8'),
) as { version: string };
const miniflare = new Miniflare({
  modules: true,
  script: await readFile(bundlePath, 'utf8'),
  compatibilityDate,
  // As most Workers that use npm packages have it, and as pg needs it (for its Node modules: the TCP socket is
  // Workers' own, cloudflare:sockets). The handler itself needs none of it (a test bundles the main entry for a
  // neutral platform); the production checks set NODE_ENV in the process.env it gives.
  compatibilityFlags: ['nodejs_compat'],
  bindings: { SANDBOX_URL: sandboxUrl, DATABASE_URL: databaseUrl, WORKERD_VERSION: workerdVersion.version },
  host: '127.0.0.1',
  port: 0,
});
const runtime = `workerd ${workerdVersion.version}`;
try {
  const origin = await miniflare.ready;
  const url = new URL('/__suite', origin);
  if (only !== undefined) url.searchParams.set('only', only);
  const response = await fetch(url);
  const text = await response.text();
  if (!response.ok) throw new Error(`the Worker answered /__suite with ${response.status}: ${text}`);
  const outcomes = JSON.parse(text) as Outcome[];
  console.log(resultLine(runtime, outcomes));
  process.exitCode = allPassed(outcomes) ? 0 : 1;
} finally {
  await miniflare.dispose();
}
