/**
 * The authorization codes already exchanged or tried, in PostgreSQL: one row per code hash, so that a code
 * tried on one instance is refused on every other before it can reach the authorization server again. Times
 * are the database's clock, so instances with skewed clocks agree on when a code is forgotten.
 */
import type { CodeLedger } from '../oauth/code-ledger.js';
import type { Chores } from './chores.js';
import type { Database } from './database.js';
import type { Tables } from './schema.js';

/** A {@link CodeLedger} shared by every instance on the database. */
export class PostgresCodeLedger implements CodeLedger {
  readonly #db: Database;
  readonly #table: string;
  readonly #chores: Chores;

  constructor(db: Database, tables: Tables, chores: Chores) {
    this.#db = db;
    this.#table = tables.codes;
    this.#chores = chores;
  }

  async claimCode(codeHash: string, ttlMs: number): Promise<boolean> {
    this.#sweep();
    // One statement, atomic under the primary key: of two instances inserting one hash, one gets the row. A
    // row past its time (not swept yet) is as if absent, as in memory.
    const rows = await this.#db.query(
      `INSERT INTO ${this.#table} AS c (code_hash, expires_at)
       VALUES ($1, clock_timestamp() + $2::double precision * interval '1 millisecond')
       ON CONFLICT (code_hash) DO UPDATE SET expires_at = EXCLUDED.expires_at
       WHERE c.expires_at <= clock_timestamp()
       RETURNING 1 AS claimed`,
      [codeHash, ttlMs],
    );
    return rows.length > 0;
  }

  /** Deletes expired codes, a bounded batch now and then. */
  #sweep(): void {
    this.#chores.now('codes', () =>
      this.#db.query(
        `DELETE FROM ${this.#table} WHERE code_hash IN (
           SELECT code_hash FROM ${this.#table} WHERE expires_at <= clock_timestamp()
           LIMIT 1000 FOR UPDATE SKIP LOCKED)
         AND expires_at <= clock_timestamp()`,
      ),
    );
  }
}
