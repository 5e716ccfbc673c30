/**
 * The JavaScript beside each TypeScript example of `@paykit/server` (issue 35 item 4): a newcomer on Node 20, or
 * without a TypeScript loader, pastes `examples/js/<name>.js`. Each is its example with the types taken out by
 * ts-blank-space (which blanks type syntax and keeps everything else where it was, comments included) and laid out
 * by prettier, so the two never say different things. `test/framework-examples-js.test.ts` fails when one is stale.
 *
 *   tsx scripts/examples-js.ts          write them
 *   tsx scripts/examples-js.ts --check  exit 1 naming each that differs
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import blankTypes from 'ts-blank-space';

const root = fileURLToPath(new URL('..', import.meta.url));
const examples = join(root, 'packages/server/examples');

/** Each TypeScript example and its JavaScript, relative to packages/server/examples. */
export const EXAMPLES: readonly { ts: string; js: string }[] = [
  { ts: 'express.ts', js: 'js/express.js' },
  { ts: 'shop.ts', js: 'js/shop.js' },
  { ts: 'hono.ts', js: 'js/hono.js' },
  { ts: 'bun.ts', js: 'js/bun.js' },
  { ts: 'deno.ts', js: 'js/deno.js' },
  { ts: 'worker.ts', js: 'js/worker.js' },
  { ts: 'next/app/paykit/[...path]/route.ts', js: 'js/next/app/paykit/[...path]/route.js' },
];

/** The JavaScript of one TypeScript example's source. */
export async function javascriptOf(source: string, file: string): Promise<string> {
  const stripped = blankTypes(source, (node) => {
    throw new Error(`${file}: ts-blank-space cannot strip ${node.getText()} (an enum or a namespace?)`);
  });
  // `import { x, type Y }` leaves `import { x,  }`, and a type-only import an empty one: prettier tidies the first;
  // the second is dropped here, since it imports nothing at run time.
  // An example's own modules are imported by their name (`./shop.ts`, as Deno, Bun and Node 24 run them); the
  // JavaScript imports the JavaScript beside it.
  const withoutEmpty = stripped
    .replace(/^import\s*\{\s*\}\s*from\s*'[^']+';\n/gm, '')
    .replace(/(from\s*'\.\/[^']+)\.ts'/g, "$1.js'");
  const options = (await prettier.resolveConfig(join(examples, file))) ?? {};
  return prettier.format(withoutEmpty, { ...options, parser: 'babel', filepath: file.replace(/\.ts$/, '.js') });
}

/** Writes (or with `check`, compares) every JavaScript example; the names of those that differ. */
export async function writeExamples(check: boolean): Promise<string[]> {
  const stale: string[] = [];
  for (const { ts, js } of EXAMPLES) {
    const wanted = await javascriptOf(await readFile(join(examples, ts), 'utf8'), ts);
    const target = join(examples, js);
    const now = await readFile(target, 'utf8').catch(() => '');
    if (now === wanted) continue;
    stale.push(js);
    if (!check) {
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, wanted);
    }
  }
  return stale;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const stale = await writeExamples(check);
  if (check && stale.length > 0) {
    console.error(`stale JavaScript examples (run: tsx scripts/examples-js.ts): ${stale.join(', ')}`);
    process.exit(1);
  }
  console.log(check ? 'JavaScript examples up to date' : `wrote ${stale.length} JavaScript example(s)`);
}
