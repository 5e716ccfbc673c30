/**
 * `createPostgresStores`: every piece of paykit's server state in one PostgreSQL database, shared by all
 * instances of an application.
 */
import { PaykitError } from '@paykit/core';
import { CredentialSealer, type CredentialKey } from '../oauth/credential-sealer.js';
import { nodePostgresDatabase, type NodePostgresPool } from './node-postgres.js';
import { tablesOf } from './schema.js';
import { openStores, type PostgresStores, type StoreSettings } from './stores.js';

/** Options of {@link createPostgresStores}. */
export interface PostgresStoresOptions {
  /** `postgres://user:password@host:5432/database`. Give this or `client`. */
  connectionString?: string;
  /**
   * A pool of the `pg` package (`new pg.Pool(options)`) to use instead of a pool of our own: for settings of
   * your own (pool size, TLS, timeouts). It keeps its own settings (give it a `connectionTimeoutMillis`: pg
   * waits for ever by default), is not ended by `close()`, and gets an `'error'` listener while the stores
   * use it (an idle client whose connection is lost would otherwise end the process).
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
  /** How long a connection attempt may take before the store answers `store_unavailable`. Default 2,000 ms. */
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
  const db = options.client
    ? nodePostgresDatabase({ pool: options.client, prepare })
    : nodePostgresDatabase({ connectionString: options.connectionString!, connectTimeoutMs, max, prepare });
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
