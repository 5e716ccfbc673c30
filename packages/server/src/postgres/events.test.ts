import { testDatabaseUrl, testTablePrefix } from '@paykit/test-support/postgres';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStores, type PostgresStoresOptions } from './create-postgres-stores.js';
import type { PostgresStores } from './stores.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One statement on the test database, outside the stores. */
async function database<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: testDatabaseUrl() });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

describe('PostgresEventStore', () => {
  const prefix = testTablePrefix();
  const made: PostgresStores[] = [];
  const instance = async (options: Partial<PostgresStoresOptions> = {}) => {
    const stores = await createPostgresStores({
      connectionString: testDatabaseUrl(),
      encryptionKey: randomBytes(32),
      tablePrefix: prefix,
      ...options,
    });
    made.push(stores);
    return stores.events;
  };
  afterAll(() => Promise.all(made.map((stores) => stores.close())));

  it('gives exactly one of 50 concurrent claims of a fact, across instances', async () => {
    const [one, two] = [await instance(), await instance()];
    for (let round = 0; round < 5; round += 1) {
      const fact = `payment_request.completed:pr_${round}`;
      const claims = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? one : two).claim(fact)));
      expect(claims.filter((claim) => claim === true)).toHaveLength(1);
      // The others are told the fact is held, not done: its holder may still give it back.
      expect(claims.filter((claim) => claim === 'busy')).toHaveLength(49);
    }
  });

  it('lets a released fact be claimed again, and a completed one never', async () => {
    const events = await instance();
    expect(await events.claim('fact_release')).toBe(true);
    expect(await events.claim('fact_release')).toBe('busy');
    await events.release('fact_release');
    expect(await events.claim('fact_release')).toBe(true);
    await events.complete('fact_release');
    expect(await events.claim('fact_release')).toBe(false);
    await events.release('fact_release');
    expect(await events.claim('fact_release')).toBe(false);
  });

  it('lets a processing claim be taken over once its lease lapses (its holder died); done stays done', async () => {
    const [dead, alive] = [await instance({ eventLeaseMs: 200 }), await instance({ eventLeaseMs: 200 })];
    expect(await dead.claim('fact_lapse')).toBe(true);
    expect(await alive.claim('fact_lapse')).toBe('busy');
    await pause(300);
    expect(await alive.claim('fact_lapse')).toBe(true);
    // The first holder comes back and gives up: that does not free the live claim of the second.
    await dead.release('fact_lapse');
    expect(await dead.claim('fact_lapse')).toBe('busy');
    await alive.complete('fact_lapse');
    await pause(300);
    expect(await dead.claim('fact_lapse')).toBe(false);
  });

  it('forgets done facts after eventRetentionMs and a margin, and remembers only from eventRetentionMs ago', async () => {
    const events = await instance({ eventRetentionMs: 200 });
    expect(await events.claim('fact_retained')).toBe(true);
    await events.complete('fact_retained');
    expect(await events.claim('fact_retained')).toBe(false);
    await pause(300);
    // Past the retention, the store no longer answers for it (the horizon moved past it), but the row is kept for
    // the margin, so that clocks a few minutes apart cannot make a forgotten fact count as remembered.
    expect(await events.remembersFrom()).toBeGreaterThan(Date.now() - 250);
    expect(await events.claim('fact_retained')).toBe(false);
    await database(`UPDATE ${prefix}events SET updated_at = updated_at - interval '11 minutes' WHERE fact = $1`, [
      'fact_retained',
    ]);
    expect(await events.claim('fact_retained')).toBe(true);
  });

  it('remembers from when its table was created, without a retention', async () => {
    const events = await instance();
    const [row] = await database<{ at: string }>(
      `SELECT floor(extract(epoch FROM applied_at)) * 1000 AS at FROM ${prefix}schema_migrations WHERE version = 1`,
    );
    expect(await events.remembersFrom()).toBe(Number(row!.at));
    expect(await events.remembersFrom()).toBeLessThanOrEqual(Date.now());
  });
});
