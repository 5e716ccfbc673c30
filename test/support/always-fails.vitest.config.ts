/** The Node tests' configuration (global PostgreSQL setup included) on the one always-failing fixture: see exit-code.test.ts. */
import { defineConfig } from 'vitest/config';
import root, { NODE_PROJECT } from '../../vite.config.js';

const { projects: _, ...shared } = root.test ?? {};

export default defineConfig({
  test: { ...shared, ...NODE_PROJECT, include: ['test/support/always-fails.fixture.ts'] },
});
