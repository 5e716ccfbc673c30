/**
 * The inner loop (issue 34 item 6): `pnpm test:changed` runs the tests that the changes of the working tree can
 * affect, not the whole suite. `pnpm run check` stays the gate.
 *
 *   pnpm test:changed                 uncommitted changes (staged, unstaged and new files)
 *   pnpm test:changed --since main    the same, plus what the commits since main (their merge base) changed
 *   pnpm test:changed --dry-run       says what it would run, runs nothing
 *
 * Two parts, each said before it runs:
 * - vitest's related-files mode (`vitest run --changed [ref]`): the Node-side test files that import a changed file,
 *   directly or not, and the changed test files themselves; all of them when a config or package.json changed
 *   (vitest's own rule). It follows imports, so a test that only starts a changed file as a process (the CLI, the
 *   runtime matrix) is not picked: `pnpm run check` is.
 * - The element tests (web-test-runner, `pnpm test:browser`, in the engines `PAYKIT_BROWSERS` picks) when the
 *   elements or what they are built or tested with changed (packages/elements, packages/core/src,
 *   packages/test-support; not their Markdown): the changed test files alone when only element test files changed, all of them
 *   otherwise (web-test-runner has no related-files mode).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));

const { values: flags } = parseArgs({
  options: { since: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
});

/** The lines of a git command's output. */
const git = (...args: string[]) =>
  execFileSync('git', args, { cwd: root, encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** Changed files, relative to the repository's root: what vitest's `--changed` counts too. */
function changedFiles(since: string | undefined): string[] {
  const files = new Set([
    ...git('diff', '--name-only', 'HEAD'),
    ...git('ls-files', '--others', '--exclude-standard'),
    ...(since ? git('diff', '--name-only', `${since}...HEAD`) : []),
  ]);
  return [...files].sort();
}

/** Files that the element tests run, build or are served with. */
const ELEMENTS_INPUTS = /^packages\/(elements|test-support)\/|^packages\/core\/src\/(?!.*\.test\.ts$)/;
const ELEMENT_TEST = /^packages\/elements\/src\/.*\.test\.ts$/;

function run(command: string, args: string[]): number {
  console.log(`\n$ ${[command, ...args].join(' ')}`);
  if (flags['dry-run']) return 0;
  return spawnSync(command, args, { cwd: root, stdio: 'inherit' }).status ?? 1;
}

const changed = changedFiles(flags.since);
const what = flags.since ? `uncommitted and since ${flags.since}` : 'uncommitted';
if (changed.length === 0) {
  console.log(`test:changed: no ${what} changes, nothing to run`);
  process.exit(0);
}
console.log(`test:changed: ${changed.length} ${what} changed files`);

const changedFlag = flags.since ? `--changed=${flags.since}` : '--changed';
// A dry run still lists the files vitest would pick (a listing runs no test).
if (flags['dry-run'])
  spawnSync('pnpm', ['exec', 'vitest', 'list', changedFlag, '--filesOnly'], { cwd: root, stdio: 'inherit' });
const vitest = run('pnpm', ['exec', 'vitest', 'run', changedFlag, '--passWithNoTests']);

let elements = 0;
const elementInputs = changed.filter((file) => ELEMENTS_INPUTS.test(file) && !file.endsWith('.md'));
if (elementInputs.length === 0) {
  console.log('\ntest:changed: nothing the element tests use changed, no element tests');
} else {
  const onlyTests = elementInputs.every((file) => ELEMENT_TEST.test(file));
  // Deleted test files are not run; the other files are passed as the elements' config names them.
  const files = onlyTests
    ? elementInputs
        .filter((file) => !git('ls-files', '--deleted', file).length)
        .map((file) => file.slice('packages/elements/'.length))
    : [];
  console.log(
    `\ntest:changed: element tests (${onlyTests ? 'the changed test files' : 'all'}), for ${elementInputs.slice(0, 5).join(', ')}${elementInputs.length > 5 ? `, and ${elementInputs.length - 5} more` : ''}`,
  );
  if (!onlyTests || files.length > 0)
    elements = run('pnpm', ['run', 'test:browser', ...files.flatMap((file) => ['--files', file])]);
}
process.exit(vitest !== 0 ? vitest : elements);
