/**
 * `pnpm run check`: the gate of every change. Runs scripts/check-plan.ts's phases in order, the lanes of a phase side
 * by side, each step as `pnpm run <step>`; stops after the first phase in which a step failed (its other lanes finish
 * first, so that every failure of that phase is shown). When lanes run at once each line of their output starts with
 * its step's name. Ends with each step's time and exits 1 when a step failed.
 *
 * `runPlan` is also what scripts/test-timings.ts times, so that the report measures the check as it runs.
 */
import { labelledLines } from '@paykit/test-support/labelled-lines';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECK_PLAN, type Lane, type Phase, type Step } from './check-plan.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** One step as it ran. */
export interface StepRun {
  step: Step;
  /** When it started, in ms from the start of the plan. */
  startMs: number;
  ms: number;
  exitCode: number;
}

/** How {@link runPlan} runs its steps. */
export interface RunOptions {
  /** Arguments given to a step beyond its script's own (test-timings: where to write its reports). */
  argsFor?: (step: Step) => string[];
  /** Environment added to every step's. */
  env?: Record<string, string>;
  /** Receives each step's standard output too (test-timings keeps the runtime matrix's lines). */
  onOutput?: (step: Step, text: string) => void;
}

/** The outcome of a plan. */
export interface PlanRun {
  steps: StepRun[];
  wallMs: number;
  /** The steps that failed; the phases after the first failure did not run. */
  failed: Step[];
}

/** Runs `pnpm run <step>`; resolves with its exit code. `label` is put in front of each line ('' passes it as is). */
function runStep(step: Step, label: string, options: RunOptions): Promise<number> {
  return new Promise((done) => {
    const child = spawn('pnpm', ['run', step, ...(options.argsFor?.(step) ?? [])], {
      cwd: root,
      stdio: ['inherit', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
    });
    const out = labelledLines(label, (text) => process.stdout.write(text));
    const err = labelledLines(label, (text) => process.stderr.write(text));
    child.stdout.on('data', (chunk: Buffer) => {
      if (label) out.push(chunk);
      else process.stdout.write(chunk);
      options.onOutput?.(step, chunk.toString());
    });
    child.stderr.on('data', (chunk: Buffer) => (label ? err.push(chunk) : process.stderr.write(chunk)));
    child.on('error', (error) => {
      process.stderr.write(`${label}check: could not start pnpm run ${step}: ${error.message}\n`);
      done(1);
    });
    child.on('close', (code, signal) => {
      out.end();
      err.end();
      done(code ?? (signal ? 1 : 0));
    });
  });
}

/** Runs `plan`: see the module's comment. */
export async function runPlan(plan: readonly Phase[], options: RunOptions = {}): Promise<PlanRun> {
  const begun = Date.now();
  const steps: StepRun[] = [];
  const failed: Step[] = [];
  for (const phase of plan) {
    const width = Math.max(...phase.flat().map((step) => step.length));
    const runLane = async (lane: Lane): Promise<void> => {
      for (const step of lane) {
        const label = phase.length > 1 ? `[${step}]`.padEnd(width + 3) : '';
        const startMs = Date.now() - begun;
        process.stdout.write(`\n── check: pnpm run ${step}${phase.length > 1 ? ' (beside the other lanes)' : ''} ──\n`);
        const exitCode = await runStep(step, label, options);
        steps.push({ step, startMs, ms: Date.now() - begun - startMs, exitCode });
        if (exitCode !== 0) {
          failed.push(step);
          return;
        }
      }
    };
    await Promise.all(phase.map(runLane));
    if (failed.length > 0) break;
  }
  return { steps, wallMs: Date.now() - begun, failed };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const runAsCommand = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);

if (runAsCommand) {
  const run = await runPlan(CHECK_PLAN);
  const summary = run.steps
    .map(({ step, startMs, ms, exitCode }) =>
      `  ${step.padEnd(16)} ${seconds(startMs).padStart(8)} +${seconds(ms)}`.concat(exitCode ? '  FAILED' : ''),
    )
    .join('\n');
  const outcome = run.failed.length > 0 ? `failed (${run.failed.join(', ')})` : 'passed';
  process.stdout.write(`\ncheck: ${outcome} in ${seconds(run.wallMs)}; each step's start and time:\n${summary}\n`);
  process.exitCode = run.failed.length > 0 ? 1 : 0;
}
