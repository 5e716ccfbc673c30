/**
 * The canary test of log redaction (issue 12 item 5), in platform mode against the sandbox: a merchant connected
 * by code through the handler's `/oauth/callback`, one by API key, and a shop whose `api` is a client made by
 * `createMerchantApi`. Hooks and a connection store then fail with errors that quote every secret the process
 * handled (API keys, the platform key, the client secret, access and refresh tokens old and new, the code and
 * its verifier), in messages, causes and AggregateError members. No secret may reach the logger in any form;
 * the log must still say what happened.
 *
 * The test never tells the registry a secret itself: each one must have been remembered by the code that
 * handled it.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { listenOnLoopback } from '@paykit/test-support/loopback';
import { call } from '@paykit/test-support/sandbox-calls';
import { createBusiness, createUser, registerApp } from '@paykit/test-support/sandbox-control';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeListener } from '../adapters/node.js';
import { createMerchantApi } from '../api/merchant-api.js';
import { MemoryConnectionStore, type MerchantCredentials } from '../oauth/connection-store.js';
import { createPlatform } from '../platform/platform.js';
import { createPaykitHandler, type PaykitHandler } from './create-handler.js';
import type { Logger } from './logger.js';

const PLATFORM = 'https://platform.example';
const REDIRECT = `${PLATFORM}/connect/return`;

/** A connection store that can be told to fail its next write, quoting the credentials it was given. */
class LeakyStore extends MemoryConnectionStore {
  failNextSet = false;
  /** Every set of OAuth credentials, to know the tokens a refresh produced. */
  readonly written: MerchantCredentials[] = [];

  override async set(businessId: string, credentials: MerchantCredentials): Promise<void> {
    this.written.push(credentials);
    if (this.failNextSet && credentials.kind === 'oauth') {
      this.failNextSet = false;
      throw new Error(
        `store is down: could not write row (${businessId}, ${credentials.accessToken}, ${credentials.refreshToken})`,
      );
    }
    return super.set(businessId, credentials);
  }

  /** Makes the kept access token of `businessId` expired, so that the next call refreshes it. */
  async expire(businessId: string): Promise<void> {
    const kept = await this.get(businessId);
    if (kept?.kind !== 'oauth') throw new Error('not an OAuth connection');
    await super.set(businessId, { ...kept, expiresAt: Date.now() - 60_000 });
  }
}

let sandbox: RunningSandbox;
let app: { client_id: string; client_secret: string };
let oauthMerchant: { id: string };
let keyMerchant: { id: string; api_key: string };
let shopKey: string;
let owner: string;
const store = new LeakyStore();
const servers: Server[] = [];
/** Everything the loggers were given, every argument, as text. */
const log: string[] = [];
const logger: Logger = {
  warn: (...args: unknown[]) => void log.push(args.map(String).join(' ')),
  error: (...args: unknown[]) => void log.push(args.map(String).join(' ')),
};
/** Secrets the test saw go by, each to be absent from the log. */
const canaries = new Map<string, string>();
/** What the next createPaymentRequest hook throws, when set. */
let hookFailure: (() => never) | undefined;

async function serve(handler: PaykitHandler): Promise<string> {
  const server = createServer(toNodeListener(handler));
  servers.push(server);
  return listenOnLoopback(server);
}

function post(url: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PLATFORM },
    body: JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, body: (await response.json()) as Record<string, unknown> }));
}

/** Every canary quoted in free text, as a careless hook or driver would. */
function quoteAll(): string {
  return [...canaries].map(([name, value]) => `${name} was ${value}`).join('; ');
}

let platformUrl: string;
let shopUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  app = await registerApp(sandbox, {
    name: 'Canary Platform',
    redirectUris: [REDIRECT],
    scopes: ['business:read', 'payments'],
  });
  oauthMerchant = await createBusiness(sandbox, { name: 'Canary Cafe' });
  keyMerchant = await createBusiness(sandbox, { name: 'Canary Bakery' });
  shopKey = (await createBusiness(sandbox, { name: 'Canary Shop' })).api_key;
  owner = (await createUser(sandbox, { email: 'owner@canary.test', name: 'Cass', businessId: oauthMerchant.id })).id;

  const platform = createPlatform({
    apiBaseUrl: sandbox.url,
    platformKey: sandbox.seed.platformKey,
    oauth: { clientId: app.client_id, clientSecret: app.client_secret, redirectUris: [REDIRECT] },
    store,
  });
  const hooks = {
    createPaymentRequest: () => {
      hookFailure?.();
      return { amount: '10.00', currency: 'SGD', platform_commission_amount: '0.50' };
    },
    logger,
  };
  platformUrl = await serve(
    createPaykitHandler({
      platform,
      publicOrigin: PLATFORM,
      ...hooks,
      onConnected: async (connected) => {
        const kept = await store.get(connected.businessId);
        if (kept?.kind === 'oauth') {
          canaries.set('access token', kept.accessToken);
          if (kept.refreshToken) canaries.set('refresh token', kept.refreshToken);
        }
        throw new Error(`onConnected failed for ${connected.businessId}: ${quoteAll()}`);
      },
    }),
  );
  // The case: a shop whose `api` is a client, not a configuration the handler could read the key from.
  shopUrl = await serve(
    createPaykitHandler({
      api: createMerchantApi({ apiBaseUrl: sandbox.url, apiKey: shopKey }),
      publicOrigin: PLATFORM,
      ...hooks,
    }),
  );
  await platform.connectWithApiKey(keyMerchant.api_key);
  canaries.set('shop API key', shopKey);
  canaries.set('merchant API key', keyMerchant.api_key);
  canaries.set('platform key', sandbox.seed.platformKey);
  canaries.set('client secret', app.client_secret);
});
afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  await sandbox.close();
});

/** The merchant's approval in the sandbox, as the connect button and consent page would get it. */
async function approval(): Promise<{ code: string; codeVerifier: string; iss: string | null }> {
  const codeVerifier = randomBytes(32).toString('base64url');
  const approved = await call(sandbox, 'POST', '/_sandbox/oauth/approve', {
    json: {
      user_id: owner,
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      scope: 'payments business:read',
      state: 'canary-state',
      business_id: oauthMerchant.id,
      code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
    },
  });
  const redirect = new URL(approved.body.redirect as string);
  return { code: redirect.searchParams.get('code')!, codeVerifier, iss: redirect.searchParams.get('iss') };
}

function expectNoCanary(): void {
  expect(canaries.size).toBeGreaterThanOrEqual(9);
  const text = log.join('\n');
  for (const [name, value] of canaries) {
    expect(value.length, name).toBeGreaterThanOrEqual(8);
    expect(text.includes(value), `the ${name} appears in the log:\n${text}`).toBe(false);
  }
}

describe('log redaction in platform mode', () => {
  it('masks every secret the process handled, in hook and store errors, causes and aggregated errors', async () => {
    // 1. A merchant connects by code through the handler; onConnected fails quoting the code, verifier, tokens.
    const { code, codeVerifier, iss } = await approval();
    canaries.set('authorization code', code);
    canaries.set('code verifier', codeVerifier);
    const connected = await post(`${platformUrl}/paykit/oauth/callback`, {
      code,
      code_verifier: codeVerifier,
      redirect_uri: REDIRECT,
      ...(iss === null ? {} : { iss }),
    });
    expect(connected.status).toBe(500);
    expect(await store.get(oauthMerchant.id)).toMatchObject({ kind: 'oauth' });
    expect(canaries.has('access token')).toBe(true);

    // 2. The pricing hook fails with an error whose message, cause chain and aggregated members quote them all.
    hookFailure = () => {
      const cause = new Error(`driver said: ${quoteAll()}`, { cause: `raw reply ${quoteAll()}` });
      throw new AggregateError(
        [new Error(`first try: ${quoteAll()}`), new TypeError(`second try: ${quoteAll()}`, { cause })],
        `pricing hook exploded: ${quoteAll()}`,
        { cause },
      );
    };
    for (const [url, merchant] of [
      [platformUrl, oauthMerchant.id],
      [platformUrl, keyMerchant.id],
      [shopUrl, undefined],
    ] as const) {
      const answer = await post(`${url}/paykit/payment-requests`, merchant ? { merchant } : {});
      expect(answer.status).toBe(500);
      expect(JSON.stringify(answer.body)).not.toContain('exploded');
    }
    hookFailure = undefined;

    // 3. A refresh whose new tokens the connection store fails to write, quoting them in its error.
    await store.expire(oauthMerchant.id);
    store.failNextSet = true;
    const before = store.written.length;
    const refreshed = await post(`${platformUrl}/paykit/payment-requests`, { merchant: oauthMerchant.id });
    expect(refreshed.status).toBeGreaterThanOrEqual(500);
    const fresh = store.written.slice(before).find((written) => written.kind === 'oauth');
    expect(fresh?.kind).toBe('oauth');
    if (fresh?.kind === 'oauth') {
      expect(fresh.accessToken).not.toBe(canaries.get('access token'));
      canaries.set('refreshed access token', fresh.accessToken);
      if (fresh.refreshToken) canaries.set('refreshed refresh token', fresh.refreshToken);
    }

    // Nothing in clear, yet the log still tells each failure apart, with the secrets' places marked.
    expectNoCanary();
    const text = log.join('\n');
    expect(text).toContain('onConnected failed for');
    expect(text).toContain('pricing hook exploded: shop API key was [redacted]');
    expect(text).toContain('first try:');
    expect(text).toContain('second try:');
    expect(text).toContain('raw reply');
    expect(text).toContain('store is down: could not write row');
  });
});
