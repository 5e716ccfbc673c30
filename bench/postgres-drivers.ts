/**
 * The PostgreSQL driver of `@paykit/server/postgres`, by measurement: the same stores (the same SQL, through
 * a one-file driver adapter each) run the same workload over `pg` (node-postgres, the stores' driver) and
 * `postgres` (porsager, faster but not robust to a database restart: see the server README), against a PostgreSQL started for the bench (or `PAYKIT_TEST_DATABASE_URL`): idempotency
 * claim + complete pairs, then connection `get()`s (a decrypt each), `concurrency` at a time on a pool of 10.
 * Rounds alternate between the drivers; the median round is reported.
 */
import { startTestPostgres } from '@paykit/test-support/postgres';
import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { CredentialSealer } from '../packages/server/src/oauth/credential-sealer.js';
import type { Database, Queryable } from '../packages/server/src/postgres/database.js';
import { nodePostgresDatabase } from '../packages/server/src/postgres/node-postgres.js';
import { storeError } from '../packages/server/src/postgres/store-errors.js';
import { tablesOf } from '../packages/server/src/postgres/schema.js';
import { openStores } from '../packages/server/src/postgres/stores.js';

/** Throughput and tail latency of one workload. */
export interface WorkloadFigures {
  opsPerSecond: number;
  p99Ms: number;
}

/** The figures of one driver. */
export interface DriverFigures {
  driver: string;
  /** One op is a claim and its complete. */
  idempotency: WorkloadFigures;
  /** One op is one `get()`. */
  connectionGet: WorkloadFigures;
}

const DRIVERS: Record<string, (url: string) => Database> = {
  "pg (node-postgres) 8.23, named statements (the stores' default)": (url) =>
    nodePostgresDatabase({ connectionString: url, connectTimeoutMs: 2_000, max: 10 }),
  'pg (node-postgres) 8.23, unnamed statements (prepare: false)': (url) =>
    nodePostgresDatabase({ connectionString: url, connectTimeoutMs: 2_000, max: 10, prepare: false }),
  'postgres (porsager) 3.4': (url) => postgresJsDatabase(url, { prepare: true }),
  'postgres (porsager) 3.4, prepare: false': (url) => postgresJsDatabase(url, { prepare: false }),
};

/**
 * The adapter `@paykit/server/postgres` had for `postgres` (porsager) until the outage test showed that the
 * driver ends the process when the database restarts under load (porsager/postgres#1208: `sql.begin()`'s own
 * ROLLBACK on a closed connection throws from a `setImmediate`). Kept here for the speed comparison only.
 */
function postgresJsDatabase(url: string, options: { prepare: boolean }): Database {
  const sql = postgres(url, {
    max: 10,
    prepare: options.prepare,
    connect_timeout: 2,
    backoff: (retries: number) => Math.min(0.5, 3 ** retries / 100),
    idle_timeout: 60,
    onnotice: () => undefined,
  });
  const on = (runner: postgres.Sql | postgres.TransactionSql): Queryable => ({
    async query<Row extends object>(text: string, values: readonly unknown[] = []): Promise<Row[]> {
      try {
        const rows = await runner.unsafe(text, values as postgres.ParameterOrJSON<never>[], {
          prepare: options.prepare,
        });
        return rows as unknown as Row[];
      } catch (error) {
        throw storeError(error);
      }
    },
  });
  return {
    ...on(sql),
    async transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T> {
      try {
        return (await sql.begin((tx) => work(on(tx)))) as T;
      } catch (error) {
        throw storeError(error);
      }
    },
    close: () => sql.end({ timeout: 5 }),
  };
}

/** Runs `rounds` rounds of `ops` operations per workload for each driver. */
export async function measurePostgresDrivers(
  options: { ops?: number; concurrency?: number; rounds?: number } = {},
): Promise<DriverFigures[]> {
  const { ops = 5_000, concurrency = 20, rounds = 3 } = options;
  const given = process.env.PAYKIT_TEST_DATABASE_URL;
  const server = given ? undefined : await startTestPostgres();
  const url = given ?? server!.url;
  try {
    const runs = new Map<string, { idempotency: WorkloadFigures[]; connectionGet: WorkloadFigures[] }>();
    for (let round = 0; round <= rounds; round += 1) {
      // Round 0 warms up (JIT, the server's caches) and is not counted; the order alternates so neither
      // driver always runs second.
      const names = Object.keys(DRIVERS);
      for (const name of round % 2 === 0 ? names : names.reverse()) {
        const figures = await runWorkload(DRIVERS[name]!(url), ops, concurrency);
        if (round === 0) continue;
        const kept = runs.get(name) ?? { idempotency: [], connectionGet: [] };
        kept.idempotency.push(figures.idempotency);
        kept.connectionGet.push(figures.connectionGet);
        runs.set(name, kept);
      }
    }
    return [...runs].map(([driver, kept]) => ({
      driver,
      idempotency: median(kept.idempotency),
      connectionGet: median(kept.connectionGet),
    }));
  } finally {
    await server?.close();
  }
}

async function runWorkload(
  db: Database,
  ops: number,
  concurrency: number,
): Promise<{ idempotency: WorkloadFigures; connectionGet: WorkloadFigures }> {
  const stores = await openStores(db, {
    tables: tablesOf(`paykit_bench${randomBytes(4).toString('hex')}_`),
    sealer: new CredentialSealer(randomBytes(32)),
    tokenRequestsPerMinute: 90,
    eventLeaseMs: 60_000,
    eventRetentionMs: Infinity,
  });
  try {
    const result = { id: 'pr_bench', url: 'https://checkout.example/pr_bench', status: 'pending', amount: 12.5 };
    const idempotency = await timed(ops, concurrency, async (i) => {
      const claim = await stores.idempotency.claim(`bench-key-${i}`, 'f'.repeat(64), {
        leaseMs: 30_000,
        ttlMs: 600_000,
      });
      if (claim.status !== 'claimed') throw new Error(`key ${i} was not claimed: ${claim.status}`);
      await stores.idempotency.complete(`bench-key-${i}`, claim.claimId, result);
    });
    const merchants = 100;
    for (let i = 0; i < merchants; i += 1) {
      await stores.connections.set(`biz_${i}`, {
        kind: 'oauth',
        accessToken: `access-${i}`,
        refreshToken: `refresh-${i}`,
        expiresAt: Date.now() + 3_600_000,
      });
    }
    const connectionGet = await timed(ops, concurrency, async (i) => {
      if ((await stores.connections.get(`biz_${i % merchants}`)) === undefined) throw new Error('lost a connection');
    });
    return { idempotency, connectionGet };
  } finally {
    await stores.close();
  }
}

/** Runs `op(0..count-1)` with `concurrency` in flight; throughput over the whole, p99 of each op. */
async function timed(count: number, concurrency: number, op: (i: number) => Promise<void>): Promise<WorkloadFigures> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t = performance.now();
        await op(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return {
    opsPerSecond: (count / elapsed) * 1000,
    p99Ms: latencies[Math.min(latencies.length - 1, Math.ceil(latencies.length * 0.99) - 1)]!,
  };
}

function median(figures: WorkloadFigures[]): WorkloadFigures {
  const sorted = [...figures].sort((a, b) => a.opsPerSecond - b.opsPerSecond);
  return sorted[Math.floor(sorted.length / 2)]!;
}
