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
import { WebhookDispatcher, type WebhookDispatcherOptions } from './webhooks.js';
import { OAuthState, SEED_USER } from './oauth/oauth-state.js';
import { RateLimit } from './oauth/rate-limit.js';
import { Faults } from './faults.js';

/** Options of {@link startSandbox}. */
export interface SandboxOptions {
  /** Port to listen on; `0` picks a free one. Default 4010. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`: the sandbox is for this machine only. */
  host?: string;
  /** Webhook timing (tests shorten the retry delays). */
  webhooks?: WebhookDispatcherOptions;
  /** The authorization server: access-token lifetime (default one year, spec 2.8) and token-endpoint limit (90/min). */
  oauth?: { accessTokenTtlSeconds?: number; tokenRequestsPerMinute?: number };
  /** The processor segment of the balance-transactions path. Default `processor` (paykit's choice; the spec withholds it). */
  balanceProcessorSegment?: string;
}

/** A running sandbox. */
export interface RunningSandbox {
  /** Its origin, e.g. `http://127.0.0.1:4010`: the API base URL, the dashboard URL and the checkout origin. */
  readonly url: string;
  /** The seeded business, its keys, and its Owner's dashboard user (sign in as `ownerEmail`, no password). */
  readonly seed: { businessId: string; apiKey: string; platformKey: string; ownerUserId: string; ownerEmail: string };
  /** Its memory, for tests that look inside. */
  readonly context: SandboxContext;
  /** Stops listening, drops open connections and cancels webhook retries. */
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
  const context: SandboxContext = {
    state: new SandboxState(),
    webhooks: new WebhookDispatcher(options.webhooks),
    oauth: new OAuthState(options.oauth?.accessTokenTtlSeconds),
    faults: new Faults(),
    balanceProcessorSegment: options.balanceProcessorSegment ?? 'processor',
    tokenRateLimit: new RateLimit(options.oauth?.tokenRequestsPerMinute ?? 90, 60_000),
    publicUrl: () => url,
  };
  const app = createSandboxApp(context);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: options.port ?? 4010, hostname: host }, () => resolve(s)) as Server;
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url,
    seed: {
      businessId: SANDBOX_SEED.businessId,
      apiKey: SANDBOX_SEED.apiKey,
      platformKey: SANDBOX_SEED.platformKey,
      ownerUserId: SEED_USER.id,
      ownerEmail: SEED_USER.email,
    },
    context,
    close: () =>
      new Promise<void>((resolve) => {
        context.webhooks.reset();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
