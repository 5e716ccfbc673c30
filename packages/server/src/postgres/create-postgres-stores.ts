/**
 * `createPostgresStores`: every piece of paykit's server state in one PostgreSQL database, shared by all
 * instances of an application.
 */
import { PaykitError } from '@paykit/core';
import { CredentialSealer, type CredentialKey } from '../oauth/credential-sealer.js';
import { DEFAULT_TIMEOUT_MS, nodePostgresDatabase, type NodePostgresPool } from './node-postgres.js';
import { tablesOf } from './schema.js';
import { openStores, type PostgresStores, type StoreSettings } from './stores.js';

/** Options of {@link createPostgresStores}. */
export interface PostgresStoresOptions {
  /** `postgres://user:password@host:5432/database`. Give this or `client`. */
  connectionString?: string;
  /**
   * A pool of the `pg` package (`new pg.Pool(options)`) to use instead of a pool of our own: for settings of
   * your own (pool size, TLS, timeouts). It keeps its own settings, is not ended by `close()`, and gets an
   * `'error'` listener while the stores use it (an idle client whose connection is lost would otherwise end the
   * process). `timeoutMs` still bounds every store call on it, client-side; the server's own limits
   * (`statement_timeout`, `lock_timeout`, `idle_in_transaction_session_timeout`) are the pool's to set, and
   * paykit adds them only to its transactions. Give it a `connectionTimeoutMillis` too: a caller that gave up
   * otherwise stays in pg's queue, and a connection attempt to a silent server waits for ever.
   */
  client?: NodePostgresPool;
  /**
   * Named (prepared) statements: each statement is parsed and planned once per connection (default true).
   * `false` behind PgBouncer in transaction mode before 1.21 (or without `max_prepared_statements`).
   */
  prepare?: boolean;
  /**
   * The key that encrypts merchant credentials: 32 bytes (a `Uint8Array`, 64 hex characters, or base64).
   * Several keys rotate: the first encrypts, all decrypt (then `reencryptConnections()`). Keep keys out of
   * the repository and out of logs.
   */
  encryptionKey: CredentialKey | readonly CredentialKey[];
  /** Starts the name of every table. Default `paykit_`. Lower-case letters, digits and `_`, up to 32. */
  tablePrefix?: string;
  /** The token endpoint's budget per client id. Default 90 a minute (spec 8). */
  tokenRequestsPerMinute?: number;
  /**
   * The deadline of every store call, in ms, from the call to its answer: the wait for a connection of the pool,
   * a new connection, and each statement (or the whole transaction) together. Past it the call rejects with
   * `store_unavailable` (the handler answers 503 with `Retry-After`), and a connection left in the middle of a
   * statement is destroyed, never reused. The pool that `connectionString` makes also sends it to the server as
   * each connection's `statement_timeout` (three quarters of it), `lock_timeout` (half) and
   * `idle_in_transaction_session_timeout` (all of it), so that the server gives up too. Default 2,000 ms: well
   * under the time a shopper waits for a button, and room enough for a burst of 250 calls on a pool of 10.
   */
  timeoutMs?: number;
  /**
   * Answer at once while the database is silent (default true): after 3 calls in a row that got no answer (the
   * deadline passed, the connection was refused or lost), every call rejects with `store_unavailable` without
   * waiting, and a `SELECT 1` probes the database every 500 ms in the background until it answers (so calls work
   * again within about half a second of the database's return). A locked
   * table or a slow statement that the server cancels does not open it: the database answered.
   */
  circuitBreaker?: boolean;
  /** How long a connection attempt may take before the store answers `store_unavailable`. Default 2,000 ms (and never past `timeoutMs`). */
  connectTimeoutMs?: number;
  /** Connections of the pool that `connectionString` makes. Default 10. */
  maxConnections?: number;
  /** How long a webhook claim holds before a redelivery may take it over. Default 60,000 ms. */
  eventLeaseMs?: number;
  /** How long a processed webhook fact is remembered. Default for ever (`Infinity`). */
  eventRetentionMs?: number;
}

/**
 * Connects, brings the tables up to date (safe when many instances start at once), and resolves to the stores.
 *
 * @example
 * ```ts
 * const stores = await createPostgresStores({ connectionString: process.env.DATABASE_URL!, encryptionKey: process.env.CONNECTIONS_KEY! });
 * const platform = createPlatform({ ...api, store: stores.connections, tokenBudget: stores.tokenBudget });
 * const paykit = createPaykitHandler({ ...handler, eventStore: stores.events, idempotencyStore: stores.idempotency });
 * ```
 */
export async function createPostgresStores(options: PostgresStoresOptions): Promise<PostgresStores> {
  const settings = storeSettings(options);
  const connectTimeoutMs = positive(options.connectTimeoutMs ?? 2_000, 'connectTimeoutMs', { finite: true });
  const timeoutMs = positive(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs', { finite: true });
  if (options.circuitBreaker !== undefined && typeof options.circuitBreaker !== 'boolean') {
    throw invalid('circuitBreaker', '"circuitBreaker" must be true or false');
  }
  const circuitBreaker = options.circuitBreaker ?? true;
  const max = positiveInteger(options.maxConnections ?? 10, 'maxConnections');
  if ((options.client === undefined) === (options.connectionString === undefined)) {
    throw invalid('connectionString', 'give either "connectionString" or "client", not both or neither');
  }
  if (options.prepare !== undefined && typeof options.prepare !== 'boolean') {
    throw invalid('prepare', '"prepare" must be true or false');
  }
  const prepare = options.prepare ?? true;
  if (options.connectionString !== undefined && !isPostgresUrl(options.connectionString)) {
    // Checked here: pg would only find out at the first connection, and its error may quote the URL,
    // password included. Nothing of the URL is passed on.
    throw invalid('connectionString', '"connectionString" must be a postgres:// URL');
  }
  const statements = { prepare, timeoutMs, circuitBreaker };
  const db = options.client
    ? nodePostgresDatabase({ pool: options.client, ...statements })
    : nodePostgresDatabase({ connectionString: options.connectionString!, connectTimeoutMs, max, ...statements });
  return openStores(db, settings);
}

/** A `postgres://` or `postgresql://` URL with a host (a Unix socket is `?host=/path/to/dir`). */
function isPostgresUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (
      (url.protocol === 'postgres:' || url.protocol === 'postgresql:') &&
      (url.hostname !== '' || url.searchParams.has('host'))
    );
  } catch {
    return false;
  }
}

/** The checked options that do not depend on the driver. */
export function storeSettings(options: PostgresStoresOptions): StoreSettings {
  return {
    tables: tablesOf(options.tablePrefix ?? 'paykit_'),
    sealer: new CredentialSealer(options.encryptionKey, '"encryptionKey"'),
    tokenRequestsPerMinute: positiveInteger(options.tokenRequestsPerMinute ?? 90, 'tokenRequestsPerMinute'),
    eventLeaseMs: positive(options.eventLeaseMs ?? 60_000, 'eventLeaseMs', { finite: true }),
    eventRetentionMs: positive(options.eventRetentionMs ?? Infinity, 'eventRetentionMs'),
  };
}

function positive(value: number, name: string, { finite = false } = {}): number {
  if (typeof value !== 'number' || !(value > 0) || (finite && !Number.isFinite(value))) {
    throw invalid(name, `"${name}" must be a positive ${finite ? 'finite ' : ''}number`);
  }
  return value;
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isInteger(value) || value <= 0) throw invalid(name, `"${name}" must be a positive whole number`);
  return value;
}

function invalid(path: string, message: string): PaykitError {
  return new PaykitError('validation_failed', message, { errors: [{ path, message }] });
}
