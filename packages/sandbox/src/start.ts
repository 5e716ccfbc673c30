/**
 * Starting a sandbox on a real port of 127.0.0.1.
 */
import { serve } from '@hono/node-server';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSandboxApp } from './app.js';
import type { SandboxContext } from './context.js';
import { SANDBOX_SEED } from './seed.js';
import { SandboxState } from './state.js';
import { WebhookDispatcher, type WebhookDispatcherOptions } from './webhooks/dispatcher.js';
import { OAuthState, SEED_USER } from './oauth/oauth-state.js';
import { BusinessClocks } from './business-clocks.js';
import { RateLimit } from './oauth/rate-limit.js';
import { Faults } from './faults.js';
import { DataFileWriter, loadDataFile } from './data-file.js';

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  /** Port to listen on; `0` picks a free one. Default 4010. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`: the sandbox is for this machine only. */
  host?: string;
  /** Webhook timing (tests shorten the retry delays). */
  webhooks?: WebhookDispatcherOptions;
  /**
   * The authorization server: access-token lifetime (default one year, spec 2.8), refresh-token lifetime (default
   * none: the spec does not show one, so a refresh token ends with use or revocation only) and token-endpoint limit
   * (90/min). Lifetimes run on the connected business's clock.
   */
  oauth?: { accessTokenTtlSeconds?: number; refreshTokenTtlSeconds?: number; tokenRequestsPerMinute?: number };
  /** The processor segment of the balance-transactions path. Default `processor` (paykit's choice; the spec withholds it). */
  balanceProcessorSegment?: string;
  /**
   * A JSON file that keeps the state across restarts: loaded at start when it exists, written back (atomically,
   * mode 0600) at most every 200 ms after a change and on `close()`. Without it everything stays in memory.
   * A file the sandbox cannot use rejects the start with a `SandboxDataFileError` naming it. What is kept and
   * what is not (faults, rate-limit counters, webhook retries, dashboard sessions): see `persistence.ts`.
   */
  dataFile?: string;
}

/** A running sandbox. */
export interface RunningSandbox {
  /** Its origin, e.g. `http://127.0.0.1:4010`: the API base URL, the dashboard URL and the checkout origin. */
  readonly url: string;
  /** The seeded business, its keys, and its Owner's dashboard user (sign in as `ownerEmail`, no password). */
  readonly seed: {
    businessId: string;
    apiKey: string;
    platformKey: string;
    /** The key the seeded business's webhooks are signed with (`webhookSalt` of `createPaykitHandler`). */
    salt: string;
    ownerUserId: string;
    ownerEmail: string;
  };
  /** Its memory, for tests that look inside. */
  readonly context: SandboxContext;
  /** Stops listening, drops open connections, cancels webhook retries, and writes the data file's last changes. */
  close(): Promise<void>;
}

/**
 * Starts the Payments API emulator.
 *
 * @example
 * ```ts
 * const sandbox = await startSandbox({ port: 0 });
 * await fetch(`${sandbox.url}/v1/payment-requests`, { headers: { 'X-BUSINESS-API-KEY': sandbox.seed.apiKey } });
 * await sandbox.close();
 * ```
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const host = options.host ?? '127.0.0.1';
  let url = '';
  const oauth = new OAuthState(options.oauth?.accessTokenTtlSeconds, options.oauth?.refreshTokenTtlSeconds);
  const clocks = new BusinessClocks(() => Date.now());
  oauth.useBusinessClocks(clocks);
  const context: SandboxContext = {
    state: new SandboxState(),
    webhooks: new WebhookDispatcher({ ...options.webhooks, clocks }),
    oauth,
    clocks,
    faults: new Faults(),
    balanceProcessorSegment: options.balanceProcessorSegment ?? 'processor',
    cspReports: [],
    tokenRateLimit: new RateLimit(options.oauth?.tokenRequestsPerMinute ?? 90, 60_000),
    publicUrl: () => url,
    createApp: createSandboxApp,
  };
  context.state.ledger.useClock((businessId) => clocks.now(businessId));
  const app = createSandboxApp(context);
  let writer: DataFileWriter | undefined;
  let fetch = app.fetch;
  if (options.dataFile !== undefined) {
    const saving = new DataFileWriter(options.dataFile, context, (error) => {
      // The sandbox's other log line: the state is no longer reaching its file (said once until it does again).
      // eslint-disable-next-line no-console
      console.error(`[paykit sandbox] ${error.message}`);
    });
    if (!(await loadDataFile(context, options.dataFile))) await saving.writeNow();
    // Every request that may change something marks the state dirty once it is answered, whatever its status:
    // a refused request can change state too (a replayed code revokes its grants), and a write that changed
    // nothing costs one small file. GET and HEAD change nothing kept (sessions are not kept).
    fetch = async (...args) => {
      try {
        return await app.fetch(...args);
      } finally {
        if (args[0].method !== 'GET' && args[0].method !== 'HEAD') saving.changed();
      }
    };
    writer = saving;
  }
  const server = await new Promise<Server>((resolve, reject) => {
    // Without a createServer option, @hono/node-server makes a node:http Server.
    const s = serve({ fetch, port: options.port ?? 4010, hostname: host }, () => resolve(s)) as Server;
    s.once('error', reject);
  });
  // A listening TCP server's address is an AddressInfo (a string only for a pipe).
  const { port } = server.address() as AddressInfo;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    seed: {
      businessId: SANDBOX_SEED.businessId,
      apiKey: SANDBOX_SEED.apiKey,
      platformKey: SANDBOX_SEED.platformKey,
      salt: SANDBOX_SEED.salt,
      ownerUserId: SEED_USER.id,
      ownerEmail: SEED_USER.email,
    },
    context,
    close: async () => {
      await new Promise<void>((resolve) => {
        context.webhooks.reset();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await writer?.close();
    },
  };
}
