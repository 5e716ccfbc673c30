import { testDatabaseUrl, testTablePrefix } from '@paykit/test-support/postgres';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createPostgresStores } from './create-postgres-stores.js';
import type { PostgresStores } from './stores.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgresTokenBudget', () => {
  const prefix = testTablePrefix();
  const made: PostgresStores[] = [];
  const instance = async (tokenRequestsPerMinute = 5) => {
    const stores = await createPostgresStores({
      connectionString: testDatabaseUrl(),
      encryptionKey: randomBytes(32),
      tablePrefix: prefix,
      tokenRequestsPerMinute,
    });
    made.push(stores);
    return stores.tokenBudget;
  };
  afterAll(() => Promise.all(made.map((stores) => stores.close())));

  /** Starts `count` acquires and records which resolved; `stop` aborts the ones still waiting. */
  const acquireMany = (
    budgets: { acquire: (id: string, signal?: AbortSignal) => Promise<void> }[],
    clientId: string,
    count: number,
  ) => {
    const abort = new AbortController();
    const resolved: number[] = [];
    const all = Array.from({ length: count }, (_, i) =>
      budgets[i % budgets.length]!.acquire(clientId, abort.signal).then(() => {
        resolved.push(i);
      }),
    );
    return {
      resolved,
      async stop() {
        abort.abort(new Error('test over'));
        return Promise.allSettled(all);
      },
    };
  };

  it('lets 5 of 8 concurrent acquires through at once with 5 a minute; the rest wait', async () => {
    const budget = await instance(5);
    const started = Date.now();
    const run = acquireMany([budget], 'client-one', 8);
    await vi.waitFor(() => expect(run.resolved).toHaveLength(5), { timeout: 2_000, interval: 10 });
    expect(Date.now() - started).toBeLessThan(2_000);
    await pause(300);
    expect(run.resolved).toHaveLength(5);
    const settled = await run.stop();
    expect(settled.filter((s) => s.status === 'rejected')).toHaveLength(3);
  });

  it('shares the budget between instances', async () => {
    const instances = await Promise.all(Array.from({ length: 6 }, () => instance(5)));
    for (let round = 0; round < 3; round += 1) {
      const run = acquireMany(instances, `client-shared-${round}`, 18);
      await vi.waitFor(() => expect(run.resolved.length).toBeGreaterThanOrEqual(5), { timeout: 2_000, interval: 10 });
      await pause(300);
      expect(run.resolved).toHaveLength(5);
      await run.stop();
    }
  });

  it('keeps each client id to its own budget', async () => {
    const budget = await instance(5);
    for (let i = 0; i < 5; i += 1) await budget.acquire('client-a');
    const started = Date.now();
    await budget.acquire('client-b');
    expect(Date.now() - started).toBeLessThan(500);
  });

  it("holds every instance's next acquire for the pause another instance set", async () => {
    const [one, two] = [await instance(90), await instance(90)];
    await two.acquire('client-paused');
    await one.pause('client-paused', 800);
    const started = Date.now();
    await two.acquire('client-paused');
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(700);
    expect(waited).toBeLessThan(1_500);
  });

  it('rejects a waiting acquire when its signal aborts', async () => {
    const budget = await instance(90);
    await budget.pause('client-abort', 5_000);
    const abort = new AbortController();
    const waiting = budget.acquire('client-abort', abort.signal);
    setTimeout(() => abort.abort(new Error('gave up')), 100);
    await expect(waiting).rejects.toThrow('gave up');
  });
});
