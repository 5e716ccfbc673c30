/**
 * Webhook facts in PostgreSQL. A claim is a lease: a 'processing' row whose holder died (a killed process,
 * a lost connection) lapses after `leaseMs` by the database's clock, and a redelivery is processed then.
 * 'done' is kept for `retentionMs` (by default for ever), and the store remembers from `retentionMs` ago, never
 * before its table was created (the migration that made it says when).
 */
import { randomUUID } from 'node:crypto';
import { startOfSecond, type ClaimResult, type EventStore } from '../handler/event-store.js';
import type { AbandonedClaims } from './abandoned-claims.js';
import type { Chores } from './chores.js';
import type { Database } from './database.js';
import type { Tables } from './schema.js';
import { mayHaveWritten } from './store-errors.js';

const MAX_REMEMBERED_CLAIMS = 10_000;

/**
 * How much longer than `retentionMs` a done fact is kept than the store says it remembers: the horizon is read
 * by this process's clock and compared with the payment service's, the rows are dropped by the database's, and
 * a few minutes apart must not let a fact be forgotten while it still counts as remembered.
 */
const RETENTION_MARGIN_MS = 10 * 60_000;

/** Options of {@link PostgresEventStore}. */
export interface PostgresEventStoreOptions {
  /** How long a claim holds before another delivery may take it. Longer than the hook takes. */
  leaseMs: number;
  /** How long a done fact is remembered; `Infinity` for ever. */
  retentionMs: number;
}

/** An {@link EventStore} shared by every instance on the database. */
export class PostgresEventStore implements EventStore {
  readonly #db: Database;
  readonly #table: string;
  readonly #options: PostgresEventStoreOptions;
  readonly #chores: Chores;
  /** The claim ids this instance holds, so that a claim that lapsed and was taken over is not released. */
  readonly #claims = new Map<string, string>();

  readonly #abandoned: AbandonedClaims;
  readonly #migrations: string;
  /** When the events table was created, read once. */
  #createdAt: Promise<number> | undefined;

  constructor(
    db: Database,
    tables: Tables,
    options: PostgresEventStoreOptions,
    chores: Chores,
    abandoned: AbandonedClaims,
  ) {
    this.#db = db;
    this.#table = tables.events;
    this.#options = options;
    this.#chores = chores;
    this.#abandoned = abandoned;
    this.#migrations = tables.migrations;
  }

  async remembersFrom(): Promise<number> {
    this.#createdAt ??= this.#readCreatedAt().catch((error: unknown) => {
      this.#createdAt = undefined;
      throw error;
    });
    const created = await this.#createdAt;
    return Number.isFinite(this.#options.retentionMs)
      ? Math.max(created, Date.now() - this.#options.retentionMs)
      : created;
  }

  /** The time the first migration (which made the events table) was applied, to the second. */
  async #readCreatedAt(): Promise<number> {
    const rows = await this.#db.query<{ at: string | number }>(
      `SELECT floor(extract(epoch FROM applied_at) * 1000) AS at FROM ${this.#migrations} WHERE version = 1`,
    );
    const at = Number(rows[0]?.at);
    // Without the row (a table made by hand), the store knows nothing before this process asked.
    return startOfSecond(Number.isFinite(at) ? at : Date.now());
  }

  async claim(eventId: string): Promise<ClaimResult> {
    this.#sweep();
    const claimId = randomUUID();
    const retained = Number.isFinite(this.#options.retentionMs);
    const rows = await this.#db
      .query(
        `INSERT INTO ${this.#table} AS e (fact, state, claim_id, lease_until, updated_at)
       VALUES ($1, 'processing', $2, clock_timestamp() + $3::double precision * interval '1 millisecond', clock_timestamp())
       ON CONFLICT (fact) DO UPDATE SET state = 'processing', claim_id = EXCLUDED.claim_id,
         lease_until = EXCLUDED.lease_until, updated_at = EXCLUDED.updated_at
       WHERE (e.state = 'processing' AND e.lease_until <= clock_timestamp())
         ${retained ? `OR (e.state = 'done' AND e.updated_at <= clock_timestamp() - $4::double precision * interval '1 millisecond')` : ''}
       RETURNING 1 AS claimed`,
        [eventId, claimId, this.#options.leaseMs, ...(retained ? [this.#keptMs()] : [])],
      )
      .catch((error: unknown) => {
        // The delivery is answered 503 and comes again; a claim that lands all the same must not answer that
        // redelivery "already being processed" for the whole lease.
        if (mayHaveWritten(error)) this.#abandoned.add(() => this.#retract(eventId, claimId), this.#options.leaseMs);
        throw error;
      });
    if (rows.length === 0) return this.#stateOf(eventId);
    this.#claims.set(eventId, claimId);
    // Claims end in complete or release; one whose end failed (the database was away) is not kept for ever.
    if (this.#claims.size > MAX_REMEMBERED_CLAIMS) this.#claims.delete(this.#claims.keys().next().value!);
    return true;
  }

  async complete(eventId: string): Promise<void> {
    // Done is done, whoever holds the claim now: the hook ran.
    await this.#db.query(
      `INSERT INTO ${this.#table} (fact, state, updated_at) VALUES ($1, 'done', clock_timestamp())
       ON CONFLICT (fact) DO UPDATE SET state = 'done', claim_id = NULL, lease_until = NULL,
         updated_at = EXCLUDED.updated_at`,
      [eventId],
    );
    this.#claims.delete(eventId);
  }

  async release(eventId: string): Promise<void> {
    const claimId = this.#claims.get(eventId);
    // Without a claim id (a claim made by another store object), any live claim is given back, as in memory.
    await this.#db.query(
      `DELETE FROM ${this.#table} WHERE fact = $1 AND state = 'processing' AND ($2::text IS NULL OR claim_id = $2)`,
      [eventId, claimId ?? null],
    );
    this.#claims.delete(eventId);
  }

  /**
   * Why a claim was refused: `'busy'` while another instance's lease holds (its hook may still fail and give the
   * fact back), `false` when the fact is done. One more read, on the refused path only.
   */
  async #stateOf(eventId: string): Promise<ClaimResult> {
    const rows = await this.#db.query<{ state: string }>(
      `SELECT state FROM ${this.#table} WHERE fact = $1 AND (state = 'done' OR lease_until > clock_timestamp())`,
      [eventId],
    );
    return rows[0]?.state === 'processing' ? 'busy' : false;
  }

  /** Removes a claim of this id if it is there; true when it was. */
  async #retract(eventId: string, claimId: string): Promise<boolean> {
    const rows = await this.#db.query(
      `DELETE FROM ${this.#table} WHERE fact = $1 AND state = 'processing' AND claim_id = $2 RETURNING 1 AS removed`,
      [eventId, claimId],
    );
    return rows.length > 0;
  }

  /** Forgets done facts past their retention, a bounded batch now and then. */
  #sweep(): void {
    if (!Number.isFinite(this.#options.retentionMs)) return;
    this.#chores.now('events', () =>
      this.#db.query(
        `DELETE FROM ${this.#table} WHERE fact IN (
           SELECT fact FROM ${this.#table}
           WHERE state = 'done' AND updated_at <= clock_timestamp() - $1::double precision * interval '1 millisecond'
           LIMIT 200 FOR UPDATE SKIP LOCKED)
         AND state = 'done' AND updated_at <= clock_timestamp() - $1::double precision * interval '1 millisecond'`,
        [this.#keptMs()],
      ),
    );
  }

  /** How long a done row is kept: the retention and the margin (see {@link RETENTION_MARGIN_MS}). */
  #keptMs(): number {
    return this.#options.retentionMs + RETENTION_MARGIN_MS;
  }
}
