/**
 * What sharing the server's state costs, and what it buys (`pnpm bench --only instances`):
 * - the create route (`POST /paykit/payment-requests`, a fresh Idempotency-Key per request) on the memory
 *   stores and on the PostgreSQL stores, in the same run, as a ratio;
 * - four processes on one PostgreSQL refreshing one merchant's expired token under 4 x 250 concurrent calls:
 *   how many token requests reach the authorization server, and how long until every call is answered.
 * The database is a real PostgreSQL started here (or `PAYKIT_TEST_DATABASE_URL`). 127.0.0.1 only.
 */
import { OAUTH_TOKEN_PATH } from '@paykit/core';
import { startSandbox } from '@paykit/sandbox';
import { createPaykitHandler, type PaykitHandlerOptions } from '@paykit/server';
import { toNodeListener } from '@paykit/server/node';
import { createPostgresStores } from '@paykit/server/postgres';
import { prepareFleet, SHOP_ORIGIN } from '@paykit/test-support/fleet';
import { startInstances } from '@paykit/test-support/instances';
import { startTestPostgres, testTablePrefix } from '@paykit/test-support/postgres';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { merge, round, type LoadFigures, type Round } from './handler-throughput.js';

/** The figures of one run. */
export interface InstanceFigures {
  memory: LoadFigures;
  postgres: LoadFigures;
  refresh: { processes: number; calls: number; tokenRequests: number; failedCalls: number; wallMs: number };
}

/** Runs both measurements; `seconds` per load. */
export async function measureInstances(seconds = 5): Promise<InstanceFigures> {
  const external = process.env.PAYKIT_TEST_DATABASE_URL;
  const database = external ? undefined : await startTestPostgres();
  const url = external ?? database!.url;
  try {
    const encryptionKey = randomBytes(32).toString('hex');
    const stores = await createPostgresStores({ connectionString: url, encryptionKey, tablePrefix: testTablePrefix() });
    try {
      const { memory, postgres } = await compareCreateRoute(
        { eventStore: stores.events, idempotencyStore: stores.idempotency },
        seconds,
      );
      const refresh = await refreshAcrossProcesses(url, encryptionKey);
      return { memory, postgres, refresh };
    } finally {
      await stores.close();
    }
  } finally {
    await database?.close();
  }
}

/**
 * The create route on memory stores and on the given shared stores, against one sandbox, 10 connections, a new
 * Idempotency-Key on every request (so each request claims and completes a key). Both run 5 s unmeasured first,
 * then take turns in one-second rounds (`seconds` each, the memory stores first in the first round, the shared
 * ones in the next, ...), as the handler bench does: the first to run no longer pays for the warm-up alone.
 */
async function compareCreateRoute(
  shared: Pick<PaykitHandlerOptions, 'eventStore' | 'idempotencyStore'>,
  seconds: number,
): Promise<{ memory: LoadFigures; postgres: LoadFigures }> {
  const sandbox = await startSandbox({ port: 0 });
  const servers: Server[] = [];
  const shopOn = async (stores: Pick<PaykitHandlerOptions, 'eventStore' | 'idempotencyStore'>): Promise<string> => {
    const handler = createPaykitHandler({
      api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
      createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD', purpose: 'Bench' }),
      logger: { warn: () => undefined, error: () => undefined },
      ...stores,
    });
    const server = createServer(toNodeListener(handler));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/paykit/payment-requests`;
  };
  const urls = { memory: await shopOn({}), postgres: await shopOn(shared) };
  let sent = 0;
  const load = (path: keyof typeof urls, duration: number): Promise<Round> =>
    round(
      urls[path],
      JSON.stringify({ amount: '12.50', currency: 'SGD' }),
      duration,
      { 'content-type': 'application/json' },
      () => ({
        'idempotency-key': `bench-key-${(sent += 1)}`,
      }),
    );
  try {
    await load('memory', 5);
    await load('postgres', 5);
    const rounds: Record<keyof typeof urls, Round[]> = { memory: [], postgres: [] };
    for (let index = 0; index < Math.max(1, Math.round(seconds)); index += 1) {
      const order = index % 2 === 0 ? (['memory', 'postgres'] as const) : (['postgres', 'memory'] as const);
      for (const path of order) rounds[path].push(await load(path, 1));
    }
    return { memory: merge(rounds.memory), postgres: merge(rounds.postgres) };
  } finally {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
    await sandbox.close();
  }
}

/** Four platform processes on one PostgreSQL, 250 concurrent reads each on a merchant whose token expired. */
async function refreshAcrossProcesses(url: string, encryptionKey: string): Promise<InstanceFigures['refresh']> {
  const tablePrefix = testTablePrefix();
  const stores = await createPostgresStores({ connectionString: url, encryptionKey, tablePrefix });
  const fleet = await prepareFleet(stores.connections);
  const running = await startInstances(4, {
    apiBaseUrl: fleet.api.url,
    platformKey: fleet.sandbox.seed.platformKey,
    ...fleet.app,
    tokenTimeoutMs: 10_000,
    shopOrigin: SHOP_ORIGIN,
    stores: { kind: 'postgres', url, tablePrefix, encryptionKey },
  });
  try {
    await fleet.expireAccessToken();
    const started = performance.now();
    const answers = await Promise.all(
      running.instances.flatMap((instance) =>
        Array.from({ length: 250 }, () =>
          fetch(`${instance.url}/paykit/payment-requests/${fleet.paymentRequestId}?merchant=${fleet.merchantId}`),
        ),
      ),
    );
    const wallMs = performance.now() - started;
    return {
      processes: running.instances.length,
      calls: answers.length,
      tokenRequests: fleet.api.count('POST', OAUTH_TOKEN_PATH),
      failedCalls: answers.filter((answer) => answer.status !== 200).length,
      wallMs,
    };
  } finally {
    await running.close();
    await fleet.close();
    await stores.close();
  }
}
