/** The root configuration (global PostgreSQL setup included) on the one always-failing fixture: see exit-code.test.ts. */
import { defineConfig } from 'vitest/config';
import root from '../../vite.config.js';

export default defineConfig({ test: { ...root.test, include: ['test/support/always-fails.fixture.ts'] } });
