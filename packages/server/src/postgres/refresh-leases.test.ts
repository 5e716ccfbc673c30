import { testDatabaseUrl, testTablePrefix } from '@paykit/test-support/postgres';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { MerchantCredentials } from '../oauth/connection-store.js';
import { createPostgresStores } from './create-postgres-stores.js';
import type { PostgresStores } from './stores.js';

const tokens = (access: string): MerchantCredentials => ({
  kind: 'oauth',
  accessToken: access,
  refreshToken: `refresh-${access}`,
  expiresAt: Date.now() + 3_600_000,
});
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('refresh leases of PostgresConnectionStore', () => {
  const prefix = testTablePrefix();
  const key = randomBytes(32);
  const made: PostgresStores[] = [];
  /** Another instance: its own pool on the same tables. */
  const instance = async () => {
    const stores = await createPostgresStores({
      connectionString: testDatabaseUrl(),
      encryptionKey: key,
      tablePrefix: prefix,
    });
    made.push(stores);
    return stores.connections;
  };
  afterAll(() => Promise.all(made.map((stores) => stores.close())));

  it('gives exactly one of many concurrent takers the lease, across instances', async () => {
    const [one, two] = [await instance(), await instance()];
    for (let round = 0; round < 10; round += 1) {
      const id = `biz_race_${round}`;
      await one.set(id, tokens('old'));
      const leases = await Promise.all(
        Array.from({ length: 20 }, (_, i) => (i % 2 ? one : two).takeRefreshLease(id, 10_000)),
      );
      expect(leases.filter((lease) => lease !== undefined)).toHaveLength(1);
    }
  });

  it('gives no lease on a merchant that is not connected', async () => {
    expect(await (await instance()).takeRefreshLease('biz_nobody', 10_000)).toBeUndefined();
  });

  it('lets a lapsed lease be taken, and refuses to extend it after the lapse or the takeover', async () => {
    const [one, two] = [await instance(), await instance()];
    await one.set('biz_lapse', tokens('old'));
    const first = await one.takeRefreshLease('biz_lapse', 200);
    expect(first).toBeDefined();
    expect(await two.takeRefreshLease('biz_lapse', 200)).toBeUndefined();
    expect(await one.extendRefreshLease('biz_lapse', first!, 200)).toBe(true);
    await pause(300);
    expect(await one.extendRefreshLease('biz_lapse', first!, 10_000)).toBe(false);
    const second = await two.takeRefreshLease('biz_lapse', 10_000);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(await one.extendRefreshLease('biz_lapse', first!, 10_000)).toBe(false);
    expect(await two.extendRefreshLease('biz_lapse', second!, 10_000)).toBe(true);
    // The old holder's release does not end the new holder's lease.
    await one.releaseRefreshLease('biz_lapse', first!);
    expect(await one.takeRefreshLease('biz_lapse', 10_000)).toBeUndefined();
  });

  it('finishRefresh writes the tokens and frees the lease; release frees it without writing', async () => {
    const [one, two] = [await instance(), await instance()];
    await one.set('biz_finish', tokens('old'));
    const lease = (await one.takeRefreshLease('biz_finish', 10_000))!;
    await one.finishRefresh('biz_finish', lease, tokens('new'));
    expect(await two.get('biz_finish')).toMatchObject({ accessToken: 'new' });
    const next = await two.takeRefreshLease('biz_finish', 10_000);
    expect(next).toBeDefined();
    await two.releaseRefreshLease('biz_finish', next!);
    expect(await one.get('biz_finish')).toMatchObject({ accessToken: 'new' });
    expect(await one.takeRefreshLease('biz_finish', 10_000)).toBeDefined();
  });

  it('finishRefresh after a takeover still stores the tokens (the old ones are spent) and keeps the new lease', async () => {
    const [one, two] = [await instance(), await instance()];
    await one.set('biz_late', tokens('old'));
    const lost = (await one.takeRefreshLease('biz_late', 100))!;
    await pause(200);
    const held = (await two.takeRefreshLease('biz_late', 10_000))!;
    await one.finishRefresh('biz_late', lost, tokens('late'));
    expect(await two.get('biz_late')).toMatchObject({ accessToken: 'late' });
    expect(await one.takeRefreshLease('biz_late', 10_000)).toBeUndefined();
    expect(await two.extendRefreshLease('biz_late', held, 10_000)).toBe(true);
  });

  it('set keeps a live lease; delete ends it, and a refresh finishing afterwards does not reconnect', async () => {
    const connections = await instance();
    await connections.set('biz_gone', tokens('old'));
    const lease = (await connections.takeRefreshLease('biz_gone', 10_000))!;
    await connections.set('biz_gone', tokens('manual'));
    expect(await connections.takeRefreshLease('biz_gone', 10_000)).toBeUndefined();
    await connections.delete('biz_gone');
    await connections.finishRefresh('biz_gone', lease, tokens('new'));
    expect(await connections.get('biz_gone')).toBeUndefined();
  });
});
