/**
 * The tables of the PostgreSQL stores, and the versioned migration that creates them. Every instance runs it
 * at start-up: in one transaction under an advisory lock of the table prefix, so ten instances starting at
 * once apply each version exactly once, and a second run changes nothing.
 */
import { createHash } from 'node:crypto';
import { PaykitError } from '@paykit/core';
import type { Database, Queryable } from './database.js';

/** The table names of one prefix. */
export interface Tables {
  prefix: string;
  migrations: string;
  connections: string;
  events: string;
  idempotency: string;
  tokenClients: string;
  tokenRequests: string;
  codes: string;
}

/**
 * Letters, digits and `_`, lower case, starting with a letter, at most 32 characters: it goes into SQL as a
 * bare identifier, and the longest name made of it must stay within PostgreSQL's 63.
 */
const PREFIX = /^[a-z][a-z0-9_]{0,31}$/;

/** The tables of `prefix`; a prefix that is not a safe SQL identifier start is refused. */
export function tablesOf(prefix: string): Tables {
  if (typeof prefix !== 'string' || !PREFIX.test(prefix)) {
    throw new PaykitError(
      'validation_failed',
      `"tablePrefix" must be 1 to 32 lower-case letters, digits or "_", starting with a letter (like "paykit_"), not ${JSON.stringify(prefix)}`,
      { errors: [{ path: 'tablePrefix', message: 'must match /^[a-z][a-z0-9_]{0,31}$/' }] },
    );
  }
  return {
    prefix,
    migrations: `${prefix}schema_migrations`,
    connections: `${prefix}connections`,
    events: `${prefix}events`,
    idempotency: `${prefix}idempotency`,
    tokenClients: `${prefix}token_clients`,
    tokenRequests: `${prefix}token_requests`,
    codes: `${prefix}oauth_codes`,
  };
}

/** Each version's statements, in order. Never edit a version once released: add the next one. */
const MIGRATIONS: readonly ((t: Tables) => readonly string[])[] = [
  // 1: every store.
  (t) => [
    `CREATE TABLE ${t.connections} (
      business_id text PRIMARY KEY,
      key_id text NOT NULL,
      iv bytea NOT NULL,
      tag bytea NOT NULL,
      ciphertext bytea NOT NULL,
      lease_id text,
      lease_until timestamptz,
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    `CREATE INDEX ${t.prefix}connections_key_idx ON ${t.connections} (key_id)`,
    `CREATE TABLE ${t.events} (
      fact text PRIMARY KEY,
      state text NOT NULL CHECK (state IN ('processing', 'done')),
      claim_id text,
      lease_until timestamptz,
      updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
    )`,
    `CREATE INDEX ${t.prefix}events_done_idx ON ${t.events} (updated_at) WHERE state = 'done'`,
    `CREATE TABLE ${t.idempotency} (
      key text PRIMARY KEY,
      fingerprint text NOT NULL,
      state text NOT NULL CHECK (state IN ('claimed', 'completed')),
      claim_id text,
      ttl_ms bigint NOT NULL,
      result jsonb,
      expires_at timestamptz NOT NULL
    )`,
    `CREATE INDEX ${t.prefix}idempotency_expires_idx ON ${t.idempotency} (expires_at)`,
    `CREATE TABLE ${t.tokenClients} (
      client_id text PRIMARY KEY,
      paused_until timestamptz
    )`,
    `CREATE TABLE ${t.tokenRequests} (
      client_id text NOT NULL,
      started_at timestamptz NOT NULL
    )`,
    `CREATE INDEX ${t.prefix}token_requests_idx ON ${t.tokenRequests} (client_id, started_at)`,
  ],
  // 2: the authorization codes already exchanged or tried (a hash each, never the code).
  (t) => [
    `CREATE TABLE ${t.codes} (
      code_hash text PRIMARY KEY,
      expires_at timestamptz NOT NULL
    )`,
    `CREATE INDEX ${t.prefix}oauth_codes_expires_idx ON ${t.codes} (expires_at)`,
  ],
];

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * The deadline of the migration's transaction, in ms. It runs at start-up, not for a shopper: the DDL of a first
 * run and the wait for the advisory lock while other instances starting at the same moment migrate get room
 * that a store call does not. A database that does not answer still fails the start within it (and one that
 * cannot be connected to, within `connectTimeoutMs`).
 */
const MIGRATION_TIMEOUT_MS = 30_000;

/**
 * Brings the tables of `tables.prefix` to {@link SCHEMA_VERSION}. Refuses a database at a newer version
 * (written by a newer @paykit/server): an older instance must not guess at tables it does not know.
 */
export async function migrate(database: Database, tables: Tables): Promise<{ applied: number[] }> {
  return database.transaction(migrateIn(tables), { timeoutMs: MIGRATION_TIMEOUT_MS });
}

function migrateIn(tables: Tables): (tx: Queryable) => Promise<{ applied: number[] }> {
  return async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [lockKey(tables.prefix)]);
    const [found] = await tx.query<{ exists: boolean }>('SELECT to_regclass($1::text) IS NOT NULL AS exists', [
      tables.migrations,
    ]);
    if (!found?.exists) {
      await tx.query(
        `CREATE TABLE ${tables.migrations} (
          version integer PRIMARY KEY,
          applied_at timestamptz NOT NULL DEFAULT clock_timestamp()
        )`,
      );
    }
    const [row] = await tx.query<{ version: number | null }>(
      `SELECT max(version) AS version FROM ${tables.migrations}`,
    );
    const current = row?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new PaykitError(
        'internal_error',
        `The tables "${tables.prefix}*" are at schema version ${current}, newer than this @paykit/server knows (${SCHEMA_VERSION}): upgrade @paykit/server on every instance, or use another tablePrefix`,
      );
    }
    const applied: number[] = [];
    for (let version = current + 1; version <= SCHEMA_VERSION; version += 1) {
      await apply(tx, MIGRATIONS[version - 1]!(tables));
      await tx.query(`INSERT INTO ${tables.migrations} (version) VALUES ($1)`, [version]);
      applied.push(version);
    }
    return { applied };
  };
}

async function apply(tx: Queryable, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await tx.query(statement);
}

/** The advisory lock of a prefix's migrations: 64 bits of SHA-256 of a name no other lock is likely to use. */
function lockKey(prefix: string): string {
  const digest = createHash('sha256').update(`@paykit/server/postgres migrations ${prefix}`).digest();
  return digest.readBigInt64BE(0).toString();
}
