/**
 * The suite on Deno, with the handler served by `Deno.serve`, as a Deno shop serves it. The packages come from
 * the `node_modules` folder npm installed (Deno reads `package.json`).
 *
 *   deno run -A run-deno.js <sandbox url> <database url> [only]
 */
import { allPassed, resultLine } from './report.js';
import { runSuite, type Host } from './suite.js';

/** The part of Deno's global this runner uses (Deno's own types are not a dependency of the repository). */
declare const Deno: {
  version: { deno: string };
  args: string[];
  exit(code: number): never;
  serve(
    options: { hostname: string; port: number; onListen?(address: { port: number }): void },
    handler: (request: Request) => Promise<Response>,
  ): { addr: { port: number }; shutdown(): Promise<void> };
};

const [sandboxUrl, databaseUrl, only] = Deno.args;
if (sandboxUrl === undefined || databaseUrl === undefined) {
  throw new Error('usage: deno run -A run-deno.js <sandbox url> <database url> [only]');
}

const host: Host = {
  runtime: `deno ${Deno.version.deno}`,
  sandboxUrl,
  memoryStoresInProduction: 'warned',
  databaseUrl,
  postgresStores: 'per-process',
  async serve(handler) {
    const server = Deno.serve({ hostname: '127.0.0.1', port: 0, onListen: () => undefined }, handler);
    return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
  },
};

const outcomes = await runSuite(host, only);
console.log(resultLine(host.runtime, outcomes));
Deno.exit(allPassed(outcomes) ? 0 : 1);
