/**
 * Where the time of `pnpm run check` goes (issue 34 item 1): `pnpm test:timings` runs the steps of `check` as it runs
 * them (scripts/check-plan.ts: phases one after another, lanes side by side) and times each; the vitest step also
 * writes vitest's JSON report (each file's start and end), the element tests run with scripts/wtr-timings.config.mjs
 * (their own config plus a reporter of each file's time in each engine), and the runtime matrix's own lines are kept.
 * One report, printed as a table and written to `.paykit-timings/report.md` and `report.json` (gitignored), with the
 * machine's load average: on a shared machine the figures say how loaded it was.
 *
 *   pnpm test:timings                        every step of check, as check runs them
 *   pnpm test:timings --only test:node,lint  some steps (names as in scripts/check-plan.ts), in the plan's lanes
 *   pnpm test:timings --report               print the report of the last run again, running nothing
 *   pnpm test:timings --out <folder>         write elsewhere than .paykit-timings/
 *   pnpm test:timings --save-durations       also write each vitest file's time to test/file-durations.json (commit
 *                                            it): the order a fresh clone runs them in (longest-first-sequencer.ts)
 *
 * As in `check`, a failing step ends its lane and the phases after it do not run; the command exits 1, and the
 * report says which step failed.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CHECK_PLAN, onlySteps, planSteps } from './check-plan.js';
import { runPlan } from './check.js';
import { FILE_DURATIONS, type FileDurations } from '../test/support/longest-first-sequencer.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** One step of `check`, as run and timed. */
interface StepTiming {
  step: string;
  /** When it started, from the start of the run (absent in reports from before the plan ran lanes at once). */
  startMs?: number;
  ms: number;
  exitCode: number;
}

/** vitest's JSON reporter's file entries, what is read of them. */
interface VitestJson {
  numTotalTests: number;
  numFailedTests: number;
  testResults: { name: string; startTime: number; endTime: number; status: string; assertionResults: unknown[] }[];
}

/** scripts/wtr-timings.config.mjs's output. */
interface WtrJson {
  startTime: number;
  endTime: number;
  files: { file: string; engine: string; ms: number; testsMs: number; tests: number; passed: boolean }[];
}

/** Everything one run measured. */
interface Report {
  date: string;
  commit: string;
  cpus: number;
  loadBefore: number[];
  loadAfter: number[];
  steps: StepTiming[];
  /** From the first step's start to the last one's end (absent in reports from before: the steps' sum then). */
  wallMs?: number;
  vitest?: VitestJson;
  wtr?: WtrJson;
  runtimes?: string[];
}

const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    report: { type: 'boolean', default: false },
    out: { type: 'string', default: join(root, '.paykit-timings') },
    'save-durations': { type: 'boolean', default: false },
  },
});
const out = flags.out;

/** What a step is given beyond what `check` gives it: where to write its timings. Nothing else changes. */
function extraArgs(step: string): string[] {
  if (step === 'test:node')
    return ['--reporter=default', '--reporter=json', `--outputFile.json=${join(out, 'vitest.json')}`];
  if (step === 'test:browser') return ['--config', join(root, 'scripts/wtr-timings.config.mjs')];
  return [];
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const load = (avg: number[]) => avg.map((n) => n.toFixed(1)).join(' ');

/** A Markdown table. */
function table(head: string[], rows: (string | number)[][]): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n');
}

/** The report as Markdown. */
function render(report: Report): string {
  const parts: string[] = [];
  const total = report.wallMs ?? report.steps.reduce((sum, step) => sum + step.ms, 0);
  parts.push(
    `# Timings of pnpm run check\n\n${report.date}, commit ${report.commit}, ${report.cpus} cores, load average ` +
      `(1, 5, 15 min) ${load(report.loadBefore)} before and ${load(report.loadAfter)} after.`,
  );
  parts.push(
    `## Steps\n\n${table(
      ['step', 'started', 'wall time', 'result'],
      [
        ...report.steps.map(({ step, startMs, ms, exitCode }) => [
          step,
          startMs === undefined ? '' : seconds(startMs),
          seconds(ms),
          exitCode === 0 ? 'ok' : `exit ${exitCode}`,
        ]),
        ['**total**', '', `**${seconds(total)}**`, ''],
      ],
    )}`,
  );

  if (report.vitest) {
    const files = report.vitest.testResults
      .map((file) => ({
        file: relative(root, file.name),
        ms: file.endTime - file.startTime,
        tests: file.assertionResults.length,
        status: file.status,
      }))
      .sort((a, b) => b.ms - a.ms);
    const sum = files.reduce((acc, file) => acc + file.ms, 0);
    const first = Math.min(...report.vitest.testResults.map((file) => file.startTime));
    const last = Math.max(...report.vitest.testResults.map((file) => file.endTime));
    parts.push(
      `## vitest (test:node): ${files.length} files, ${report.vitest.numTotalTests} tests, ` +
        `${report.vitest.numFailedTests} failed; first file start to last file end ${seconds(last - first)}, ` +
        `the files' own times add up to ${seconds(sum)}\n\n` +
        `The ten slowest:\n\n${table(
          ['file', 'time', 'tests'],
          files.slice(0, 10).map(({ file, ms, tests }) => [`\`${file}\``, seconds(ms), tests]),
        )}\n\n<details><summary>Every file</summary>\n\n${table(
          ['file', 'time', 'tests', 'status'],
          files.map(({ file, ms, tests, status }) => [`\`${file}\``, seconds(ms), tests, status]),
        )}\n\n</details>`,
    );
  }

  if (report.wtr) {
    const engines = [...new Set(report.wtr.files.map((file) => file.engine))];
    const byFile = new Map<string, Map<string, WtrJson['files'][number]>>();
    for (const entry of report.wtr.files) {
      const row = byFile.get(entry.file) ?? new Map<string, WtrJson['files'][number]>();
      row.set(entry.engine, entry);
      byFile.set(entry.file, row);
    }
    const rowTotal = (row: Map<string, WtrJson['files'][number]>) =>
      [...row.values()].reduce((sum, entry) => sum + entry.ms, 0);
    const rows = [...byFile.entries()].sort((a, b) => rowTotal(b[1]) - rowTotal(a[1]));
    const engineTotal = (engine: string) =>
      report.wtr!.files.filter((file) => file.engine === engine).reduce((sum, file) => sum + file.ms, 0);
    parts.push(
      `## web-test-runner (test:browser): ${byFile.size} files in ${engines.join(', ')}, ` +
        `${seconds(report.wtr.endTime - report.wtr.startTime)} from start to end\n\n` +
        `Each file's session in each engine, from opening its page to its end (the tests' own time in brackets):\n\n${table(
          ['file', ...engines, 'all'],
          [
            ...rows.map(([file, row]) => [
              `\`${file}\``,
              ...engines.map((engine) => {
                const entry = row.get(engine);
                return entry ? `${seconds(entry.ms)} (${seconds(entry.testsMs)})${entry.passed ? '' : ' failed'}` : '';
              }),
              seconds(rowTotal(row)),
            ]),
            ['**total**', ...engines.map((engine) => `**${seconds(engineTotal(engine))}**`), ''],
          ],
        )}`,
    );
  }

  if (report.runtimes && report.runtimes.length > 0) {
    parts.push(`## Runtime matrix (test:runtimes)\n\n${report.runtimes.map((line) => `    ${line}`).join('\n')}`);
  }
  return `${parts.join('\n\n')}\n`;
}

/** The lines of the runtime matrix's output that say what ran and how long it took. */
function runtimeLines(output: string): string[] {
  return output
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => /^(runtimes: |✓ |✗ )/.test(line));
}

async function readJson<T>(path: string): Promise<T | undefined> {
  return existsSync(path) ? (JSON.parse(await readFile(path, 'utf8')) as T) : undefined;
}

/** The timing files the element tests' processes wrote (one per engine: they run side by side). */
async function wtrFiles(): Promise<string[]> {
  if (!existsSync(out)) return [];
  return (await readdir(out)).filter((name) => /^wtr(-[a-z-]+)?\.json$/.test(name)).map((name) => join(out, name));
}

/** The element tests' timings, every engine's process in one: from the first start to the last end. */
async function readWtr(): Promise<WtrJson | undefined> {
  const runs = (await Promise.all((await wtrFiles()).map((file) => readJson<WtrJson>(file)))).filter(
    (run): run is WtrJson => run !== undefined,
  );
  if (runs.length === 0) return undefined;
  return {
    startTime: Math.min(...runs.map((run) => run.startTime)),
    endTime: Math.max(...runs.map((run) => run.endTime)),
    files: runs.flatMap((run) => run.files),
  };
}

/**
 * Writes test/file-durations.json from vitest's own cache, which keys each file by its project (an e2e file runs
 * in two), keeping only the files of this run. Right after the run, so that the cache holds the whole run's figures
 * (a run of a few files, or of a few tests with -t, writes shorter ones there).
 */
async function saveDurations(vitest: VitestJson): Promise<void> {
  const cacheRoot = join(root, 'node_modules/.vite/vitest');
  const caches = existsSync(cacheRoot) ? await readdir(cacheRoot) : [];
  const ran = new Set(vitest.testResults.map((file) => relative(root, file.name)));
  const durations: Record<string, number> = {};
  for (const cache of caches) {
    const results = await readJson<{ results?: [string, { duration?: number }][] }>(
      join(cacheRoot, cache, 'results.json'),
    );
    for (const [key, { duration }] of results?.results ?? []) {
      if (ran.has(key.slice(key.indexOf(':') + 1)) && typeof duration === 'number')
        durations[key] = Math.round(duration);
    }
  }
  if (Object.keys(durations).length === 0) {
    throw new Error(
      `--save-durations: vitest's cache (${relative(root, cacheRoot)}/*/results.json) has no figures for this run's files`,
    );
  }
  const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
  const previous = await readJson<FileDurations>(fileURLToPath(FILE_DURATIONS));
  await writeFile(FILE_DURATIONS, `${JSON.stringify({ $comment: previous?.$comment, durations: sorted }, null, 2)}\n`);
  console.log(`${Object.keys(sorted).length} files' times written to ${relative(root, fileURLToPath(FILE_DURATIONS))}`);
}

async function main(): Promise<number> {
  await mkdir(out, { recursive: true });
  if (flags.report) {
    const report = await readJson<Report>(join(out, 'report.json'));
    if (!report) throw new Error(`no report in ${out}: run pnpm test:timings first`);
    process.stdout.write(render(report));
    return 0;
  }

  const all = planSteps(CHECK_PLAN);
  const only = flags.only?.split(',').map((step) => step.trim());
  const unknown = only?.filter((step) => !all.includes(step)) ?? [];
  if (unknown.length > 0) throw new Error(`not a step of check: ${unknown.join(', ')} (the steps: ${all.join(', ')})`);
  const plan = only ? onlySteps(CHECK_PLAN, only) : CHECK_PLAN;
  const steps = planSteps(plan);

  const report: Report = {
    date: new Date().toISOString(),
    commit: await new Promise<string>((resolve) => {
      const git = spawn('git', ['rev-parse', '--short', 'HEAD'], { cwd: root });
      let sha = '';
      git.stdout.on('data', (chunk: Buffer) => (sha += chunk.toString()));
      git.on('close', () => resolve(sha.trim() || 'unknown'));
      git.on('error', () => resolve('unknown'));
    }),
    cpus: cpus().length,
    loadBefore: loadavg(),
    loadAfter: [],
    steps: [],
  };
  // A report left by an earlier run is not read as this one's.
  if (steps.includes('test:node')) await rm(join(out, 'vitest.json'), { force: true });
  if (steps.includes('test:browser')) for (const file of await wtrFiles()) await rm(file, { force: true });
  let runtimesOutput = '';
  const run = await runPlan(plan, {
    argsFor: extraArgs,
    env: { PAYKIT_TIMINGS_DIR: out },
    onOutput: (step, text) => {
      if (step === 'test:runtimes') runtimesOutput += text;
    },
  });
  report.steps = run.steps;
  report.wallMs = run.wallMs;
  if (steps.includes('test:node')) report.vitest = await readJson<VitestJson>(join(out, 'vitest.json'));
  if (steps.includes('test:browser')) report.wtr = await readWtr();
  if (steps.includes('test:runtimes')) report.runtimes = runtimeLines(runtimesOutput);
  report.loadAfter = loadavg();
  if (flags['save-durations'] && report.vitest) await saveDurations(report.vitest);

  const markdown = render(report);
  await writeFile(join(out, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(join(out, 'report.md'), markdown);
  console.log(`\n${markdown}\nWritten to ${relative(process.cwd(), join(out, 'report.md')) || out}`);
  const failed = report.steps.filter((step) => step.exitCode !== 0);
  if (failed.length > 0) console.error(`test-timings: failed: ${failed.map((step) => step.step).join(', ')}`);
  return failed.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`test-timings: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
