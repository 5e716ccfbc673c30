/**
 * `pnpm test` of @paykit/elements: web-test-runner once per engine, engines side by side (issue 34 item 2).
 * The tests count what reached their backend (payment requests, callbacks), so two browsers must not share one:
 * each engine gets a web-test-runner process of its own, with its own backend, sandbox and port
 * (web-test-runner.config.mjs), and `PAYKIT_BROWSERS` naming that engine alone. Within an engine the files run one
 * after another, as before; the engines run in two lanes (below).
 *
 * Each line an engine's run prints is prefixed with the engine's name; the command exits with the first non-zero
 * exit code, after every engine has finished. Arguments (`--files src/pay-button/pay-button.test.ts`, `--config
 * <file>`) are given to every engine's run. `PAYKIT_BROWSERS` picks the engines as everywhere else.
 */
import { ENGINE_NAMES, selectedEngines, type Engine } from '@paykit/test-support/engines';
import { labelledLines } from '@paykit/test-support/labelled-lines';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The package's bin (not among its exports), run with tsx so that the config can start the TypeScript backend.
const wtr = fileURLToPath(new URL('../node_modules/@web/test-runner/dist/bin.js', import.meta.url));
const engines = selectedEngines();
const width = Math.max(...engines.map((engine) => ENGINE_NAMES[engine].length));

/** Runs web-test-runner for one engine; resolves with its exit code. */
function runEngine(engine: Engine): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', wtr, ...process.argv.slice(2)], {
      cwd: new URL('..', import.meta.url),
      env: { ...process.env, PAYKIT_BROWSERS: engine },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const label = `[${ENGINE_NAMES[engine]}]`.padEnd(width + 3);
    const out = labelledLines(label, (text) => process.stdout.write(text));
    const err = labelledLines(label, (text) => process.stderr.write(text));
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error) => {
      process.stderr.write(`[${ENGINE_NAMES[engine]}] could not start web-test-runner: ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      out.end();
      err.end();
      resolve(code ?? (signal ? 1 : 0));
    });
  });
}

/**
 * Two lanes side by side: Firefox (the slowest, about 140 s on the idle 2-core machine) in one, Chromium and then
 * WebKit (about 120 and 95 s) in the other. Beside both other engines at once, WebKit's test page lost its
 * connection to web-test-runner in `popup-connect.test.ts` in three runs of four ("the browser disconnected",
 * before any of its tests reported); alone, under two busy loops, or beside the others on that file alone, it
 * passed. Not understood: the lanes keep WebKit beside one other engine, never two.
 */
const LANES: readonly (readonly Engine[])[] = [['firefox'], ['chromium', 'webkit']];

/** Runs `lane`'s engines one after another; resolves with each one's exit code. */
async function runLane(lane: readonly Engine[]): Promise<[Engine, number][]> {
  const codes: [Engine, number][] = [];
  for (const engine of lane.filter((one) => engines.includes(one))) codes.push([engine, await runEngine(engine)]);
  return codes;
}

const byEngine = new Map((await Promise.all(LANES.map(runLane))).flat());
const codes = engines.map((engine) => byEngine.get(engine) ?? 1);
const failed = engines.filter((_, index) => codes[index] !== 0);
if (failed.length > 0) {
  process.stderr.write(`Element tests failed in ${failed.map((engine) => ENGINE_NAMES[engine]).join(', ')}\n`);
}
process.exitCode = codes.find((code) => code !== 0) ?? 0;
