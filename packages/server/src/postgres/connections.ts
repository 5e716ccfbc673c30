/**
 * Merchant connections in PostgreSQL, sealed at rest ({@link CredentialSealer}), with the refresh lease of
 * each merchant as two columns of its row: a lease is a row that lapses by the database's clock, never a
 * lock held across the token request.
 */
import { randomUUID } from 'node:crypto';
import type { ConnectionStore, MerchantCredentials } from '../oauth/connection-store.js';
import type { CredentialSealer } from '../oauth/credential-sealer.js';
import type { RefreshLeases } from '../oauth/refresh-leases.js';
import type { AbandonedClaims } from './abandoned-claims.js';
import type { Database } from './database.js';
import type { Tables } from './schema.js';
import { mayHaveWritten } from './store-errors.js';

/** Column aliases are single words, so that a client with a name transform (`postgres.camel`) reads them alike. */
interface SealedRow {
  business: string;
  keyid: string;
  iv: Uint8Array;
  tag: Uint8Array;
  ciphertext: Uint8Array;
}

/** Rows re-encrypted per batch by {@link PostgresConnectionStore.reencryptConnections}. */
const REENCRYPT_BATCH = 100;

/** A {@link ConnectionStore} with {@link RefreshLeases}, shared by every instance on the database. */
export class PostgresConnectionStore implements ConnectionStore, RefreshLeases {
  readonly #db: Database;
  readonly #table: string;
  readonly #sealer: CredentialSealer;
  readonly #abandoned: AbandonedClaims;

  constructor(db: Database, tables: Tables, sealer: CredentialSealer, abandoned: AbandonedClaims) {
    this.#db = db;
    this.#table = tables.connections;
    this.#sealer = sealer;
    this.#abandoned = abandoned;
  }

  async get(businessId: string): Promise<MerchantCredentials | undefined> {
    const [row] = await this.#db.query<SealedRow>(
      `SELECT business_id AS business, key_id AS keyid, iv, tag, ciphertext FROM ${this.#table} WHERE business_id = $1`,
      [businessId],
    );
    return row && this.#open(row);
  }

  async set(businessId: string, credentials: MerchantCredentials): Promise<void> {
    const sealed = this.#sealer.seal(businessId, credentials);
    await this.#db.query(
      `INSERT INTO ${this.#table} (business_id, key_id, iv, tag, ciphertext, updated_at)
       VALUES ($1, $2, $3, $4, $5, clock_timestamp())
       ON CONFLICT (business_id) DO UPDATE SET key_id = EXCLUDED.key_id, iv = EXCLUDED.iv, tag = EXCLUDED.tag,
         ciphertext = EXCLUDED.ciphertext, updated_at = EXCLUDED.updated_at`,
      [businessId, sealed.keyId, sealed.iv, sealed.tag, sealed.ciphertext],
    );
  }

  async delete(businessId: string): Promise<void> {
    await this.#db.query(`DELETE FROM ${this.#table} WHERE business_id = $1`, [businessId]);
  }

  async takeRefreshLease(businessId: string, ttlMs: number): Promise<string | undefined> {
    // The row lock orders concurrent takers; the second re-reads the lease the first wrote and finds it live.
    const leaseId = randomUUID();
    const [row] = await this.#db
      .query<{ lease: string }>(
        `UPDATE ${this.#table}
         SET lease_id = $2, lease_until = clock_timestamp() + $3::double precision * interval '1 millisecond'
         WHERE business_id = $1 AND (lease_until IS NULL OR lease_until <= clock_timestamp())
         RETURNING lease_id AS lease`,
        [businessId, leaseId, ttlMs],
      )
      .catch((error: unknown) => {
        // A lease that lands all the same must not keep every instance from refreshing this merchant until it lapses.
        if (mayHaveWritten(error)) this.#abandoned.add(() => this.#retractLease(businessId, leaseId), ttlMs);
        throw error;
      });
    return row?.lease;
  }

  async extendRefreshLease(businessId: string, leaseId: string, ttlMs: number): Promise<boolean> {
    const rows = await this.#db.query(
      `UPDATE ${this.#table}
       SET lease_until = clock_timestamp() + $3::double precision * interval '1 millisecond'
       WHERE business_id = $1 AND lease_id = $2 AND lease_until > clock_timestamp()
       RETURNING 1 AS extended`,
      [businessId, leaseId, ttlMs],
    );
    return rows.length === 1;
  }

  /**
   * Writes the refreshed credentials whoever holds the lease now (the old refresh token is spent: these are
   * the only tokens), and ends the lease if it is still this one. A merchant deleted meanwhile (disconnected)
   * stays deleted.
   */
  async finishRefresh(businessId: string, leaseId: string, credentials: MerchantCredentials): Promise<void> {
    const sealed = this.#sealer.seal(businessId, credentials);
    await this.#db.query(
      `UPDATE ${this.#table}
       SET key_id = $3, iv = $4, tag = $5, ciphertext = $6, updated_at = clock_timestamp(),
         lease_until = CASE WHEN lease_id = $2 THEN NULL ELSE lease_until END,
         lease_id = CASE WHEN lease_id = $2 THEN NULL ELSE lease_id END
       WHERE business_id = $1`,
      [businessId, leaseId, sealed.keyId, sealed.iv, sealed.tag, sealed.ciphertext],
    );
  }

  async releaseRefreshLease(businessId: string, leaseId: string): Promise<void> {
    await this.#db.query(
      `UPDATE ${this.#table} SET lease_id = NULL, lease_until = NULL WHERE business_id = $1 AND lease_id = $2`,
      [businessId, leaseId],
    );
  }

  /** Ends a lease of this id if it is there; true when it was. */
  async #retractLease(businessId: string, leaseId: string): Promise<boolean> {
    const rows = await this.#db.query(
      `UPDATE ${this.#table} SET lease_id = NULL, lease_until = NULL WHERE business_id = $1 AND lease_id = $2
       RETURNING 1 AS ended`,
      [businessId, leaseId],
    );
    return rows.length > 0;
  }

  /**
   * Re-encrypts every row not sealed with the first key, a batch at a time. Each row is written back only if
   * its ciphertext is still the one that was read (compare-and-set): a refresh that stored new tokens
   * meanwhile already sealed them with the first key, and is never overwritten with the old ones.
   */
  async reencryptConnections(): Promise<{ rewritten: number }> {
    let rewritten = 0;
    let after = '';
    for (;;) {
      const rows = await this.#db.query<SealedRow>(
        `SELECT business_id AS business, key_id AS keyid, iv, tag, ciphertext FROM ${this.#table}
         WHERE key_id <> $1 AND business_id > $2 ORDER BY business_id LIMIT ${REENCRYPT_BATCH}`,
        [this.#sealer.keyId, after],
      );
      for (const row of rows) {
        const sealed = this.#sealer.seal(row.business, this.#open(row));
        const written = await this.#db.query(
          `UPDATE ${this.#table} SET key_id = $2, iv = $3, tag = $4, ciphertext = $5, updated_at = clock_timestamp()
           WHERE business_id = $1 AND ciphertext = $6 AND iv = $7
           RETURNING 1 AS written`,
          [row.business, sealed.keyId, sealed.iv, sealed.tag, sealed.ciphertext, row.ciphertext, row.iv],
        );
        rewritten += written.length;
      }
      if (rows.length < REENCRYPT_BATCH) return { rewritten };
      after = rows[rows.length - 1]!.business;
    }
  }

  #open(row: SealedRow): MerchantCredentials {
    return this.#sealer.open(row.business, {
      keyId: row.keyid,
      iv: row.iv,
      tag: row.tag,
      ciphertext: row.ciphertext,
    });
  }
}
