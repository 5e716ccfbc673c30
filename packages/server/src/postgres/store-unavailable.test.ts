import { startTestPostgres, testTablePrefix, type TestPostgres } from '@paykit/test-support/postgres';
import { randomBytes } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStores } from './create-postgres-stores.js';
import { STORE_UNAVAILABLE_MESSAGE } from './store-errors.js';
import type { PostgresStores } from './stores.js';

const credentials = { kind: 'oauth', accessToken: 'a', refreshToken: 'r', expiresAt: 1 } as const;
const policy = { leaseMs: 30_000, ttlMs: 600_000 };

/** Every method of every store, each with arguments that would work on a running database. */
function everyMethod(stores: PostgresStores): Record<string, () => Promise<unknown>> {
  const { connections, events, idempotency, tokenBudget, codes } = stores;
  return {
    'connections.get': () => connections.get('biz_1'),
    'connections.set': () => connections.set('biz_2', credentials),
    'connections.delete': () => connections.delete('biz_3'),
    'connections.takeRefreshLease': () => connections.takeRefreshLease('biz_1', 10_000),
    'connections.extendRefreshLease': () => connections.extendRefreshLease('biz_1', 'lease', 10_000),
    'connections.finishRefresh': () => connections.finishRefresh('biz_1', 'lease', credentials),
    'connections.releaseRefreshLease': () => connections.releaseRefreshLease('biz_1', 'lease'),
    reencryptConnections: () => stores.reencryptConnections(),
    'events.claim': async () => events.claim(`fact_${randomBytes(4).toString('hex')}`),
    'events.complete': async () => events.complete('fact_done'),
    'events.release': async () => events.release('fact_released'),
    'idempotency.claim': () => idempotency.claim(`key-${randomBytes(4).toString('hex')}`, 'fp', policy),
    'idempotency.complete': () => idempotency.complete('key-1', 'claim', { id: 'pr_1' }),
    'idempotency.release': () => idempotency.release('key-1', 'claim'),
    'tokenBudget.acquire': () => tokenBudget.acquire(`client-${randomBytes(4).toString('hex')}`),
    'tokenBudget.pause': () => tokenBudget.pause('client', 10),
    'codes.claimCode': () => codes.claimCode(`code-${randomBytes(4).toString('hex')}`, 60_000),
  };
}

describe('the stores while the database is down', () => {
  let server: TestPostgres;
  let stores: PostgresStores;

  beforeAll(async () => {
    server = await startTestPostgres();
    stores = await createPostgresStores({
      connectionString: server.url,
      encryptionKey: randomBytes(32),
      tablePrefix: testTablePrefix(),
    });
    await stores.connections.set('biz_1', credentials);
  });
  afterAll(async () => {
    await stores?.close();
    await server?.close();
  });

  it('rejects every method with store_unavailable within 3 s, and works again once the database is back', async () => {
    const methods = everyMethod(stores);
    for (const call of Object.values(methods)) await call(); // the pool holds live connections now
    await server.stop();
    try {
      for (const [name, call] of Object.entries(methods)) {
        const started = Date.now();
        const error = await call().then(
          () => new Error(`${name} resolved`),
          (failure: unknown) => failure,
        );
        expect({ name, error }).toMatchObject({
          name,
          error: { code: 'store_unavailable', message: STORE_UNAVAILABLE_MESSAGE, retryAfterSeconds: 1 },
        });
        expect(Date.now() - started, name).toBeLessThan(3_000);
      }
    } finally {
      await server.start();
    }
    // The circuit breaker opened while the database was down; its probe (every 500 ms) closes it by itself.
    await expect
      .poll(
        () =>
          stores.connections.get('biz_1').then(
            () => 'back',
            (error: { code?: string }) => error.code,
          ),
        {
          timeout: 5_000,
          interval: 50,
        },
      )
      .toBe('back');
    for (const [name, call] of Object.entries(methods)) {
      await expect(call(), name).resolves.not.toThrow();
    }
    expect(await stores.connections.get('biz_1')).toEqual(credentials);
  });

  it('fails to start with store_unavailable, quickly, when the database cannot be reached', async () => {
    const unreachable = server.url.replace(/:(\d+)\//, (_, port: string) => `:${Number(port) === 1 ? 2 : 1}/`);
    const started = Date.now();
    await expect(
      createPostgresStores({ connectionString: unreachable, encryptionKey: randomBytes(32) }),
    ).rejects.toMatchObject({ code: 'store_unavailable' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('gives up on a database that accepts connections but never answers after connectTimeoutMs', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as { port: number };
    try {
      const started = Date.now();
      await expect(
        createPostgresStores({
          connectionString: `postgres://paykit:secret@127.0.0.1:${port}/paykit`,
          encryptionKey: randomBytes(32),
          connectTimeoutMs: 500,
        }),
      ).rejects.toMatchObject({ code: 'store_unavailable' });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('passes a query bug through as it is: not store_unavailable', async () => {
    const prefix = testTablePrefix();
    const broken = await createPostgresStores({
      connectionString: server.url,
      encryptionKey: randomBytes(32),
      tablePrefix: prefix,
    });
    // A client, not a pool: a pool's end() resolves before its connections have closed, and this server is
    // stopped right after the test, whose 57P01 on a connection still closing would reach the pool's 'error'.
    const sql = await server.connect();
    try {
      await sql.query(`DROP TABLE ${prefix}events`);
      const error = await Promise.resolve()
        .then(() => broken.events.claim('fact_1'))
        .then(
          () => undefined,
          (failure: unknown) => failure,
        );
      expect(error).toMatchObject({ code: '42P01' }); // undefined_table
    } finally {
      await sql.end();
      await broken.close();
    }
  });
});
