/**
 * vitest's order of test files, with the longest first also on a machine that has never run them (issue 34).
 *
 * vitest starts the longest files first when its cache (node_modules/.vite/vitest) knows how long each took, and
 * the largest first when it does not: in a fresh clone, as in CI, `pages-accessibility.test.ts` (the longest e2e
 * file, and one of the smallest) started among the last, and one worker ran it alone for its last minute while the
 * other had nothing left to do. Here a file's expected time is what `test/file-durations.json` says (written by
 * `pnpm test:timings --save-durations` after a whole run; committed), else what the cache says; the rest of
 * vitest's order is kept: group by group, project by project, isolated files first, files of unknown time first,
 * then the longest, then the largest. (vitest also starts the files that failed last time first; not here, so that
 * the order, and the run's length, do not depend on what a machine last ran.)
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { TestSequencer, TestSpecification, Vitest } from 'vitest/node';

/** The committed figures: each file's time in milliseconds, by `project:path` as vitest's cache keys it. */
export const FILE_DURATIONS = new URL('../file-durations.json', import.meta.url);

/** What test/file-durations.json holds. */
export interface FileDurations {
  $comment?: string;
  durations: Record<string, number>;
}

function committedDurations(): Record<string, number> {
  try {
    return (JSON.parse(readFileSync(FILE_DURATIONS, 'utf8')) as FileDurations).durations;
  } catch {
    // Without the file the order is vitest's own.
    return {};
  }
}

/** A vitest sequencer: `test.sequence.sequencer` in the root config. */
export class LongestFirstSequencer implements TestSequencer {
  readonly #ctx: Vitest;

  constructor(ctx: Vitest) {
    this.#ctx = ctx;
  }

  /** vitest's own sharding (loaded only when `--shard` asks for it). */
  async shard(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { BaseSequencer } = await import('vitest/node');
    return new BaseSequencer(this.#ctx).shard(files);
  }

  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const durations = committedDurations();
    const { cache, config } = this.#ctx;
    const facts = new Map(
      files.map((file) => {
        const key = `${file.project.name}:${relative(config.root, file.moduleId)}`;
        const last = cache.getFileTestResults(key);
        return [
          file,
          {
            group: file.project.config.sequence.groupOrder,
            project: file.project.name,
            isolated: file.project.config.isolate ? 0 : 1,
            expected: durations[key] ?? last?.duration,
            size: cache.getFileStats(key)?.size ?? 0,
          },
        ];
      }),
    );
    return [...files].sort((a, b) => {
      const x = facts.get(a)!;
      const y = facts.get(b)!;
      if (x.group !== y.group) return x.group - y.group;
      if (x.project !== y.project) return x.project < y.project ? -1 : 1;
      if (x.isolated !== y.isolated) return x.isolated - y.isolated;
      if ((x.expected === undefined) !== (y.expected === undefined)) return x.expected === undefined ? -1 : 1;
      if (x.expected !== undefined && y.expected !== undefined && x.expected !== y.expected)
        return y.expected - x.expected;
      return y.size - x.size;
    });
  }
}
