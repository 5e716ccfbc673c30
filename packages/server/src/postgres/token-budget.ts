/**
 * The token endpoint's budget in PostgreSQL: the start times of the last minute's requests of each client,
 * and a pause that every instance obeys (a 429's `Retry-After`). The window is counted by the database's
 * clock, under the lock of the client's row, so instances with skewed clocks share one budget.
 */
import type { TokenBudget } from '../oauth/token-budget.js';
import type { Chores } from './chores.js';
import type { Database } from './database.js';
import type { Tables } from './schema.js';
import { sleep } from '../sleep.js';

const WINDOW_MS = 60_000;

/** A {@link TokenBudget} shared by every instance on the database. */
export class PostgresTokenBudget implements TokenBudget {
  readonly #db: Database;
  readonly #tables: Tables;
  readonly #limit: number;
  readonly #chores: Chores;
  /** This process's callers of each client wait in line, so that only the first asks the database. */
  readonly #queues = new Map<string, Promise<void>>();

  constructor(db: Database, tables: Tables, perMinute: number, chores: Chores) {
    this.#db = db;
    this.#tables = tables;
    this.#limit = perMinute;
    this.#chores = chores;
  }

  acquire(clientId: string, signal?: AbortSignal): Promise<void> {
    const turn = (this.#queues.get(clientId) ?? Promise.resolve()).then(() => this.#wait(clientId, signal));
    const queue = turn.catch(() => undefined);
    this.#queues.set(clientId, queue);
    void queue.then(() => {
      if (this.#queues.get(clientId) === queue) this.#queues.delete(clientId);
    });
    return turn;
  }

  async pause(clientId: string, ms: number): Promise<void> {
    await this.#db.query(
      `INSERT INTO ${this.#tables.tokenClients} AS c (client_id, paused_until)
       VALUES ($1, clock_timestamp() + $2::double precision * interval '1 millisecond')
       ON CONFLICT (client_id) DO UPDATE
       SET paused_until = greatest(c.paused_until, EXCLUDED.paused_until)`,
      [clientId, ms],
    );
  }

  async #wait(clientId: string, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      signal?.throwIfAborted();
      const waitMs = await this.#tryStart(clientId);
      if (waitMs <= 0) return;
      await sleep(waitMs, signal);
    }
  }

  /** Counts a start now and answers 0, or answers how long until one may start (in ms). One transaction. */
  #tryStart(clientId: string): Promise<number> {
    const { tokenClients, tokenRequests } = this.#tables;
    return this.#db.transaction(async (tx) => {
      // Upserting the client's row locks it: one instance at a time counts and adds a start of this client.
      const [state] = await tx.query<{ paused: number }>(
        `INSERT INTO ${tokenClients} AS c (client_id) VALUES ($1)
         ON CONFLICT (client_id) DO UPDATE SET client_id = EXCLUDED.client_id
         RETURNING coalesce(extract(epoch FROM c.paused_until - clock_timestamp()) * 1000, 0)::double precision AS paused`,
        [clientId],
      );
      if (state && state.paused > 0) return Math.ceil(state.paused);
      await tx.query(
        `DELETE FROM ${tokenRequests}
         WHERE client_id = $1 AND started_at <= clock_timestamp() - ${WINDOW_MS} * interval '1 millisecond'`,
        [clientId],
      );
      const [window] = await tx.query<{ started: number; wait: number | null }>(
        `SELECT count(*)::integer AS started,
           (extract(epoch FROM min(started_at) + ${WINDOW_MS} * interval '1 millisecond' - clock_timestamp()) * 1000)::double precision AS wait
         FROM ${tokenRequests} WHERE client_id = $1`,
        [clientId],
      );
      if (window && window.started >= this.#limit) return Math.max(1, Math.ceil(window.wait ?? 1));
      await tx.query(`INSERT INTO ${tokenRequests} (client_id, started_at) VALUES ($1, clock_timestamp())`, [clientId]);
      this.#sweep();
      return 0;
    });
  }

  /** Forgets starts older than the window, and clients neither used nor paused for an hour; bounded batches. */
  #sweep(): void {
    const { tokenClients, tokenRequests } = this.#tables;
    this.#chores.now('token-budget', async () => {
      // Rows of this table are only ever inserted and deleted, so their ctid is stable while they live.
      await this.#db.query(
        `DELETE FROM ${tokenRequests} WHERE ctid = ANY (ARRAY(
           SELECT ctid FROM ${tokenRequests}
           WHERE started_at <= clock_timestamp() - ${WINDOW_MS} * interval '1 millisecond' LIMIT 1000))`,
      );
      await this.#db.query(
        `DELETE FROM ${tokenClients} c WHERE c.client_id IN (
           SELECT client_id FROM ${tokenClients}
           WHERE paused_until IS NULL OR paused_until < clock_timestamp() - interval '1 hour'
           LIMIT 100 FOR UPDATE SKIP LOCKED)
         AND (c.paused_until IS NULL OR c.paused_until < clock_timestamp() - interval '1 hour')
         AND NOT EXISTS (
           SELECT 1 FROM ${tokenRequests} r
           WHERE r.client_id = c.client_id AND r.started_at > clock_timestamp() - interval '1 hour')`,
      );
    });
  }
}
