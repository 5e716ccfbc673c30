/**
 * Idempotency keys in PostgreSQL: a claim is a row with a lease, an outcome is a row with a time to live,
 * both by the database's clock. A claim is guarded by its claim id: only its holder completes or releases it.
 */
import { randomUUID } from 'node:crypto';
import type { IdempotencyClaim, IdempotencyClaimOptions, IdempotencyStore } from '../handler/idempotency-store.js';
import type { AbandonedClaims } from './abandoned-claims.js';
import type { Chores } from './chores.js';
import type { Database } from './database.js';
import type { Tables } from './schema.js';
import { mayHaveWritten } from './store-errors.js';

interface Row {
  fingerprint: string;
  state: 'claimed' | 'completed';
  result: unknown;
}

/** An {@link IdempotencyStore} shared by every instance on the database. */
export class PostgresIdempotencyStore implements IdempotencyStore {
  readonly #db: Database;
  readonly #table: string;
  readonly #chores: Chores;
  readonly #abandoned: AbandonedClaims;

  constructor(db: Database, tables: Tables, chores: Chores, abandoned: AbandonedClaims) {
    this.#db = db;
    this.#table = tables.idempotency;
    this.#chores = chores;
    this.#abandoned = abandoned;
  }

  async claim(key: string, fingerprint: string, options: IdempotencyClaimOptions): Promise<IdempotencyClaim> {
    this.#sweep();
    const claimId = randomUUID();
    // A row can vanish or lapse between the two statements (released, expired): then the claim is tried again.
    for (let attempt = 0; ; attempt += 1) {
      const claimed = await this.#db
        .query(
          `INSERT INTO ${this.#table} AS i (key, fingerprint, state, claim_id, ttl_ms, result, expires_at)
           VALUES ($1, $2, 'claimed', $3, $5, NULL, clock_timestamp() + $4::double precision * interval '1 millisecond')
           ON CONFLICT (key) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, state = 'claimed',
             claim_id = EXCLUDED.claim_id, ttl_ms = EXCLUDED.ttl_ms, result = NULL, expires_at = EXCLUDED.expires_at
           WHERE i.expires_at <= clock_timestamp()
           RETURNING 1 AS claimed`,
          [key, fingerprint, claimId, options.leaseMs, Math.round(options.ttlMs)],
        )
        .catch((error: unknown) => {
          // The caller hears store_unavailable and makes no payment request; a claim that lands all the same
          // must not keep the shopper's retry waiting for its lease.
          if (mayHaveWritten(error)) this.#abandoned.add(() => this.#retract(key, claimId), options.leaseMs);
          throw error;
        });
      if (claimed.length === 1) return { status: 'claimed', claimId };
      const [row] = await this.#db.query<Row>(
        `SELECT fingerprint, state, result FROM ${this.#table} WHERE key = $1 AND expires_at > clock_timestamp()`,
        [key],
      );
      if (row?.state === 'completed') return { status: 'completed', fingerprint: row.fingerprint, result: row.result };
      if (row) return { status: 'in_progress', fingerprint: row.fingerprint };
      if (attempt >= 2) return { status: 'in_progress', fingerprint };
    }
  }

  async complete(key: string, claimId: string, result: unknown): Promise<void> {
    await this.#db.query(
      `UPDATE ${this.#table}
       SET state = 'completed', claim_id = NULL, result = $3::text::jsonb,
         expires_at = clock_timestamp() + ttl_ms * interval '1 millisecond'
       WHERE key = $1 AND claim_id = $2 AND state = 'claimed'`,
      [key, claimId, JSON.stringify(result) ?? null],
    );
  }

  async release(key: string, claimId: string): Promise<void> {
    await this.#db.query(`DELETE FROM ${this.#table} WHERE key = $1 AND claim_id = $2 AND state = 'claimed'`, [
      key,
      claimId,
    ]);
  }

  /** Removes a claim of this id if it is there; true when it was. */
  async #retract(key: string, claimId: string): Promise<boolean> {
    const rows = await this.#db.query(
      `DELETE FROM ${this.#table} WHERE key = $1 AND claim_id = $2 AND state = 'claimed' RETURNING 1 AS removed`,
      [key, claimId],
    );
    return rows.length > 0;
  }

  /** Deletes a bounded batch of expired claims and outcomes, now and then. */
  #sweep(): void {
    this.#chores.now('idempotency', () =>
      this.#db.query(
        `DELETE FROM ${this.#table} WHERE key IN (
           SELECT key FROM ${this.#table} WHERE expires_at <= clock_timestamp() LIMIT 500 FOR UPDATE SKIP LOCKED)
         AND expires_at <= clock_timestamp()`,
      ),
    );
  }
}
