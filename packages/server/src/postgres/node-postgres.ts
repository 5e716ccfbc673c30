/**
 * The driver adapter for `pg` (node-postgres): a `pg.Pool`, each statement on a client checked out for it, each
 * transaction on one client checked out for all its statements.
 *
 * Every operation has one deadline ({@link Deadline}) for the pool's wait, a new connection and each statement;
 * past it the call rejects with `store_unavailable` and a client still busy is destroyed, not returned (pg's own
 * `query_timeout` would leave the statement running). The server gets the same limits ({@link serverLimits}), so
 * it gives up too, and a {@link CircuitBreaker} answers at once while the database is silent. A lost connection
 * never ends the process: every pool and client has an `'error'` listener (below, where each is attached).
 */
import { createHash } from 'node:crypto';
import pg from 'pg';
import { CircuitBreaker } from './circuit-breaker.js';
import type { Database, Queryable, TransactionOptions } from './database.js';
import { Deadline } from './deadline.js';
import { isServerTimeout, isUnavailable, storeError, StoreUnavailableError } from './store-errors.js';

/** A pool of `pg` (`new pg.Pool(options)`). */
export type NodePostgresPool = pg.Pool;

/** The deadline of one store operation when none is given, in ms: well under the handler's own limits. */
export const DEFAULT_TIMEOUT_MS = 2_000;

/** Silent operations in a row that open the circuit breaker, and how often it probes while open (ms). */
const BREAKER = { threshold: 3, probeMs: 500 };

/** How {@link nodePostgresDatabase} makes its own pool. */
export interface OwnPoolOptions {
  connectionString: string;
  connectTimeoutMs: number;
  max: number;
}

/** How statements are sent, and how long they may take. */
export interface StatementOptions {
  /**
   * Named (prepared) statements, one per distinct SQL text and connection (default true): parsed and
   * planned once per connection. False sends each statement unnamed (parsed every time), for PgBouncer in
   * transaction mode before 1.21 or without `max_prepared_statements`.
   */
  prepare?: boolean;
  /** The deadline of each operation, from the call to its answer, in ms. Default {@link DEFAULT_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Answer at once while the database does not answer (default true). See {@link CircuitBreaker}. */
  circuitBreaker?: boolean;
}

/**
 * The server's own time limits for a deadline of `timeoutMs`, in whole ms. The server gives up on a statement
 * a little before the client does (three quarters of the deadline; a lock wait at half of it), so that a
 * statement stuck behind a lock or running long is usually cancelled by the server: a clean error, nothing
 * written, the connection kept. The client's deadline stays the bound of the whole operation (it also counts
 * the wait for a connection), and the server's limits make sure that a backend whose client gave up does not
 * go on waiting and then write. A transaction left idle (its client gone silent) ends after the deadline.
 */
export function serverLimits(timeoutMs: number): {
  statement_timeout: number;
  lock_timeout: number;
  idle_in_transaction_session_timeout: number;
} {
  // 0 would mean "no limit" to PostgreSQL: never below 1 ms.
  return {
    statement_timeout: Math.max(1, Math.floor(timeoutMs * 0.75)),
    lock_timeout: Math.max(1, Math.floor(timeoutMs * 0.5)),
    idle_in_transaction_session_timeout: Math.max(1, Math.ceil(timeoutMs)),
  };
}

/** `pg.Client` whose connection attempts time out after `ms` (pg's own `connectionTimeoutMillis` of a client). */
function clientWithConnectTimeout(ms: number): typeof pg.Client {
  return class extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super({ ...(typeof config === 'string' ? { connectionString: config } : config), connectionTimeoutMillis: ms });
    }
  };
}

/** A client checked out of the pool for one operation. */
interface Connection {
  client: pg.PoolClient;
  /** Why the client must not go back to the pool (its connection is lost or mid-statement); undefined if it may. */
  broken: Error | undefined;
  onError(error: Error): void;
}

/** What one operation did so far: whether a failure now leaves its outcome unknown. */
interface Progress {
  /** A write was sent whose answer has not come (a single statement, or a transaction's COMMIT). */
  unknown: boolean;
}

/** Adapts a `pg` pool, or makes one (and then ends it on `close`). */
export function nodePostgresDatabase(
  source: ({ pool: NodePostgresPool } | OwnPoolOptions) & StatementOptions,
): Database {
  const own = !('pool' in source);
  const timeoutMs = source.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const limits = serverLimits(timeoutMs);
  const pool =
    'pool' in source
      ? source.pool
      : new pg.Pool({
          connectionString: source.connectionString,
          max: source.max,
          // Each new connection is given up after connectTimeoutMs: a database that does not answer is
          // store_unavailable then, and one that is down (refused) at once.
          Client: clientWithConnectTimeout(source.connectTimeoutMs),
          // The wait for a client of the pool is part of each operation's deadline (a choice: one clock for the
          // whole call, which is what the shopper waits for). 2 s is generous for a burst: 250 concurrent calls on
          // a pool of 10 are 25 rounds of ~1 ms statements (`bench/store-outage.ts` prints the burst's slowest
          // call). The deadline itself is enforced by our own timer; the pool's `connectionTimeoutMillis` is set to
          // the same so that pg also takes a caller that gave up out of its queue, instead of handing it a
          // connection later.
          connectionTimeoutMillis: timeoutMs,
          ...limits,
          // Shown in pg_stat_activity, so that paykit's connections can be told apart (a URL's own name wins).
          fallback_application_name: 'paykit',
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

  /**
   * A client of the pool within the deadline. A client that the pool hands over after the caller gave up goes
   * straight back, unused. Its `'error'` listener goes on in pg's callback, in the same tick as the pool takes
   * its own off: after `await pool.connect()` would be too late, as a new connection's ReadyForQuery and a
   * shutdown's 57P01 can come in one chunk, and the client emits the error before an await resumes.
   */
  const checkout = (deadline: Deadline): Promise<Connection> => {
    let gaveUp = false;
    const connecting = new Promise<Connection>((resolve, reject) => {
      pool.connect((error, client) => {
        if (gaveUp) {
          client?.release();
          return;
        }
        if (error || !client) {
          reject(error ?? new Error('pg gave no client'));
          return;
        }
        const connection: Connection = {
          client,
          broken: undefined,
          onError: (lost) => {
            connection.broken ??= lost;
          },
        };
        client.on('error', connection.onError);
        resolve(connection);
      });
    });
    return deadline.race(connecting, 'a connection', () => {
      gaveUp = true;
    });
  };

  /** Runs one statement on `connection` within the deadline; a connection left mid-statement is marked broken. */
  const send = async <Row extends object>(
    connection: Connection,
    config: pg.QueryConfig,
    deadline: Deadline,
  ): Promise<Row[]> => {
    try {
      const result = await deadline.race(
        connection.client.query<Row & pg.QueryResultRow>(config),
        'the database',
        () => {
          connection.broken ??= new Error('abandoned at its deadline in the middle of a statement');
        },
      );
      return result.rows;
    } catch (error) {
      // Anything but the server's own error answer leaves the connection in an unknown state.
      if (!(error instanceof pg.DatabaseError)) connection.broken ??= asError(error);
      throw error;
    }
  };

  /** Back to the pool; released with an error, a client is destroyed rather than handed out again. */
  const release = (connection: Connection): void => {
    connection.client.off('error', connection.onError);
    connection.client.release(connection.broken);
  };

  const breaker =
    source.circuitBreaker === false
      ? undefined
      : new CircuitBreaker({
          ...BREAKER,
          probe: () => operate(timeoutMs, (deadline, progress) => single('SELECT 1', [], deadline, progress), true),
        });

  /** Runs `use` under a fresh deadline (and the breaker), and turns its failure into what a store throws. */
  const operate = async <T>(
    ms: number,
    use: (deadline: Deadline, progress: Progress) => Promise<T>,
    probe = false,
  ): Promise<T> => {
    if (!probe && breaker?.isOpen) throw new StoreUnavailableError(breaker.refusal(), false);
    const progress: Progress = { unknown: false };
    const deadline = new Deadline(ms);
    try {
      const result = await use(deadline, progress);
      breaker?.answered();
      return result;
    } catch (error) {
      // The server's own answers (an SQL error, its time limits) say that it is there; anything else is silence.
      if (isUnavailable(error) && !isServerTimeout(error)) breaker?.silent();
      else breaker?.answered();
      throw storeError(error, { mayHaveWritten: progress.unknown && !(error instanceof pg.DatabaseError) });
    } finally {
      deadline.end();
    }
  };

  const single = async <Row extends object>(
    text: string,
    values: readonly unknown[],
    deadline: Deadline,
    progress: Progress,
  ): Promise<Row[]> => {
    const connection = await checkout(deadline);
    try {
      progress.unknown = true;
      return await send<Row>(connection, statement(text, values), deadline);
    } finally {
      release(connection);
    }
  };

  return {
    query<Row extends object>(text: string, values: readonly unknown[] = []): Promise<Row[]> {
      return operate(timeoutMs, (deadline, progress) => single<Row>(text, values, deadline, progress));
    },
    transaction<T>(work: (tx: Queryable) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
      const ms = options.timeoutMs ?? timeoutMs;
      return operate(ms, async (deadline, progress) => {
        const connection = await checkout(deadline);
        try {
          // The server's limits for this transaction: a pool of the application's may have none, and a longer
          // deadline (the migration) needs longer ones. One round trip either way: they go with the BEGIN.
          // The stores' own pool already has the default deadline's limits on every connection.
          if (own && ms === timeoutMs) await send(connection, statement('BEGIN', []), deadline);
          else await send(connection, { text: beginWithLimits(ms) }, deadline);
          const tx: Queryable = {
            query: <Row extends object>(text: string, values: readonly unknown[] = []) =>
              send<Row>(connection, statement(text, values), deadline),
          };
          const result = await deadline.race(work(tx), 'the database', () => {
            connection.broken ??= new Error('abandoned at its deadline in the middle of a transaction');
          });
          progress.unknown = true;
          await send(connection, statement('COMMIT', []), deadline);
          return result;
        } catch (error) {
          // A connection that is lost or abandoned rolls back by itself once it is destroyed. One that answered
          // with an error gets its ROLLBACK while time is left; a ROLLBACK that fails means it is not reused.
          if (connection.broken === undefined) {
            await send(connection, { text: 'ROLLBACK' }, deadline).catch((rollbackError: unknown) => {
              connection.broken ??= asError(rollbackError);
            });
          }
          throw error;
        } finally {
          release(connection);
        }
      });
    },
    async close() {
      await breaker?.close();
      if (own) await pool.end();
      else pool.off('error', onPoolError);
    },
  };
}

/** `BEGIN` with the server's limits of a deadline of `ms`, for this transaction only (`SET LOCAL`). */
function beginWithLimits(ms: number): string {
  const limits = serverLimits(ms);
  return [
    'BEGIN',
    `SET LOCAL statement_timeout = ${limits.statement_timeout}`,
    `SET LOCAL lock_timeout = ${limits.lock_timeout}`,
    `SET LOCAL idle_in_transaction_session_timeout = ${limits.idle_in_transaction_session_timeout}`,
  ].join('; ');
}

function asError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
