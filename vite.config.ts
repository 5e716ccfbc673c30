/**
 * The root Vite config: the script-tag bundles of @paykit/elements (`pnpm build`), and Vitest's
 * configuration for every Node-side test (core, server, sandbox, and the end-to-end tests in `test/`).
 * The element tests run in Chromium under web-test-runner instead (packages/elements).
 */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/{core,server,sandbox}/src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // One PostgreSQL server for the run (the @paykit/server/postgres tests), unless PAYKIT_TEST_DATABASE_URL is set.
    globalSetup: ['packages/test-support/src/postgres-global-setup.ts'],
  },
});
