/**
 * The output of processes that run side by side, each line with its process's name in front, so that interleaved
 * lines can be told apart: the element tests' engines (packages/elements/test-support/run-engines.ts) and the
 * check's lanes (scripts/check.ts).
 */

/** Where a child's output chunks go, and the call that writes what is left after its last line break. */
export interface LabelledLines {
  push(chunk: Buffer | string): void;
  end(): void;
}

/** Passes complete lines to `write`, each with `label` in front; a line cut between two chunks is written whole. */
export function labelledLines(label: string, write: (text: string) => void): LabelledLines {
  let partial = '';
  return {
    push(chunk) {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) write(`${label}${line}\n`);
    },
    end() {
      if (partial) write(`${label}${partial}\n`);
      partial = '';
    },
  };
}
