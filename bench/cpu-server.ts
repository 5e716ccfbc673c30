/**
 * The server process of `bench/cpu-per-request.ts`: one path (`proxy`, `handler`, `handler-postgres`) on
 * 127.0.0.1, its own CPU time measured between the parent's `start` and `stop` messages. With PostgreSQL it also
 * counts the statements the pool sent (every `pg` client query, the stores' round trips).
 *
 * `node --import tsx bench/cpu-server.ts <path> <sandbox url> <api key> [<database url> <table prefix>]`
 */
import { createPaykitHandler, type PaykitHandlerOptions } from '@paykit/server';
import { toNodeListener } from '@paykit/server/node';
import { createPostgresStores } from '@paykit/server/postgres';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { bareProxy } from './bare-proxy.js';

const [path, sandboxUrl, apiKey, databaseUrl, tablePrefix] = process.argv.slice(2) as [
  'proxy' | 'handler' | 'handler-postgres',
  string,
  string,
  string | undefined,
  string | undefined,
];

// The pg the stores import (pnpm gives each package its own link): its Client's query, counted.
const pg = createRequire(fileURLToPath(new URL('../packages/server/package.json', import.meta.url)))('pg') as {
  Client: { prototype: { query: (...args: unknown[]) => unknown } };
};
let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
  statements += 1;
  return query.apply(this, args);
};

const stores =
  path === 'handler-postgres'
    ? await createPostgresStores({
        connectionString: databaseUrl!,
        encryptionKey: 'ab'.repeat(32),
        tablePrefix: tablePrefix!,
      })
    : undefined;
const shared: Pick<PaykitHandlerOptions, 'eventStore' | 'idempotencyStore'> = stores
  ? { eventStore: stores.events, idempotencyStore: stores.idempotency }
  : {};

const server =
  path === 'proxy'
    ? createServer(bareProxy(sandboxUrl, apiKey))
    : createServer(
        toNodeListener(
          createPaykitHandler({
            api: { apiBaseUrl: sandboxUrl, apiKey },
            createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD', purpose: 'Bench' }),
            logger: { warn: () => undefined, error: () => undefined },
            ...shared,
          }),
        ),
      );
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

let since = process.cpuUsage();
let statementsSince = 0;
process.on('message', (message: string) => {
  if (message === 'start') {
    since = process.cpuUsage();
    statementsSince = statements;
    process.send!({ started: true });
  } else if (message === 'stop') {
    const used = process.cpuUsage(since);
    process.send!({ userUs: used.user, systemUs: used.system, statements: statements - statementsSince });
  } else if (message === 'exit') {
    server.closeAllConnections();
    server.close();
    void (stores?.close() ?? Promise.resolve()).then(() => process.exit(0));
  }
});
process.send!({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
