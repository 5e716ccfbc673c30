/**
 * The driver adapter for `pg` (node-postgres): a `pg.Pool`, each statement on a pooled client, each
 * transaction on one client checked out for it.
 *
 * What keeps the process alive when the database goes away: the pool has an `'error'` listener (an idle
 * client whose connection is lost emits one, and an `'error'` event without a listener ends the process), a
 * checked-out client has one for as long as it is out, and a client that failed is released with its error,
 * so the pool destroys it instead of handing it out again. Every failure to reach the database then settles
 * the call that is waiting for it, and becomes `store_unavailable` ({@link storeError}).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Database, Queryable } from './database.js';
import { storeError } from './store-errors.js';

/** A pool of `pg` (`new pg.Pool(options)`). */
export type NodePostgresPool = pg.Pool;

/** How {@link nodePostgresDatabase} makes its own pool. */
export interface OwnPoolOptions {
  connectionString: string;
  connectTimeoutMs: number;
  max: number;
}

/** How statements are sent. */
export interface StatementOptions {
  /**
   * Named (prepared) statements, one per distinct SQL text and connection (default true): parsed and
   * planned once per connection. False sends each statement unnamed (parsed every time), for PgBouncer in
   * transaction mode before 1.21 or without `max_prepared_statements`.
   */
  prepare?: boolean;
}

/** `pg.Client` whose connection attempts time out after `ms` (pg's own `connectionTimeoutMillis` of a client). */
function clientWithConnectTimeout(ms: number): typeof pg.Client {
  return class extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), connectionTimeoutMillis: ms });
    }
  };
}

/** Adapts a `pg` pool, or makes one (and then ends it on `close`). */
export function nodePostgresDatabase(
  source: ({ pool: NodePostgresPool } | OwnPoolOptions) & StatementOptions,
): Database {
  const own = !('pool' in source);
  const pool =
    'pool' in source
      ? source.pool
      : new pg.Pool({
          connectionString: source.connectionString,
          max: source.max,
          // Each new connection is given up after connectTimeoutMs: a database that does not answer is
          // store_unavailable then, and one that is down (refused) at once. Not the pool's own
          // `connectionTimeoutMillis`: that would also limit the wait for a free client, and under a burst
          // (250 concurrent calls on a pool of 10, a loaded machine) calls would fail with a database that is up.
          Client: clientWithConnectTimeout(source.connectTimeoutMs),
          // Idle connections are closed after a while, so that a pool does not sit on a database's slots.
          idleTimeoutMillis: 60_000,
          // A connection cut without a word (a host gone, a firewall's idle timeout) is found out.
          keepAlive: true,
          keepAliveInitialDelayMillis: 60_000,
        });
  // An idle client whose connection is lost (the database restarts) emits 'error' on the pool, which pg has
  // already removed from the pool: nothing is left to do, but without a listener the process would end. A
  // pool of the application's gets the listener too, for as long as the stores use it.
  const onPoolError = (): void => undefined;
  pool.on('error', onPoolError);

  const prepare = source.prepare ?? true;
  const names = new Map<string, string>();
  const statement = (text: string, values: readonly unknown[]): pg.QueryConfig => {
    if (!prepare) return { text, values: [...values] };
    let name = names.get(text);
    if (name === undefined) {
      // The same name for the same text in every process, and never the same name for two texts.
      name = `paykit_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
      names.set(text, name);
    }
    return { name, text, values: [...values] };
  };
  const on = (runner: pg.Pool | pg.PoolClient): Queryable => ({
    async query<Row extends object>(text: string, values: readonly unknown[] = []): Promise<Row[]> {
      try {
        const result = await runner.query<Row & pg.QueryResultRow>(statement(text, values));
        return result.rows;
      } catch (error) {
        throw storeError(error);
      }
    },
  });

  return {
    ...on(pool),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      // While the client is out of the pool, nobody else listens to it: a connection lost between two
      // statements would be an 'error' event without a listener, which ends the process (the next statement
      // fails anyway). The listener goes on in pg's callback, in the same tick as the pool takes its own off:
      // after `await pool.connect()` would be too late, as a new connection's ReadyForQuery and a shutdown's
      // 57P01 can come in one chunk, and the client emits the error before an await resumes.
      let broken: unknown;
      const onClientError = (error: unknown): void => {
        broken ??= error;
      };
      let client: pg.PoolClient;
      try {
        client = await new Promise<pg.PoolClient>((resolve, reject) => {
          pool.connect((error, checkedOut) => {
            if (error || !checkedOut) {
              reject(error ?? new Error('pg gave no client'));
              return;
            }
            checkedOut.on('error', onClientError);
            resolve(checkedOut);
          });
        });
      } catch (error) {
        throw storeError(error);
      }
      const tx = on(client);
      try {
        await tx.query('BEGIN');
        const result = await work(tx);
        await tx.query('COMMIT');
        return result;
      } catch (error) {
        // A lost connection rolls back by itself; a ROLLBACK that fails too means the client is not reused.
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken ??= rollbackError ?? new Error('ROLLBACK failed');
        });
        throw storeError(error);
      } finally {
        client.off('error', onClientError);
        // Released with an error, a client is destroyed rather than returned to the pool.
        client.release(broken === undefined ? undefined : broken instanceof Error ? broken : true);
      }
    },
    async close() {
      if (own) await pool.end();
      else pool.off('error', onPoolError);
    },
  };
}
