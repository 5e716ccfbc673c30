/**
 * Element tests in Debian's Chromium, against a real backend (see test-support/backend.ts). Run through
 * `node --import tsx` so that this config can start the TypeScript sandbox and handler. Modules resolve with
 * the `development` condition, as a dev server does: the elements carry their console diagnostics (`#dev`),
 * and Lit its dev mode. What the production build leaves out is checked on its bundles (`pnpm bench:sizes`).
 */
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '@paykit/test-support/chromium-args';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { chromeLauncher } from '@web/test-runner-chrome';
import { startTestBackend } from './test-support/backend.ts';
import { reactAsEsm } from './test-support/react-as-esm.ts';

const backend = await startTestBackend();

export default {
  files: 'src/**/*.test.ts',
  nodeResolve: { exportConditions: ['development'] },
  concurrency: 1,
  testFramework: { config: { timeout: 10_000 } },
  middleware: [backend.middleware],
  plugins: [
    await reactAsEsm(),
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: new URL('./tsconfig.json', import.meta.url).pathname }),
  ],
  browsers: [
    chromeLauncher({
      launchOptions: { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS },
    }),
  ],
};
