/**
 * The driver adapter for `postgres` (porsager's postgres.js).
 */
import postgres from 'postgres';
import type { Database, Queryable } from './database.js';
import { storeError } from './store-errors.js';

/** A postgres.js client: what `postgres(url, options)` returns. */
export type PostgresJsClient = postgres.Sql;

/** How {@link postgresJsDatabase} makes its own pool. */
export interface OwnPoolOptions {
  connectionString: string;
  connectTimeoutMs: number;
  max: number;
  /** Prepared statements (default true); false behind PgBouncer in transaction mode. */
  prepare?: boolean;
}

/** Adapts a postgres.js client, or makes one (and then ends it on `close`). */
export function postgresJsDatabase(source: { client: PostgresJsClient } | OwnPoolOptions): Database {
  const own = !('client' in source);
  const sql =
    'client' in source
      ? source.client
      : postgres(source.connectionString, {
          max: source.max,
          prepare: source.prepare ?? true,
          connect_timeout: source.connectTimeoutMs / 1000,
          // After failed connects the driver waits before the next try, up to 20 s by default, and queries wait
          // with it: a store must answer store_unavailable quickly instead. At most 0.5 s between tries.
          backoff: (retries: number) => Math.min(0.5, 3 ** retries / 100),
          // Idle connections are closed after a while, so that a pool does not sit on a database's slots.
          idle_timeout: 60,
          // Notices are not errors; the stores cause none, but a database may be set up to send some.
          onnotice: () => undefined,
        });
  // The client's own setting decides (false behind PgBouncer in transaction mode).
  const prepare = sql.options.prepare;
  const on = (runner: postgres.Sql | postgres.TransactionSql): Queryable => ({
    async query<Row extends object>(text: string, values: readonly unknown[] = []): Promise<Row[]> {
      try {
        const rows = await runner.unsafe(text, values as postgres.ParameterOrJSON<never>[], { prepare });
        return rows as unknown as Row[];
      } catch (error) {
        throw storeError(error);
      }
    },
  });
  return {
    ...on(sql),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      try {
        return (await sql.begin((tx) => work(on(tx)))) as T;
      } catch (error) {
        throw storeError(error);
      }
    },
    async close() {
      if (own) await sql.end({ timeout: 5 });
    },
  };
}
