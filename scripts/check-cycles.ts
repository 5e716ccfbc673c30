/**
 * No import cycles in the production sources of the four packages (`pnpm check:cycles`, part of `pnpm lint`). Madge
 * reads every `import`, type-only ones included: a cycle through types is still two modules that cannot be
 * understood (or moved to a lazy chunk) one without the other. A lazy chunk takes a host interface from a leaf
 * module (packages/elements/src/button-host.ts), never the element's class.
 */
import madge from 'madge';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The packages whose sources are checked. */
export const PACKAGES = ['core', 'server', 'elements', 'sandbox'];

/**
 * The import cycles among the `.ts` files under `folder` (relative to `root`), tests excluded: each cycle as the
 * list of its files, relative to `root`.
 */
export async function importCycles(root: string, folder: string): Promise<string[][]> {
  const graph = await madge(join(root, folder), {
    baseDir: root,
    fileExtensions: ['ts'],
    tsConfig: join(root, 'tsconfig.base.json'),
    // Tests may import across a package freely: what ships is checked.
    excludeRegExp: [/\.test\.ts$/],
  });
  return graph.circular();
}

if (import.meta.url === pathToFileURL(process.argv[1]!).href) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  let cycles = 0;
  for (const name of PACKAGES)
    for (const cycle of await importCycles(root, `packages/${name}/src`)) {
      cycles += 1;
      console.error(`import cycle in @paykit/${name}: ${[...cycle, cycle[0]].join(' -> ')}`);
    }
  if (cycles > 0) {
    console.error(
      `${cycles} import cycle(s). Move what both modules need into a leaf module that both import (types, a host interface).`,
    );
    process.exit(1);
  }
  console.log(`no import cycles in ${PACKAGES.map((name) => `@paykit/${name}`).join(', ')}`);
}
