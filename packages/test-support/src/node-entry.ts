/**
 * TypeScript entry points that tests start as Node processes of their own (the sandbox's CLI, a fleet's
 * instances, the store-outage hammer), as one JavaScript file each, so that they start without a loader.
 *
 * Why: through `--import tsx` on Node 20 a process spends about 1.2 CPU-s more to start than the same code as one
 * file (the sandbox's CLI: 1.65 CPU-s against 0.45-0.6), and the Node tests start about 80 of them (issue 34). What
 * the process runs is the same code: paykit's own modules (the `@paykit/*` workspace and relative imports) are
 * bundled, each keeping its own `import.meta.url`, and every other package is left to Node, imported from where
 * Node would have found it. A test that needs tsx in the process itself (a module it imports at run time is
 * TypeScript, or the stack trace must name the source file) keeps `--import tsx`.
 *
 * The bundle is kept under `node_modules/.cache/paykit-entries/` and built again when a source it holds or the
 * lockfile has changed, checked by content on every call (tens of milliseconds; nothing is remembered in the
 * process, so a watch run never starts an old bundle); workers that build the same entry at once each write their
 * own file and rename it into place.
 */
import { build, type Plugin } from 'esbuild';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository's root (this file is packages/test-support/src/node-entry.ts). */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CACHE = join(ROOT, 'node_modules/.cache/paykit-entries');
/** Part of every bundle's fingerprint: a changed install moves the packages the bundle imports by path. */
const LOCKFILE = join(ROOT, 'pnpm-lock.yaml');

/** What a built bundle was made from, stored beside it. */
interface Made {
  inputs: string[];
  fingerprint: string;
}

/**
 * The JavaScript file to start in place of the TypeScript `entry` (`node <file> args…`, or `fork(file, args, {
 * execArgv: [] })`). Rejects, naming the file and the line, when the entry or a module it imports does not build.
 */
export async function nodeEntry(entry: string | URL): Promise<string> {
  return bundleOf(typeof entry === 'string' ? entry : fileURLToPath(entry));
}

async function bundleOf(entry: string): Promise<string> {
  const name = relative(ROOT, entry)
    .replace(/[^\w.-]+/g, '_')
    .replace(/\.ts$/, '');
  const out = join(CACHE, `${name}.mjs`);
  const madeFile = join(CACHE, `${name}.json`);
  const made = await readFile(madeFile, 'utf8').then(
    (text) => JSON.parse(text) as Made,
    () => undefined,
  );
  if (made && existsSync(out) && (await fingerprint(made.inputs)) === made.fingerprint) return out;

  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    absWorkingDir: ROOT,
    plugins: [ownCodeOnly()],
  }).catch((error: { errors?: { text: string; location: { file: string; line: number } | null }[] }) => {
    const first = error.errors?.[0];
    const where = first?.location ? ` (${first.location.file}:${first.location.line})` : '';
    throw new Error(`nodeEntry: could not bundle ${relative(ROOT, entry)}: ${first?.text ?? String(error)}${where}`, {
      cause: error,
    });
  });
  const inputs = Object.keys(result.metafile.inputs).map((input) => join(ROOT, input));
  await mkdir(CACHE, { recursive: true });
  // Each written under a name of its own (vitest's threads share a pid), then renamed: a worker reading the bundle
  // never sees half of one.
  const partial = `${out}.${randomUUID()}`;
  await writeFile(partial, result.outputFiles[0]!.contents);
  await rename(partial, out);
  const record: Made = { inputs, fingerprint: await fingerprint(inputs) };
  const partialRecord = `${madeFile}.${randomUUID()}`;
  await writeFile(partialRecord, JSON.stringify(record));
  await rename(partialRecord, madeFile);
  return out;
}

/** A hash of the inputs' contents and the lockfile's (a missing input hashes as missing: the bundle is rebuilt). */
async function fingerprint(inputs: string[]): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [LOCKFILE, ...inputs]) {
    hash.update(file);
    hash.update(await readFile(file).catch(() => Buffer.from('\0missing')));
  }
  return hash.digest('hex');
}

/**
 * Bundles paykit's own modules and leaves every other package to Node, by absolute path so that it is the copy
 * the importing package would have found; each bundled module's `import.meta.url` stays its own file's, as the
 * test helpers and the demo find files beside them.
 */
function ownCodeOnly(): Plugin {
  return {
    name: 'paykit-own-code-only',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.path.startsWith('@paykit/') || args.pluginData === 'resolving') return undefined;
        if (args.path.startsWith('node:')) return { path: args.path, external: true };
        const found = await builder.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: 'resolving',
        });
        if (found.errors.length > 0) return { errors: found.errors };
        // A Node builtin without the `node:` prefix resolves to itself.
        return { path: found.external ? args.path : found.path, external: true };
      });
      builder.onLoad({ filter: /\.ts$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        return {
          contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)),
          loader: 'ts',
          resolveDir: dirname(args.path),
        };
      });
    },
  };
}
