/**
 * The `paykit` command as a process: its help says what it does and exits 0, a mistake exits 1 naming what there
 * is. (What `reconcile` does with a handler is `facts/facts.test.ts`'s and `facts/exactly-once.test.ts`'s.)
 */
import { nodeEntry } from '@paykit/test-support/node-entry';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = new URL('./paykit.ts', import.meta.url);

async function paykit(...args: string[]) {
  return run(process.execPath, [await nodeEntry(cli), ...args]).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe('paykit (the command)', () => {
  it('prints its help and exits 0 for --help, -h, help, and reconcile --help', async () => {
    for (const args of [['--help'], ['-h'], ['help'], ['reconcile', '--help']]) {
      const answer = await paykit(...args);
      expect(answer.code).toBe(0);
      expect(answer.stdout).toMatch(/^usage: paykit reconcile --handler <module>/);
      expect(answer.stdout).toMatch(/--since <when> +the start of the period/);
      expect(answer.stdout).toMatch(/Exit status: 0/);
      expect(answer.stderr).toBe('');
    }
  });

  it('exits 1 for an unknown command, naming the commands there are, and for none', async () => {
    const unknown = await paykit('reconsile');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/unknown command "reconsile"; the commands are: reconcile/);
    const none = await paykit();
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^usage: paykit reconcile/);
  });
});
