/**
 * No import cycles in the production sources of the four packages (`pnpm check:cycles`, part of `pnpm lint`). Madge
 * reads every `import`, type-only ones included: a cycle through types is still two modules that cannot be
 * understood (or moved to a lazy chunk) one without the other. A lazy chunk takes a host interface from a leaf
 * module (packages/elements/src/button-host.ts), never the element's class.
 */
import madge from 'madge';
import { fileURLToPath } from 'node:url';

const PACKAGES = ['core', 'server', 'elements', 'sandbox'];
const root = fileURLToPath(new URL('..', import.meta.url));

let cycles = 0;
for (const name of PACKAGES) {
  const graph = await madge(`packages/${name}/src`, {
    baseDir: root,
    fileExtensions: ['ts'],
    tsConfig: `${root}tsconfig.base.json`,
    // Tests may import across a package freely: what ships is checked.
    excludeRegExp: [/\.test\.ts$/],
  });
  for (const cycle of graph.circular()) {
    cycles += 1;
    console.error(`import cycle in @paykit/${name}: ${[...cycle, cycle[0]].join(' -> ')}`);
  }
}
if (cycles > 0) {
  console.error(
    `${cycles} import cycle(s). Move what both modules need into a leaf module that both import (types, a host interface).`,
  );
  process.exit(1);
}
console.log(`no import cycles in ${PACKAGES.map((name) => `@paykit/${name}`).join(', ')}`);
