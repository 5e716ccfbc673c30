/**
 * `pnpm test` of @paykit/elements: web-test-runner once per engine, the engines side by side (issue 34 item 2).
 * The tests count what reached their backend (payment requests, callbacks), so two browsers must not share one:
 * each engine gets a web-test-runner process of its own, with its own backend, sandbox and port
 * (web-test-runner.config.mjs), and `PAYKIT_BROWSERS` naming that engine alone. Within an engine the files run one
 * after another, as before.
 *
 * Each line an engine's run prints is prefixed with the engine's name; the command exits with the first non-zero
 * exit code, after every engine has finished. Arguments (`--files src/pay-button/pay-button.test.ts`, `--config
 * <file>`) are given to every engine's run. `PAYKIT_BROWSERS` picks the engines as everywhere else.
 */
import { ENGINE_NAMES, selectedEngines, type Engine } from '@paykit/test-support/engines';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

// The package's bin (not among its exports), run with tsx so that the config can start the TypeScript backend.
const wtr = fileURLToPath(new URL('../node_modules/@web/test-runner/dist/bin.js', import.meta.url));
const engines = selectedEngines();
const width = Math.max(...engines.map((engine) => ENGINE_NAMES[engine].length));

/** Passes a stream's lines on, each with the engine's name in front. */
function prefixed(engine: Engine, write: (text: string) => void): (chunk: Buffer) => void {
  const label = `[${ENGINE_NAMES[engine]}]`.padEnd(width + 3);
  let partial = '';
  return (chunk) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) write(`${label}${line}\n`);
  };
}

/** Runs web-test-runner for one engine; resolves with its exit code. */
function runEngine(engine: Engine): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', wtr, ...process.argv.slice(2)], {
      cwd: new URL('..', import.meta.url),
      env: { ...process.env, PAYKIT_BROWSERS: engine },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on(
      'data',
      prefixed(engine, (text) => process.stdout.write(text)),
    );
    child.stderr.on(
      'data',
      prefixed(engine, (text) => process.stderr.write(text)),
    );
    child.on('error', (error) => {
      process.stderr.write(`[${ENGINE_NAMES[engine]}] could not start web-test-runner: ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const codes = await Promise.all(engines.map(runEngine));
const failed = engines.filter((_, index) => codes[index] !== 0);
if (failed.length > 0) {
  process.stderr.write(`Element tests failed in ${failed.map((engine) => ENGINE_NAMES[engine]).join(', ')}\n`);
}
process.exitCode = codes.find((code) => code !== 0) ?? 0;
