#!/usr/bin/env node
/**
 * `pnpm sandbox [--port 4010] [--host 127.0.0.1]`: runs the sandbox until interrupted.
 */
import { parseArgs } from 'node:util';
import { SANDBOX_SEED } from './seed.js';
import { startSandbox } from './start.js';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '4010' }, host: { type: 'string', default: '127.0.0.1' } },
});
const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number from 0 to 65535, not "${values.port}"`);
  process.exit(2);
}
const sandbox = await startSandbox({ port, host: values.host });
console.log(`paykit sandbox listening on ${sandbox.url}`);
console.log(`seeded business "${SANDBOX_SEED.name}": X-BUSINESS-API-KEY: ${SANDBOX_SEED.apiKey}`);
console.log(`dashboard: ${sandbox.url}/dashboard/sign-in as ${sandbox.seed.ownerEmail} (no password in the sandbox)`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void sandbox.close().then(() => process.exit(0)));
}
