/**
 * The suite on Bun, with the handler served by `Bun.serve`, as a Bun shop serves it.
 *
 *   bun run-bun.js <sandbox url> <database url> [only]
 */
import { allPassed, resultLine } from './report.js';
import { runSuite, type Host } from './suite.js';

/** The part of Bun's global this runner uses (Bun's own types are not a dependency of the repository). */
declare const Bun: {
  version: string;
  serve(options: { hostname: string; port: number; fetch(request: Request): Promise<Response> }): {
    port: number;
    stop(closeActiveConnections?: boolean): Promise<void> | void;
  };
};

const [sandboxUrl, databaseUrl, only] = process.argv.slice(2);
if (sandboxUrl === undefined || databaseUrl === undefined) {
  throw new Error('usage: bun run-bun.js <sandbox url> <database url> [only]');
}

const host: Host = {
  runtime: `bun ${Bun.version}`,
  sandboxUrl,
  memoryStoresInProduction: 'warned',
  databaseUrl,
  postgresStores: 'per-process',
  async serve(handler) {
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: handler });
    return {
      origin: `http://127.0.0.1:${server.port}`,
      close: async () => {
        await server.stop(true);
      },
    };
  },
};

const outcomes = await runSuite(host, only);
console.log(resultLine(host.runtime, outcomes));
process.exit(allPassed(outcomes) ? 0 : 1);
