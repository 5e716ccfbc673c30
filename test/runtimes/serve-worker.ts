/**
 * Serves a Worker bundle with Miniflare on 127.0.0.1:$PORT until it is stopped (SIGTERM), for the matrix's
 * example of a Worker (packages/server/examples/worker.ts). Every variable named in $WORKER_BINDINGS is passed
 * from this process's environment as a binding, as wrangler passes vars and secrets. Run with Node 22 or later.
 *
 *   node serve-worker.js <miniflare module path> <worker bundle> <compatibility date>
 */
import { readFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import type { MiniflareModule } from './run-workerd.js';

const [miniflarePath, bundlePath, compatibilityDate] = process.argv.slice(2);
if (!miniflarePath || !bundlePath || !compatibilityDate) {
  throw new Error('usage: node serve-worker.js <miniflare module> <worker bundle> <compatibility date>');
}
const bindings = Object.fromEntries(
  (process.env.WORKER_BINDINGS ?? '')
    .split(',')
    .filter(Boolean)
    .map((name) => [name, process.env[name] ?? '']),
);
const { Miniflare } = (await import(pathToFileURL(miniflarePath).href)) as MiniflareModule;
const miniflare = new Miniflare({
  modules: true,
  script: await readFile(bundlePath, 'utf8'),
  compatibilityDate,
  compatibilityFlags: ['nodejs_compat'],
  bindings,
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
});
const origin = await miniflare.ready;
console.log(`listening on ${origin.origin}`);
process.once('SIGTERM', () => {
  void miniflare.dispose().then(() => process.exit(0));
});
