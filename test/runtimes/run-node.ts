/**
 * The suite on Node (the host's, 22 and 24: the matrix runs this file with each binary), with the handler served
 * by `node:http` through `@paykit/server/node`, as a Node shop mounts it.
 *
 *   node run-node.js <sandbox url> <database url> [only]
 */
import { toNodeListener } from '@paykit/server/node';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allPassed, resultLine } from './report.js';
import { runSuite, type Host } from './suite.js';

const [sandboxUrl, databaseUrl, only] = process.argv.slice(2);
if (sandboxUrl === undefined || databaseUrl === undefined) {
  throw new Error('usage: node run-node.js <sandbox url> <database url> [only]');
}

const host: Host = {
  runtime: `node ${process.versions.node}`,
  sandboxUrl,
  memoryStoresInProduction: 'warned',
  databaseUrl,
  postgresStores: 'per-process',
  async serve(handler) {
    const server = createServer(toNodeListener(handler));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    };
  },
};

const outcomes = await runSuite(host, only);
console.log(resultLine(host.runtime, outcomes));
process.exitCode = allPassed(outcomes) ? 0 : 1;
