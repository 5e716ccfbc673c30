#!/usr/bin/env node
/**
 * `pnpm sandbox [--port 4010] [--host 127.0.0.1] [--data <file>]`: runs the sandbox until interrupted. With
 * `--data`, the state is loaded from that JSON file and written back to it, so it survives a restart.
 */
import { parseArgs } from 'node:util';
import { SandboxDataFileError } from './data-file.js';
import { SANDBOX_SEED } from './seed.js';
import { startSandbox, type RunningSandbox } from './start.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4010' },
    host: { type: 'string', default: '127.0.0.1' },
    data: { type: 'string' },
  },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number from 0 to 65535, not "${values.port}"`);
  process.exit(2);
}
if (values.data === '') {
  console.error('--data must name a file, e.g. --data .sandbox/state.json');
  process.exit(2);
}
let sandbox: RunningSandbox;
try {
  sandbox = await startSandbox({ port, host: values.host, ...(values.data ? { dataFile: values.data } : {}) });
} catch (error) {
  // A data file it cannot use is the user's to fix: say what, without a stack trace.
  if (!(error instanceof SandboxDataFileError)) throw error;
  console.error(error.message);
  process.exit(1);
}
console.log(`paykit sandbox listening on ${sandbox.url}`);
console.log(`seeded business "${SANDBOX_SEED.name}": X-BUSINESS-API-KEY: ${SANDBOX_SEED.apiKey}`);
console.log(`dashboard: ${sandbox.url}/dashboard/sign-in as ${sandbox.seed.ownerEmail} (no password in the sandbox)`);
if (values.data) console.log(`state kept in ${values.data} (delete it to start from the seed)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(
    signal,
    () =>
      void sandbox.close().then(
        () => process.exit(0),
        (error: unknown) => {
          console.error(error instanceof Error ? error.message : error);
          process.exit(1);
        },
      ),
  );
}
