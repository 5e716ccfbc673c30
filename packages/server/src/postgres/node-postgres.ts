/**
 * The driver adapter for `pg` (node-postgres).
 */
import pg from 'pg';
import type { Database, Queryable } from './database.js';
import type { OwnPoolOptions } from './postgres-js.js';
import { storeError } from './store-errors.js';

/** Adapts a node-postgres pool, or makes one (and then ends it on `close`). */
export function nodePostgresDatabase(source: { client: pg.Pool } | OwnPoolOptions): Database {
  const own = !('client' in source);
  const pool =
    'client' in source
      ? source.client
      : new pg.Pool({
          connectionString: source.connectionString,
          max: source.max,
          connectionTimeoutMillis: source.connectTimeoutMs,
          idleTimeoutMillis: 60_000,
        });
  // An idle connection that the server ends emits 'error' on the pool: without a listener, the process dies.
  if (own) pool.on('error', () => undefined);
  const on = (runner: pg.Pool | pg.PoolClient): Queryable => ({
    async query<Row extends object>(text: string, values: readonly unknown[] = []): Promise<Row[]> {
      try {
        return (await runner.query(text, values as unknown[])).rows as Row[];
      } catch (error) {
        throw storeError(error);
      }
    },
  });
  return {
    ...on(pool),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw storeError(error);
      }
      let broken: unknown;
      try {
        await client.query('BEGIN');
        const result = await work(on(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((failure: unknown) => {
          broken = failure;
        });
        throw storeError(error);
      } finally {
        client.release(broken instanceof Error ? broken : undefined);
      }
    },
    async close() {
      if (own) await pool.end();
    },
  };
}
