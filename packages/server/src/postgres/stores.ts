/**
 * The stores over one {@link Database}, after the migration: what `createPostgresStores` resolves to, for
 * whichever driver adapter gives the database.
 */
import type { EventStore } from '../handler/event-store.js';
import type { IdempotencyStore } from '../handler/idempotency-store.js';
import type { CodeLedger } from '../oauth/code-ledger.js';
import type { ConnectionStore } from '../oauth/connection-store.js';
import type { CredentialSealer } from '../oauth/credential-sealer.js';
import type { RefreshLeases } from '../oauth/refresh-leases.js';
import type { TokenBudget } from '../oauth/token-budget.js';
import { AbandonedClaims } from './abandoned-claims.js';
import { Chores } from './chores.js';
import { PostgresCodeLedger } from './codes.js';
import { PostgresConnectionStore } from './connections.js';
import type { Database } from './database.js';
import { PostgresEventStore } from './events.js';
import { PostgresIdempotencyStore } from './idempotency.js';
import { migrate, type Tables } from './schema.js';
import { PostgresTokenBudget } from './token-budget.js';

/** Every store of paykit's server state, in one PostgreSQL database. */
export interface PostgresStores {
  /** `store` of `createPlatform`: merchant credentials, encrypted, with one token refresh per merchant across instances. */
  connections: ConnectionStore & RefreshLeases;
  /** `eventStore` of `createPaykitHandler`: each webhook fact runs `onEvent` once across instances. */
  events: EventStore;
  /** `idempotencyStore` of `createPaykitHandler`: one click, one payment request, whichever instance answers. */
  idempotency: IdempotencyStore;
  /** `tokenBudget` of `createPlatform`: the token endpoint's budget per minute, shared by every instance. */
  tokenBudget: TokenBudget;
  /**
   * `codeLedger` of `createPlatform`: the authorization codes already exchanged or tried (their hashes), so that
   * a code replayed to any instance is refused before it reaches the authorization server.
   */
  codes: CodeLedger;
  /**
   * Key rotation: re-encrypts with the first key every connection sealed with another one, a batch at a time,
   * never overwriting tokens that a refresh stored meanwhile. Resolves to the number of rows rewritten.
   */
  reencryptConnections(): Promise<{ rewritten: number }>;
  /** Waits for background clean-up, then ends the connection pool if `createPostgresStores` made it. */
  close(): Promise<void>;
}

/** What the stores are made of, once the options are checked. */
export interface StoreSettings {
  tables: Tables;
  sealer: CredentialSealer;
  tokenRequestsPerMinute: number;
  eventLeaseMs: number;
  eventRetentionMs: number;
}

/** Migrates, then makes the stores over `db`. `db` is closed when the migration fails. */
export async function openStores(db: Database, settings: StoreSettings): Promise<PostgresStores> {
  try {
    await migrate(db, settings.tables);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  const chores = new Chores();
  const abandoned = new AbandonedClaims();
  const connections = new PostgresConnectionStore(db, settings.tables, settings.sealer, abandoned);
  let closing: Promise<void> | undefined;
  return {
    connections,
    events: new PostgresEventStore(
      db,
      settings.tables,
      { leaseMs: settings.eventLeaseMs, retentionMs: settings.eventRetentionMs },
      chores,
      abandoned,
    ),
    idempotency: new PostgresIdempotencyStore(db, settings.tables, chores, abandoned),
    tokenBudget: new PostgresTokenBudget(db, settings.tables, settings.tokenRequestsPerMinute, chores),
    codes: new PostgresCodeLedger(db, settings.tables, chores),
    reencryptConnections: () => connections.reencryptConnections(),
    close() {
      closing ??= Promise.all([chores.settle(), abandoned.close()]).then(() => db.close());
      return closing;
    },
  };
}
