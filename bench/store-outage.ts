/**
 * What a shopper waits for while the database hangs (`pnpm exec tsx bench/store-outage.ts`): the pay button's route on the
 * PostgreSQL stores (the 2 s default deadline) while every process of a PostgreSQL of the bench's own is frozen
 * with SIGSTOP, with the circuit breaker (the default) and without it, side by side in the same freeze; and how long
 * after the database resumes each takes its next click again. Also the slowest call of a burst of 250 concurrent
 * store calls on a pool of 10 with the database up: what the default deadline must leave room for.
 */
import { startSandbox } from '@paykit/sandbox';
import { createPaykitHandler, type PaykitHandler } from '@paykit/server';
import { createPostgresStores, type PostgresStores } from '@paykit/server/postgres';
import { startTestPostgres, testTablePrefix } from '@paykit/test-support/postgres';
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';

/** The figures of one configuration while the database was frozen. */
export interface FrozenFigures {
  label: string;
  clicks: number;
  /** Answers 503 `store_unavailable`. */
  unavailable: number;
  /** Any other answer (a 500, a 201 that should not have been possible). */
  other: number;
  /** The first click after the freeze, in ms. */
  firstMs: number;
  /** Clicks answered within 100 ms. */
  within100Ms: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** From the resume to this configuration's first 201, in ms. */
  backAfterMs: number;
}

/** Every figure of one run. */
export interface OutageFigures {
  frozen: FrozenFigures[];
  /** How long the freeze lasted, and how often a click was sent to each configuration. */
  freezeMs: number;
  everyMs: number;
  /** The slowest of 250 concurrent store calls on a pool of 10, the database up, in ms. */
  burstSlowestMs: number;
}

const SHOP = 'https://shop.example';

/** Freezes for `freezeMs`, sending each configuration one click every `everyMs` meanwhile. */
export async function measureStoreOutage(freezeMs = 6_000, everyMs = 100): Promise<OutageFigures> {
  const database = await startTestPostgres();
  const sandbox = await startSandbox({ port: 0 });
  const made: PostgresStores[] = [];
  try {
    const open = async (circuitBreaker: boolean) => {
      const stores = await createPostgresStores({
        connectionString: database.url,
        encryptionKey: randomBytes(32),
        tablePrefix: testTablePrefix(),
        circuitBreaker,
      });
      made.push(stores);
      const handler = createPaykitHandler({
        api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
        createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD', purpose: 'Outage bench' }),
        allowedOrigins: [SHOP],
        idempotencyStore: stores.idempotency,
        eventStore: stores.events,
        logger: { warn: () => undefined, error: () => undefined },
      });
      return { stores, handler };
    };
    const shops = [
      { label: 'circuit breaker on (the default)', ...(await open(true)) },
      { label: 'circuit breaker off', ...(await open(false)) },
    ];
    // Warm: each pool holds live connections, as in service.
    for (const shop of shops) await Promise.all(Array.from({ length: 20 }, () => click(shop.handler)));
    const burstSlowestMs = await burst(shops[0]!.stores);

    await database.pause();
    const timings = shops.map(() => [] as { ms: number; status: number; code: string | undefined }[]);
    let resumedAt = 0;
    try {
      const pending: Promise<void>[] = [];
      const started = performance.now();
      while (performance.now() - started < freezeMs) {
        for (const [index, shop] of shops.entries()) {
          pending.push(click(shop.handler).then((answer) => void timings[index]!.push(answer)));
        }
        await new Promise((resolve) => setTimeout(resolve, everyMs));
      }
      await Promise.all(pending);
    } finally {
      await database.resume();
      resumedAt = performance.now();
    }
    const backAfter = await Promise.all(shops.map((shop) => untilServed(shop.handler, resumedAt)));
    return {
      freezeMs,
      everyMs,
      burstSlowestMs,
      frozen: shops.map((shop, index) => {
        const answers = timings[index]!;
        const sorted = answers.map((answer) => answer.ms).sort((a, b) => a - b);
        const unavailable = answers.filter((a) => a.status === 503 && a.code === 'store_unavailable').length;
        return {
          label: shop.label,
          clicks: answers.length,
          unavailable,
          other: answers.length - unavailable,
          firstMs: answers[0]?.ms ?? NaN,
          within100Ms: answers.filter((answer) => answer.ms <= 100).length,
          p50Ms: percentile(sorted, 0.5),
          p99Ms: percentile(sorted, 0.99),
          maxMs: sorted[sorted.length - 1] ?? NaN,
          backAfterMs: backAfter[index]!,
        };
      }),
    };
  } finally {
    await database.resume();
    await Promise.all(made.map((stores) => stores.close()));
    await sandbox.close();
    await database.close();
  }
}

/** One click of the pay button with a new key; its answer's time, status and code. */
async function click(handler: PaykitHandler): Promise<{ ms: number; status: number; code: string | undefined }> {
  const started = performance.now();
  const response = await handler(
    new Request('http://127.0.0.1/paykit/payment-requests', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: SHOP,
        'idempotency-key': `outage-${randomBytes(8).toString('hex')}`,
      },
      body: JSON.stringify({ reference: 'outage' }),
    }),
  );
  const body = (await response.json()) as { code?: string };
  return { ms: performance.now() - started, status: response.status, code: body.code };
}

/** Clicks every 10 ms until one is served; ms from `since` to that answer. */
async function untilServed(handler: PaykitHandler, since: number): Promise<number> {
  for (;;) {
    if ((await click(handler)).status === 201) return performance.now() - since;
    if (performance.now() - since > 30_000) return NaN;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** 250 concurrent idempotency claims on the stores' pool of 10; the slowest, in ms. */
async function burst(stores: PostgresStores): Promise<number> {
  const policy = { leaseMs: 30_000, ttlMs: 60_000 };
  const times = await Promise.all(
    Array.from({ length: 250 }, async () => {
      const started = performance.now();
      await stores.idempotency.claim(`burst-${randomBytes(8).toString('hex')}`, 'fp', policy);
      return performance.now() - started;
    }),
  );
  return Math.max(...times);
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/** Prints BENCHMARKS.md's section "A database that hangs". */
export async function reportStoreOutage(): Promise<void> {
  const figures = await measureStoreOutage();
  console.log(
    `\n## A database that hangs: every PostgreSQL process SIGSTOPped for ${figures.freezeMs / 1000} s, ` +
      `a pay-button click every ${figures.everyMs} ms to each configuration (2 s deadline)`,
  );
  console.log(
    '| stores | clicks | 503 store_unavailable | other | first click ms | answered within 100 ms | p50 ms | p99 ms | max ms | served again after resume ms |\n|---|---|---|---|---|---|---|---|---|---|',
  );
  const ms = (value: number) => value.toFixed(0);
  for (const row of figures.frozen) {
    console.log(
      `| ${row.label} | ${row.clicks} | ${row.unavailable} | ${row.other} | ${ms(row.firstMs)} | ${row.within100Ms} | ${ms(row.p50Ms)} | ` +
        `${ms(row.p99Ms)} | ${ms(row.maxMs)} | ${ms(row.backAfterMs)} |`,
    );
  }
  console.log(
    `250 concurrent store calls on a pool of 10, database up: the slowest took ${ms(figures.burstSlowestMs)} ms ` +
      '(the default deadline is 2,000 ms)',
  );
}

// Run on its own: `pnpm exec tsx bench/store-outage.ts`.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await reportStoreOutage();
