import { testDatabaseUrl, testTablePrefix } from '@paykit/test-support/postgres';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresStores, type PostgresStoresOptions } from './create-postgres-stores.js';
import { SCHEMA_VERSION } from './schema.js';
import type { PostgresStores } from './stores.js';

describe('the migration', () => {
  const key = randomBytes(32);
  const made: PostgresStores[] = [];
  let sql: pg.Pool;
  const rows = async (text: string, values: unknown[] = []) => (await sql.query(text, values)).rows;
  const open = async (options: Partial<PostgresStoresOptions>) => {
    const stores = await createPostgresStores({ connectionString: testDatabaseUrl(), encryptionKey: key, ...options });
    made.push(stores);
    return stores;
  };
  const tablesOf = async (prefix: string) =>
    (
      await sql.query<{ table_name: string }>(
        `SELECT table_name FROM information_schema.tables
         WHERE table_schema = current_schema() AND starts_with(table_name, $1) ORDER BY table_name`,
        [prefix],
      )
    ).rows.map((row) => row.table_name.slice(prefix.length));

  beforeAll(() => {
    sql = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
  });
  afterAll(async () => {
    await Promise.all(made.map((stores) => stores.close()));
    await sql.end();
  });

  it('creates the tables once, and a second run changes nothing', async () => {
    const prefix = testTablePrefix();
    await open({ tablePrefix: prefix });
    const before = await rows(`SELECT version, applied_at FROM ${prefix}schema_migrations ORDER BY version`);
    await open({ tablePrefix: prefix });
    expect(await rows(`SELECT version, applied_at FROM ${prefix}schema_migrations ORDER BY version`)).toEqual(before);
    expect(before.map((row) => row.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
    expect(await tablesOf(prefix)).toEqual([
      'connections',
      'events',
      'idempotency',
      'oauth_codes',
      'schema_migrations',
      'token_clients',
      'token_requests',
    ]);
  });

  it('brings tables of version 1 up to date, keeping what they hold', async () => {
    const prefix = testTablePrefix();
    const first = await open({ tablePrefix: prefix });
    await first.connections.set('biz_1', { kind: 'api_key', apiKey: 'key_kept' });
    // What a database written by the version-1 code looks like: no code ledger, version 1 only.
    await rows(`DROP TABLE ${prefix}oauth_codes`);
    await rows(`DELETE FROM ${prefix}schema_migrations WHERE version > 1`);
    const upgraded = await open({ tablePrefix: prefix });
    expect(
      (await rows(`SELECT version FROM ${prefix}schema_migrations ORDER BY version`)).map((r) => r.version),
    ).toEqual([1, 2]);
    expect(await upgraded.codes.claimCode('hash', 60_000)).toBe(true);
    expect(await upgraded.connections.get('biz_1')).toEqual({ kind: 'api_key', apiKey: 'key_kept' });
  });

  it('lets ten instances start at once on a fresh prefix: all succeed, one schema', async () => {
    for (let round = 0; round < 3; round += 1) {
      const prefix = testTablePrefix();
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => open({ tablePrefix: prefix })));
      expect(results.filter((result) => result.status === 'rejected')).toEqual([]);
      const versions = await rows(`SELECT version FROM ${prefix}schema_migrations ORDER BY version`);
      expect(versions.map((row) => row.version)).toEqual(Array.from({ length: SCHEMA_VERSION }, (_, i) => i + 1));
      expect(await tablesOf(prefix)).toHaveLength(7);
    }
  });

  it('refuses a database at a newer schema version than this code knows', async () => {
    const prefix = testTablePrefix();
    await open({ tablePrefix: prefix });
    await rows(`INSERT INTO ${prefix}schema_migrations (version) VALUES (${SCHEMA_VERSION + 1})`);
    await expect(open({ tablePrefix: prefix })).rejects.toThrow(
      new RegExp(`schema version ${SCHEMA_VERSION + 1}, newer than this @paykit/server knows \\(${SCHEMA_VERSION}\\)`),
    );
  });

  it('keeps prefixes apart', async () => {
    const [one, two] = [testTablePrefix(), testTablePrefix()];
    const a = await open({ tablePrefix: one });
    const b = await open({ tablePrefix: two });
    await a.connections.set('biz_1', { kind: 'api_key', apiKey: 'key_a' });
    expect(await b.connections.get('biz_1')).toBeUndefined();
  });

  it('refuses unsafe table prefixes and bad options with clear messages, never echoing a key', async () => {
    const url = testDatabaseUrl();
    for (const tablePrefix of ['', 'Paykit_', 'paykit-', '1paykit', 'x; DROP TABLE users; --', 'p'.repeat(33)]) {
      await expect(createPostgresStores({ connectionString: url, encryptionKey: key, tablePrefix })).rejects.toThrow(
        /"tablePrefix" must be 1 to 32 lower-case letters/,
      );
    }
    const short = 'aa'.repeat(31);
    const refused = await createPostgresStores({ connectionString: url, encryptionKey: short }).catch(
      (e: unknown) => e,
    );
    expect(refused).toMatchObject({ code: 'validation_failed', message: expect.stringMatching(/32 bytes/) });
    expect((refused as Error).message).not.toContain(short);
    await expect(createPostgresStores({ connectionString: url, encryptionKey: [] })).rejects.toThrow(/at least one/);
    await expect(createPostgresStores({ encryptionKey: key })).rejects.toThrow(/"connectionString" or "client"/);
    const malformed = await createPostgresStores({
      connectionString: 'postgres://paykit:hunter2@db host:5432/paykit',
      encryptionKey: key,
    }).catch((e: unknown) => e);
    expect(malformed).toMatchObject({
      code: 'validation_failed',
      message: '"connectionString" must be a postgres:// URL',
    });
    expect(JSON.stringify(malformed)).not.toContain('hunter2');
    expect((malformed as Error).cause).toBeUndefined();
    await expect(
      createPostgresStores({ connectionString: url, encryptionKey: key, tokenRequestsPerMinute: 0 }),
    ).rejects.toThrow(/tokenRequestsPerMinute/);
  });

  it('uses a pool it is given, and leaves it open on close()', async () => {
    const client = new pg.Pool({ connectionString: testDatabaseUrl(), max: 2 });
    const stores = await createPostgresStores({ client, encryptionKey: key, tablePrefix: testTablePrefix() });
    await stores.connections.set('biz_1', { kind: 'api_key', apiKey: 'key_1' });
    expect(await stores.connections.get('biz_1')).toEqual({ kind: 'api_key', apiKey: 'key_1' });
    expect(await stores.connections.takeRefreshLease('biz_1', 10_000)).toEqual(expect.any(String));
    expect(await stores.reencryptConnections()).toEqual({ rewritten: 0 });
    expect(await stores.events.claim('fact_1')).toBe(true);
    const claim = await stores.idempotency.claim('key-1', 'fp', { leaseMs: 10_000, ttlMs: 10_000 });
    if (claim.status !== 'claimed') throw new Error('not claimed');
    await stores.idempotency.complete('key-1', claim.claimId, { id: 'pr_1' });
    expect(await stores.idempotency.claim('key-1', 'fp', { leaseMs: 10_000, ttlMs: 10_000 })).toMatchObject({
      result: { id: 'pr_1' },
    });
    await stores.tokenBudget.acquire('client');
    await stores.close();
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    expect(client.listenerCount('error')).toBe(0);
    await client.end();
  });
});
