/**
 * The failure the shared stores fix, shown: two processes on one `FileConnectionStore` (a file on one disk,
 * refresh coordination in each process's memory) find a merchant's token expired at the same moment. Each
 * refreshes; the authorization server sees the same refresh token twice, takes the second for a replay and
 * revokes the grant: the merchant is disconnected from the platform. `postgres-fleet.test.ts` runs the same
 * race on the PostgreSQL stores and keeps the merchant connected.
 */
import { FileConnectionStore } from '@paykit/server/files';
import { armFault, liveGrants, prepareFleet, SHOP_ORIGIN, type Fleet } from '@paykit/test-support/fleet';
import { startInstances } from '@paykit/test-support/instances';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

let cleanup: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

describe('two processes on one FileConnectionStore', () => {
  it('both refresh an expired token at once, and the merchant is disconnected', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'paykit-file-race-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    const path = join(dir, 'connections.json');
    const key = randomBytes(32).toString('hex');
    const fleet: Fleet = await prepareFleet(new FileConnectionStore({ path, key }));
    cleanup.push(() => fleet.close());
    await fleet.expireAccessToken();
    const fleetOfTwo = await startInstances(2, {
      apiBaseUrl: fleet.api.url,
      platformKey: fleet.sandbox.seed.platformKey,
      ...fleet.app,
      tokenTimeoutMs: 5_000,
      shopOrigin: SHOP_ORIGIN,
      stores: { kind: 'file', path, encryptionKey: key },
    });
    cleanup.push(() => fleetOfTwo.close());
    // The token endpoint answers a little late, as it does under load: both refreshes are in flight together.
    await armFault(fleet, { path: '/v1/open/oauth/token', kind: 'slow', delay_ms: 300, times: 2 });

    const answers = await Promise.all(
      fleetOfTwo.instances.flatMap((instance) =>
        Array.from({ length: 50 }, () =>
          fetch(`${instance.url}/paykit/payment-requests/${fleet.paymentRequestId}?merchant=${fleet.merchantId}`),
        ),
      ),
    );

    expect(fleet.api.count('POST', '/v1/open/oauth/token')).toBe(2);
    expect([...fleet.api.tokenRequestsBy].sort()).toEqual(['0', '1']);
    expect(answers.filter((answer) => answer.status !== 200).length).toBeGreaterThan(0);
    // The replay revoked the grant: no token of the merchant works any more, and a process noticed.
    expect(liveGrants(fleet)).toBe(0);
    const revoked = fleetOfTwo.instances.flatMap((instance) => instance.messages.filter((m) => m.type === 'revoked'));
    expect(revoked.length).toBeGreaterThanOrEqual(1);
  });
});
