/**
 * `nodeEntry` (@paykit/test-support/node-entry): the tests start the sandbox's CLI, a fleet's instances and the
 * store-outage hammer from its bundles instead of through tsx, so a bundle must run the same code: each module
 * with its own `import.meta.url`, other packages imported from where Node finds them, and never a stale copy.
 */
import { nodeEntry } from '@paykit/test-support/node-entry';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../', import.meta.url));

let dir: string;
const bundles = new Set<string>();

/** Builds (or finds) the bundle of `file` and runs it with plain Node: what it printed, parsed. */
async function started(file: string): Promise<{ bundle: string; said: Record<string, unknown> }> {
  const bundle = await nodeEntry(file);
  bundles.add(bundle);
  const { stdout } = await run(process.execPath, [bundle], { cwd: dir });
  return { bundle, said: JSON.parse(stdout) as Record<string, unknown> };
}

// Inside the repository (under node_modules/.cache, which neither git nor eslint reads) so that the fixture's
// package import resolves as the sources' do.
beforeAll(async () => {
  await mkdir(join(ROOT, 'node_modules/.cache'), { recursive: true });
  dir = await mkdtemp(join(ROOT, 'node_modules/.cache/node-entry-test-'));
  await mkdir(join(dir, 'sub'));
  await writeFile(
    join(dir, 'main.ts'),
    [
      "import globals from 'globals';",
      "import { where, mark } from './sub/helper.js';",
      'const browser: number = Object.keys(globals.browser).length;',
      'console.log(JSON.stringify({ main: import.meta.url, helper: where, mark, browser }));',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(dir, 'sub/helper.ts'),
    "export const where: string = import.meta.url;\nexport const mark = 'first';\n",
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  for (const bundle of bundles) {
    await rm(bundle, { force: true });
    await rm(bundle.replace(/\.mjs$/, '.json'), { force: true });
  }
});

describe('nodeEntry', () => {
  it("runs the entry without a loader, each module with its own import.meta.url, TypeScript's types erased", async () => {
    const { bundle, said } = await started(join(dir, 'main.ts'));
    expect(bundle.endsWith('.mjs')).toBe(true);
    expect(bundle.startsWith(dir)).toBe(false);
    expect(said).toEqual({
      main: pathToFileURL(join(dir, 'main.ts')).href,
      helper: pathToFileURL(join(dir, 'sub/helper.ts')).href,
      mark: 'first',
      browser: expect.any(Number) as number,
    });
    expect(said.browser).toBeGreaterThan(100);
  });

  it('imports other packages from where Node finds them, and does not copy them in', async () => {
    const bundle = await nodeEntry(join(dir, 'main.ts'));
    const text = await readFile(bundle, 'utf8');
    const imported = /from "(\/[^"]*\/globals\/[^"]*)"/.exec(text)?.[1];
    expect(imported, 'an import of globals by absolute path').toBeDefined();
    expect((await stat(imported!)).isFile()).toBe(true);
    // globals' own data (its list of browser names) is not in the bundle.
    expect(text).not.toContain('AbortController');
  });

  it('builds again when a source changed, and not when nothing did', async () => {
    const first = await nodeEntry(join(dir, 'main.ts'));
    const built = (await stat(first)).mtimeMs;
    expect(await nodeEntry(join(dir, 'main.ts'))).toBe(first);
    expect((await stat(first)).mtimeMs).toBe(built);

    await writeFile(
      join(dir, 'sub/helper.ts'),
      "export const where: string = import.meta.url;\nexport const mark = 'second';\n",
    );
    const { said } = await started(join(dir, 'main.ts'));
    expect(said.mark).toBe('second');
  });

  it('refuses an entry that does not build, naming the file and the line', async () => {
    await writeFile(join(dir, 'broken.ts'), 'const fine = 1;\nexport const broken = ;\n');
    await expect(nodeEntry(join(dir, 'broken.ts'))).rejects.toThrow(
      /^nodeEntry: could not bundle node_modules\/\.cache\/node-entry-test-\w+\/broken\.ts: .*\(.*broken\.ts:2\)$/,
    );
  });
});
