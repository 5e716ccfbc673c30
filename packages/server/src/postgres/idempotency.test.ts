import { testDatabaseUrl, testTablePrefix } from '@paykit/test-support/postgres';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresStores } from './create-postgres-stores.js';
import type { PostgresStores } from './stores.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const policy = { leaseMs: 30_000, ttlMs: 600_000 };

describe('PostgresIdempotencyStore', () => {
  const prefix = testTablePrefix();
  const made: PostgresStores[] = [];
  const open = async () => {
    const stores = await createPostgresStores({
      connectionString: testDatabaseUrl(),
      encryptionKey: randomBytes(32),
      tablePrefix: prefix,
    });
    made.push(stores);
    return stores;
  };
  const instance = async () => (await open()).idempotency;
  afterAll(() => Promise.all(made.map((stores) => stores.close())));

  it('gives one of 50 concurrent claims the key; the others see it in progress with its fingerprint', async () => {
    const [one, two] = [await instance(), await instance()];
    for (let round = 0; round < 5; round += 1) {
      const key = `key-concurrent-${round}`;
      const claims = await Promise.all(
        Array.from({ length: 50 }, (_, i) => (i % 2 ? one : two).claim(key, `fp-${round}`, policy)),
      );
      expect(claims.filter((claim) => claim.status === 'claimed')).toHaveLength(1);
      expect(claims.filter((claim) => claim.status !== 'claimed')).toEqual(
        Array.from({ length: 49 }, () => ({ status: 'in_progress', fingerprint: `fp-${round}` })),
      );
    }
  });

  it('answers the stored outcome after complete, to any instance', async () => {
    const [one, two] = [await instance(), await instance()];
    const claim = await one.claim('key-complete', 'fp', policy);
    if (claim.status !== 'claimed') throw new Error('not claimed');
    const result = { id: 'pr_1', url: 'https://checkout.example/pr_1', amount: 12.5, tags: ['a', 'ü'], none: null };
    await one.complete('key-complete', claim.claimId, result);
    expect(await two.claim('key-complete', 'other-fp', policy)).toEqual({
      status: 'completed',
      fingerprint: 'fp',
      result,
    });
  });

  it('keeps results of every JSON shape as they were', async () => {
    const store = await instance();
    for (const [i, result] of [[1, 2], 'text', 0, null, true, { nested: { deep: [1, { x: 'y' }] } }].entries()) {
      const claim = await store.claim(`key-shape-${i}`, 'fp', policy);
      if (claim.status !== 'claimed') throw new Error('not claimed');
      await store.complete(`key-shape-${i}`, claim.claimId, result);
      expect(await store.claim(`key-shape-${i}`, 'fp', policy)).toMatchObject({ status: 'completed', result });
    }
  });

  it('lets a released key be claimed again', async () => {
    const store = await instance();
    const claim = await store.claim('key-release', 'fp', policy);
    if (claim.status !== 'claimed') throw new Error('not claimed');
    await store.release('key-release', claim.claimId);
    expect(await store.claim('key-release', 'fp', policy)).toMatchObject({ status: 'claimed' });
  });

  it('lets an expired outcome, and a claim past its lease, be claimed again', async () => {
    const store = await instance();
    const claim = await store.claim('key-ttl', 'fp', { leaseMs: 30_000, ttlMs: 200 });
    if (claim.status !== 'claimed') throw new Error('not claimed');
    await store.complete('key-ttl', claim.claimId, { id: 'pr_1' });
    expect(await store.claim('key-ttl', 'fp', policy)).toMatchObject({ status: 'completed' });
    await pause(300);
    expect(await store.claim('key-ttl', 'fp', policy)).toMatchObject({ status: 'claimed' });

    const lapsed = await store.claim('key-lease', 'fp', { leaseMs: 200, ttlMs: 600_000 });
    if (lapsed.status !== 'claimed') throw new Error('not claimed');
    await pause(300);
    const taken = await store.claim('key-lease', 'fp', policy);
    expect(taken).toMatchObject({ status: 'claimed' });
    // The lapsed holder can neither complete nor release the new claim.
    await store.complete('key-lease', lapsed.claimId, { id: 'stale' });
    await store.release('key-lease', lapsed.claimId);
    expect(await store.claim('key-lease', 'fp', policy)).toEqual({ status: 'in_progress', fingerprint: 'fp' });
  });

  it('guards complete and release with the claim id', async () => {
    const store = await instance();
    const claim = await store.claim('key-guard', 'fp', policy);
    if (claim.status !== 'claimed') throw new Error('not claimed');
    await store.complete('key-guard', 'someone-else', { id: 'forged' });
    await store.release('key-guard', 'someone-else');
    expect(await store.claim('key-guard', 'fp', policy)).toEqual({ status: 'in_progress', fingerprint: 'fp' });
    await store.complete('key-guard', claim.claimId, { id: 'pr_real' });
    await store.release('key-guard', claim.claimId);
    expect(await store.claim('key-guard', 'fp', policy)).toMatchObject({ result: { id: 'pr_real' } });
  });

  it('deletes expired rows now and then, in the background', async () => {
    const sweepPrefix = testTablePrefix();
    const sweeping = () =>
      createPostgresStores({
        connectionString: testDatabaseUrl(),
        encryptionKey: randomBytes(32),
        tablePrefix: sweepPrefix,
      });
    const first = await sweeping();
    for (let i = 0; i < 20; i += 1) await first.idempotency.claim(`key-old-${i}`, 'fp', { leaseMs: 1, ttlMs: 1 });
    await first.close();
    await pause(50);
    const second = await sweeping();
    await second.idempotency.claim('key-fresh', 'fp', policy);
    await second.close(); // waits for the sweep
    const sql = new pg.Pool({ connectionString: testDatabaseUrl(), max: 1 });
    try {
      expect((await sql.query(`SELECT key FROM ${sweepPrefix}idempotency`)).rows).toEqual([{ key: 'key-fresh' }]);
    } finally {
      await sql.end();
    }
  });
});
