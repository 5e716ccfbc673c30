/**
 * A process that hammers every PostgreSQL store while its test stops and starts the database
 * (packages/server/src/postgres/outage.test.ts). Started with `fork` from the bundle of
 * `STORE_OUTAGE_PROCESS` (node-entry.ts) (store-outage.ts, which also has the types of what it says); its configuration is
 * the JSON in `argv[2]`. It catches every rejection of every store call and counts it, and installs no
 * `unhandledRejection` or `uncaughtException` handler: an error that escapes the stores (from inside the
 * driver) ends this process, which is what the test looks for.
 *
 * It tells the test, on the IPC channel, `ready` once the stores are open, then its tallies every 100 ms and on
 * request. `{ type: 'finish' }` stops the workers; it then waits for the calls under way (any still pending
 * after 10 s is reported as hung), closes the stores and exits 0.
 */
import { createPostgresStores, type PostgresStores } from '@paykit/server/postgres';
import { randomUUID } from 'node:crypto';
import type { OutageProcessConfig, OutageProcessMessage, Tally } from './store-outage.js';

const config = JSON.parse(process.argv[2] ?? '{}') as OutageProcessConfig;
const tell = (message: OutageProcessMessage): void => {
  process.send?.(message);
};

const credentials = { kind: 'oauth', accessToken: 'a', refreshToken: 'r', expiresAt: Date.now() + 3_600_000 } as const;
const policy = { leaseMs: 30_000, ttlMs: 600_000 };

const stores: PostgresStores = await createPostgresStores({
  connectionString: config.url,
  encryptionKey: config.encryptionKey,
  tablePrefix: config.tablePrefix,
  ...(config.circuitBreaker === undefined ? {} : { circuitBreaker: config.circuitBreaker }),
  // The budget is not what this process tests: it must never make a worker wait.
  tokenRequestsPerMinute: 1_000_000_000,
});

/** One round of every store method, in the order an application would call them; each step counts on its own. */
const ROUND: readonly [string, (state: Map<string, unknown>) => Promise<unknown>][] = [
  ['connections.set', (s) => stores.connections.set(biz(s), credentials)],
  ['connections.get', (s) => stores.connections.get(biz(s))],
  [
    'connections.takeRefreshLease',
    async (s) => s.set('lease', await stores.connections.takeRefreshLease(biz(s), 10_000)),
  ],
  [
    'connections.extendRefreshLease',
    (s) => stores.connections.extendRefreshLease(biz(s), String(s.get('lease') ?? 'none'), 10_000),
  ],
  [
    'connections.finishRefresh',
    (s) => stores.connections.finishRefresh(biz(s), String(s.get('lease') ?? 'none'), credentials),
  ],
  ['connections.releaseRefreshLease', (s) => stores.connections.releaseRefreshLease(biz(s), 'none')],
  [
    'events.claim',
    async (s) => {
      const fact = `fact_${randomUUID()}`;
      s.set('fact', fact);
      return stores.events.claim(fact);
    },
  ],
  ['events.complete', async (s) => stores.events.complete(String(s.get('fact')))],
  ['events.release', async () => stores.events.release(`fact_${randomUUID()}`)],
  [
    'idempotency.claim',
    async (s) => {
      const key = `key-${randomUUID()}`;
      const claim = await stores.idempotency.claim(key, 'fp', policy);
      s.set('key', key);
      s.set('claim', claim.status === 'claimed' ? claim.claimId : 'none');
    },
  ],
  [
    'idempotency.complete',
    (s) => stores.idempotency.complete(String(s.get('key')), String(s.get('claim')), { id: 'pr_1' }),
  ],
  ['idempotency.release', () => stores.idempotency.release(`key-${randomUUID()}`, 'claim')],
  ['tokenBudget.acquire', () => stores.tokenBudget.acquire(`client-${randomUUID()}`)],
  ['tokenBudget.pause', () => stores.tokenBudget.pause('client-paused', 1)],
];

const tallies: Record<string, Tally> = Object.fromEntries(
  ROUND.map(([name]) => [name, { ok: 0, unavailable: 0, other: [], otherCount: 0, maxMs: 0, lastOkAt: 0 }]),
);
const pending = new Map<number, string>();
let nextCall = 0;
let finishing = false;

function biz(state: Map<string, unknown>): string {
  return `biz_${String(state.get('worker'))}`;
}

async function worker(index: number): Promise<void> {
  const state = new Map<string, unknown>([['worker', index]]);
  while (!finishing) {
    for (const [name, call] of ROUND) {
      if (finishing) return;
      const id = nextCall++;
      pending.set(id, name);
      const started = Date.now();
      const tally = tallies[name]!;
      try {
        await call(state);
        tally.ok += 1;
        tally.lastOkAt = Date.now();
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (code === 'store_unavailable') {
          tally.unavailable += 1;
        } else {
          tally.otherCount += 1;
          if (tally.other.length < 5) tally.other.push(`${String(code)}: ${(error as Error).message}`);
        }
        // A database that is down answers at once: do not spin on it.
        await new Promise((resolve) => setTimeout(resolve, 5));
      } finally {
        pending.delete(id);
        tally.maxMs = Math.max(tally.maxMs, Date.now() - started);
      }
    }
  }
}

const workers = Array.from({ length: config.concurrency }, (_, index) => worker(index));
const ticker = setInterval(() => tell({ type: 'tally', at: Date.now(), tallies }), 100);
tell({ type: 'ready' });

process.on('message', (message: { type: string }) => {
  if (message.type !== 'finish') return;
  finishing = true;
  clearInterval(ticker);
  const settled = Promise.all(workers).then(() => true);
  const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), 10_000).unref());
  void Promise.race([settled, timeout]).then(async (done) => {
    const hung = done ? [] : [...pending.values()];
    if (done) await stores.close();
    tell({ type: 'finished', tallies, hung });
    process.disconnect();
    process.exitCode = hung.length === 0 ? 0 : 3;
    if (!done) process.exit();
  });
});
