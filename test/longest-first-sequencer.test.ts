/**
 * The order vitest runs the files in (test/support/longest-first-sequencer.ts), read from a vitest of the root
 * config as `pnpm test:node` makes it: the committed figures put the longest files first in each project, as a
 * fresh clone needs, and vitest's groups keep their order.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createVitest, type TestSpecification } from 'vitest/node';
import { describe, expect, it } from 'vitest';
import { FILE_DURATIONS, LongestFirstSequencer, type FileDurations } from './support/longest-first-sequencer.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const { durations } = JSON.parse(readFileSync(FILE_DURATIONS, 'utf8')) as FileDurations;

/** Every file of the root config's projects, in the order the sequencer gives them. */
async function sorted(): Promise<string[]> {
  const vitest = await createVitest('test', { watch: false, root: ROOT });
  try {
    const specs: TestSpecification[] = await vitest.globTestSpecifications();
    return (await new LongestFirstSequencer(vitest).sort(specs)).map(
      (spec) => `${spec.project.name}:${relative(ROOT, spec.moduleId)}`,
    );
  } finally {
    await vitest.close();
  }
}

describe('LongestFirstSequencer', () => {
  it('starts each project with its longest files by the committed figures, and keeps the groups in order', async () => {
    const order = await sorted();
    const e2e = order.filter((key) => key.startsWith('e2e:'));
    expect(e2e.length).toBeGreaterThan(5);
    const known = e2e.filter((key) => durations[key] !== undefined);
    expect(known).toEqual([...known].sort((a, b) => durations[b]! - durations[a]!));
    // The longest e2e file starts first of them, not among the last as by size (it is one of the smallest).
    expect(known[0]).toBe('e2e:test/e2e/pages-accessibility.test.ts');

    const group = (key: string) => (key.startsWith('e2e-webkit:') ? 2 : key.startsWith('e2e:') ? 1 : 0);
    const groups = order.map(group);
    expect(groups).toEqual([...groups].sort((a, b) => a - b));
  });
});
