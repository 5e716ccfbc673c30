/**
 * The cycle check of `pnpm lint` (scripts/check-cycles.ts) finds a cycle made only of type imports, and passes a
 * tree whose modules take a shared type from a leaf: on a folder of this test's own, so that it can fail.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCycles } from '../scripts/check-cycles.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'paykit-cycles-'));
  await writeFile(join(root, 'tsconfig.base.json'), JSON.stringify({ compilerOptions: { module: 'nodenext' } }));
  await mkdir(join(root, 'knot'));
  // An element and the lazy chunk typed on its class: the cycle issue 36 took out of the elements.
  await writeFile(
    join(root, 'knot', 'button.ts'),
    "import type { go } from './chunk.js';\nexport class Button { go?: typeof go }\n",
  );
  await writeFile(
    join(root, 'knot', 'chunk.ts'),
    "import type { Button } from './button.js';\nexport const go = (button: Button) => button;\n",
  );
  await writeFile(join(root, 'knot', 'chunk.test.ts'), "import './button.js';\n");
  await mkdir(join(root, 'leaf'));
  await writeFile(join(root, 'leaf', 'host.ts'), 'export interface Host { show(words: string): void }\n');
  await writeFile(
    join(root, 'leaf', 'button.ts'),
    "import type { Host } from './host.js';\nimport { go } from './chunk.js';\nexport class Button implements Host { show() { go(this); } }\n",
  );
  await writeFile(
    join(root, 'leaf', 'chunk.ts'),
    "import type { Host } from './host.js';\nexport const go = (host: Host) => host.show('hi');\n",
  );
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the import-cycle check', () => {
  it('finds a cycle of type imports (an element and a chunk typed on its class)', async () => {
    expect(await importCycles(root, 'knot')).toEqual([['knot/button.ts', 'knot/chunk.ts']]);
  });

  it('passes modules that share a host interface from a leaf', async () => {
    expect(await importCycles(root, 'leaf')).toEqual([]);
  });
});
