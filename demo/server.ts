/**
 * `pnpm demo`: starts the sandbox and the demo shop, and prints where to go. What it makes (the sandbox's state,
 * the platform's app and merchants, the shop's orders) is kept in `PAYKIT_DEMO_DATA` (default `.paykit-demo/`),
 * so a merchant connected on /platform is still there after a restart; delete the folder to start afresh.
 */
import { SandboxDataFileError } from '@paykit/sandbox';
import { DemoDataFileError } from './data-file.js';
import { startDemo, type RunningDemo } from './start-demo.js';

const dataDir = process.env.PAYKIT_DEMO_DATA ?? '.paykit-demo';
let demo: RunningDemo;
try {
  demo = await startDemo({
    port: Number(process.env.PORT ?? 3000),
    sandboxPort: Number(process.env.SANDBOX_PORT ?? 4010),
    dataDir,
  });
} catch (error) {
  // A data file the demo cannot use is the user's to fix: say which and what to do, without a stack trace.
  if (!(error instanceof SandboxDataFileError || error instanceof DemoDataFileError)) throw error;
  console.error(error.message);
  process.exit(1);
}
console.log(`paykit sandbox listening on ${demo.sandbox.url}`);
console.log(`paykit demo shop: open ${demo.url}`);
console.log(`paykit demo in React and Vue: open ${demo.url}/react and ${demo.url}/vue`);
console.log(`paykit demo platform: open ${demo.url}/platform (sign in on the dashboard as owner@harbour.test)`);
console.log(`paykit demo data kept in ${dataDir} (delete it to start afresh)`);
console.log('Buy something, then "Pay" or "Fail" on the sandbox checkout. Ctrl+C stops.');
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(
    signal,
    () =>
      void demo.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error instanceof Error ? error.message : error);
          process.exit(1);
        },
      ),
  );
}
