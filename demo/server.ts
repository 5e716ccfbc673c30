/**
 * `pnpm demo`: starts the sandbox and the demo shop, and prints where to go. What it makes (the sandbox's state,
 * the platform's app and merchants, the shop's orders) is kept in `PAYKIT_DEMO_DATA` (default `.paykit-demo/`),
 * so a merchant connected on /platform is still there after a restart; delete the folder to start afresh.
 */
import { describeListenError, SandboxDataFileError, stopOnSignals } from '@paykit/sandbox';
import { DemoDataFileError } from './data-file.js';
import { startDemo, type RunningDemo } from './start-demo.js';

const dataDir = process.env.PAYKIT_DEMO_DATA ?? '.paykit-demo';
const port = Number(process.env.PORT ?? 3000);
const sandboxPort = Number(process.env.SANDBOX_PORT ?? 4010);
let demo: RunningDemo;
try {
  demo = await startDemo({ port, sandboxPort, dataDir });
} catch (error) {
  // A data file the demo cannot use, a port in use: the user's to fix, said in one line without a stack trace.
  const line =
    error instanceof SandboxDataFileError || error instanceof DemoDataFileError
      ? error.message
      : describeListenError(error, {
          [sandboxPort]: `SANDBOX_PORT (now ${sandboxPort}; SANDBOX_PORT=4011 npm run demo)`,
          [port]: `PORT (now ${port}; PORT=3001 npm run demo)`,
        });
  if (line === undefined) throw error;
  console.error(line);
  process.exit(1);
}
console.log(`paykit sandbox listening on ${demo.sandbox.url}`);
console.log(`paykit demo shop: open ${demo.url}`);
console.log(`paykit demo in React and Vue: open ${demo.url}/react and ${demo.url}/vue`);
console.log(`paykit demo platform: open ${demo.url}/platform (sign in on the dashboard as owner@harbour.test)`);
console.log(`paykit demo data kept in ${dataDir} (delete it to start afresh)`);
console.log('Buy something, then "Pay" or "Fail" on the sandbox checkout. Ctrl+C stops.');
// Ctrl+C, SIGTERM from an IDE or a process manager (through npm, which passes it on), or npm itself gone.
stopOnSignals(() => demo.close());
