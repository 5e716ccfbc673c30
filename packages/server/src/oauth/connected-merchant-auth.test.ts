import { PaykitError } from '@paykit/core';
import { startScriptedServer, type ScriptedRequest } from '@paykit/test-support/scripted-server';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPlatform } from '../platform/platform.js';
import { rememberedSecrets } from '../secrets.js';
import { MemoryConnectionStore, type OAuthTokens } from './connection-store.js';

const request = { id: 'pr_1', status: 'pending', url: 'https://checkout.test/pr_1', amount: '1.00', currency: 'sgd' };
const tokens = (access: string) => ({
  token_type: 'Bearer',
  expires_in: 31536000,
  access_token: access,
  refresh_token: `${access}-refresh`,
});

/** Stores biz_1's OAuth connection: `fresh` and `r1` unless `tokens` says otherwise, as a connect left it. */
const storeTokens = (store: MemoryConnectionStore, tokens: Partial<OAuthTokens> & { expiresAt: number }) =>
  store.set('biz_1', { kind: 'oauth', accessToken: 'fresh', refreshToken: 'r1', ...tokens });

/** A fake Payments API on a real port: a token endpoint and one payment request readable with `Bearer fresh`. */
async function startApi(token: (req: ScriptedRequest) => { status?: number; body: unknown; delayMs?: number }) {
  return startScriptedServer((req) => {
    if (req.url === '/v1/open/oauth/token') return token(req);
    return req.headers.authorization === 'Bearer fresh'
      ? { body: request }
      : { status: 401, body: { message: 'Unauthorized' } };
  });
}

describe('a merchant connected by OAuth', () => {
  it('refreshes an expired token once for a thousand concurrent callers', async () => {
    const api = await startApi(() => ({ body: tokens('fresh'), delayMs: 50 }));
    const store = new MemoryConnectionStore();
    await store.set('biz_1', { kind: 'oauth', accessToken: 'stale', refreshToken: 'r1', expiresAt: Date.now() - 1 });
    const platform = createPlatform({
      apiBaseUrl: api.url,
      oauth: { clientId: 'app', clientSecret: 'secret_value' },
      store,
    });
    try {
      const results = await Promise.all(
        Array.from({ length: 1000 }, () => platform.merchant('biz_1').getPaymentRequest('pr_1')),
      );
      expect(results.every((r) => r.id === 'pr_1')).toBe(true);
      const refreshes = api.requests.filter((r) => r.url === '/v1/open/oauth/token');
      expect(refreshes).toHaveLength(1);
      const form = new URLSearchParams(refreshes[0]!.body);
      expect(Object.fromEntries(form)).toEqual({
        grant_type: 'refresh_token',
        refresh_token: 'r1',
        client_id: 'app',
        client_secret: 'secret_value',
      });
      expect(await store.get('biz_1')).toMatchObject({ accessToken: 'fresh', refreshToken: 'fresh-refresh' });
    } finally {
      await api.close();
    }
  });

  it('treats a refused refresh as revocation: credentials dropped, the platform told once', async () => {
    const api = await startApi(() => ({ status: 400, body: { error: 'invalid_grant', error_description: 'revoked' } }));
    const store = new MemoryConnectionStore();
    await store.set('biz_1', { kind: 'oauth', accessToken: 'stale', refreshToken: 'r1', expiresAt: Date.now() - 1 });
    const revoked: string[] = [];
    const platform = createPlatform({
      apiBaseUrl: api.url,
      oauth: { clientId: 'app', clientSecret: 'secret_value' },
      store,
      onRevoked: (id) => void revoked.push(id),
    });
    try {
      const failures = await Promise.allSettled(
        Array.from({ length: 5 }, () => platform.merchant('biz_1').getPaymentRequest('pr_1')),
      );
      for (const failure of failures) {
        expect(failure.status).toBe('rejected');
        const reason = (failure as PromiseRejectedResult).reason as Error & { code: string };
        expect(reason.code).toBe('unauthorized');
        expect(reason.message).not.toContain('secret_value');
      }
      expect(revoked).toEqual(['biz_1']);
      // No secret is kept, only that the connection ended (for "connect again").
      expect(await store.get('biz_1')).toEqual({ kind: 'ended', endedAt: expect.any(Number) });
      expect(await platform.connection('biz_1')).toEqual({ state: 'connect_again' });
      expect(api.requests.filter((r) => r.url === '/v1/open/oauth/token')).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('treats a 401 from the API as revocation', async () => {
    const api = await startApi(() => ({ body: tokens('fresh') }));
    const store = new MemoryConnectionStore();
    await store.set('biz_1', {
      kind: 'oauth',
      accessToken: 'revoked-token',
      refreshToken: 'r1',
      expiresAt: Date.now() + 3_600_000,
    });
    const revoked: string[] = [];
    const platform = createPlatform({
      apiBaseUrl: api.url,
      oauth: { clientId: 'app', clientSecret: 's' },
      store,
      onRevoked: (id) => void revoked.push(id),
    });
    try {
      await expect(platform.merchant('biz_1').getPaymentRequest('pr_1')).rejects.toMatchObject({
        code: 'unauthorized',
      });
      expect(revoked).toEqual(['biz_1']);
      expect(await platform.isConnected('biz_1')).toBe(false);
      await expect(platform.merchant('biz_1').getPaymentRequest('pr_1')).rejects.toThrow(/not connected/);
    } finally {
      await api.close();
    }
  });

  it('waits out a 429 with Retry-After, and gives up on one too long to wait', async () => {
    let calls = 0;
    const api = await startScriptedServer(() => {
      calls += 1;
      return calls === 1
        ? { status: 429, headers: { 'retry-after': '1' }, body: { error: 'rate_limited' } }
        : { body: tokens('fresh') };
    });
    const store = new MemoryConnectionStore();
    await store.set('biz_1', { kind: 'oauth', accessToken: 'stale', refreshToken: 'r1', expiresAt: 0 });
    const { createOAuthClient } = await import('./oauth-client.js');
    try {
      const client = createOAuthClient({ apiBaseUrl: api.url, clientId: 'app', clientSecret: 's' });
      const started = Date.now();
      await expect(client.refresh('r1')).resolves.toMatchObject({ accessToken: 'fresh' });
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(calls).toBe(2);

      calls = 0;
      const impatient = createOAuthClient({
        apiBaseUrl: api.url,
        clientId: 'app',
        clientSecret: 's',
        maxRetryAfterMs: 500,
      });
      await expect(impatient.refresh('r1')).rejects.toMatchObject({ code: 'rate_limited', retryAfterSeconds: 1 });
    } finally {
      await api.close();
    }
  });
});

describe('one refresh per merchant among instances that share a store (refresh leases)', () => {
  const expired = { kind: 'oauth', accessToken: 'stale', refreshToken: 'r1', expiresAt: Date.now() - 1 } as const;
  const instance = (url: string, store: MemoryConnectionStore, timeoutMs = 1_000) =>
    createPlatform({ apiBaseUrl: url, oauth: { clientId: 'app', clientSecret: 'secret_value', timeoutMs }, store });

  it('two platforms on one store make one token request between them', async () => {
    const api = await startApi(() => ({ body: tokens('fresh'), delayMs: 50 }));
    const store = new MemoryConnectionStore();
    await store.set('biz_1', expired);
    const [one, two] = [instance(api.url, store), instance(api.url, store)];
    try {
      const results = await Promise.all(
        [one, two].flatMap((platform) =>
          Array.from({ length: 100 }, () => platform.merchant('biz_1').getPaymentRequest('pr_1')),
        ),
      );
      expect(results).toHaveLength(200);
      expect(api.requests.filter((r) => r.url === '/v1/open/oauth/token')).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('waits for the lease holder and uses the tokens it stores, without a token request of its own', async () => {
    const api = await startApi(() => ({ body: tokens('never-used') }));
    const store = new MemoryConnectionStore();
    await store.set('biz_1', expired);
    const lease = await store.takeRefreshLease('biz_1', 10_000);
    expect(lease).toBeDefined();
    try {
      const call = instance(api.url, store).merchant('biz_1').getPaymentRequest('pr_1');
      await new Promise((resolve) => setTimeout(resolve, 150));
      await store.finishRefresh('biz_1', lease!, {
        kind: 'oauth',
        accessToken: 'fresh',
        refreshToken: 'r2',
        expiresAt: Date.now() + 3_600_000,
      });
      expect((await call).id).toBe('pr_1');
      expect(api.requests.filter((r) => r.url === '/v1/open/oauth/token')).toHaveLength(0);
    } finally {
      await api.close();
    }
  });

  it('takes over a lease whose holder died once it lapses, and refreshes', async () => {
    const api = await startApi(() => ({ body: tokens('fresh') }));
    const store = new MemoryConnectionStore();
    await store.set('biz_1', expired);
    // A holder that never comes back: its lease lapses after 300 ms.
    expect(await store.takeRefreshLease('biz_1', 300)).toBeDefined();
    try {
      const started = Date.now();
      expect((await instance(api.url, store).merchant('biz_1').getPaymentRequest('pr_1')).id).toBe('pr_1');
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(api.requests.filter((r) => r.url === '/v1/open/oauth/token')).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('keeps refreshed tokens that the store could not take: used at once, stored when the store is back, never refreshed twice', async () => {
    const api = await startApi(() => ({ body: tokens('fresh') }));
    // A store away for its first two attempts to take the tokens (store_unavailable: down, or past its deadline).
    let refusals = 2;
    const store = new (class extends MemoryConnectionStore {
      override async finishRefresh(...args: Parameters<MemoryConnectionStore['finishRefresh']>): Promise<void> {
        if (refusals > 0) {
          refusals -= 1;
          throw new PaykitError('store_unavailable', 'The store is away');
        }
        return super.finishRefresh(...args);
      }
    })();
    await store.set('biz_1', expired);
    const platform = instance(api.url, store);
    try {
      // The authorization server spent r1 on this refresh: losing its answer would disconnect the merchant.
      expect((await platform.merchant('biz_1').getPaymentRequest('pr_1')).id).toBe('pr_1');
      expect((await platform.merchant('biz_1').getPaymentRequest('pr_1')).id).toBe('pr_1');
      await expect
        .poll(() => store.get('biz_1'), { timeout: 5_000 })
        .toMatchObject({ accessToken: 'fresh', refreshToken: 'fresh-refresh' });
      expect(refusals).toBe(0);
      // The lease ended with the write: the next refresh is not held up by it.
      expect(await store.takeRefreshLease('biz_1', 1_000)).toBeDefined();
      expect(api.requests.filter((r) => r.url === '/v1/open/oauth/token')).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('gives up with a timeout when the holder keeps the lease past twice its length', async () => {
    const api = await startApi(() => ({ body: tokens('fresh') }));
    const store = new MemoryConnectionStore();
    await store.set('biz_1', expired);
    const lease = (await store.takeRefreshLease('biz_1', 60_000))!;
    try {
      // timeoutMs 100: the lease is 5.1 s, so the wait gives up after about 10 s (a last pause of up to 0.5 s is not slept).
      const started = Date.now();
      const failure = instance(api.url, store, 100).merchant('biz_1').getPaymentRequest('pr_1');
      await expect(failure).rejects.toMatchObject({ code: 'timeout' });
      // Once, not once per attempt of the read's retries (3 by default): the wait was already long enough.
      expect(Date.now() - started).toBeGreaterThanOrEqual(9_500);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(api.requests).toHaveLength(0);
    } finally {
      await store.releaseRefreshLease('biz_1', lease);
      await api.close();
    }
  }, 20_000);
});

describe('when to refresh, and connections that cannot be refreshed', () => {
  const MINUTE = 60_000;
  const platformOn = (url: string, store: MemoryConnectionStore, revoked: string[] = []) =>
    createPlatform({
      apiBaseUrl: url,
      oauth: { clientId: 'app', clientSecret: 'secret_value' },
      store,
      onRevoked: (id) => void revoked.push(id),
    });
  const tokenRequests = (api: { requests: ScriptedRequest[] }) =>
    api.requests.filter((r) => r.url === '/v1/open/oauth/token').length;

  it('uses a 5-minute token for most of its life: refreshed 30 s before expiry, not before every call', async () => {
    const api = await startApi(() => ({ body: tokens('fresh') }));
    const store = new MemoryConnectionStore();
    const now = Date.now();
    await storeTokens(store, { issuedAt: now, expiresAt: now + 5 * MINUTE });
    const platform = platformOn(api.url, store);
    try {
      for (let i = 0; i < 3; i += 1) await platform.merchant('biz_1').getPaymentRequest('pr_1');
      expect(tokenRequests(api)).toBe(0);
      // 40 s left: still more than the lead (10 % of 5 minutes).
      await storeTokens(store, { issuedAt: now - 260_000, expiresAt: now + 40_000 });
      await platform.merchant('biz_1').getPaymentRequest('pr_1');
      expect(tokenRequests(api)).toBe(0);
      // 20 s left: inside it.
      await storeTokens(store, { issuedAt: now - 280_000, expiresAt: now + 20_000 });
      await platform.merchant('biz_1').getPaymentRequest('pr_1');
      expect(tokenRequests(api)).toBe(1);
      expect(await store.get('biz_1')).toMatchObject({ refreshToken: 'fresh-refresh', issuedAt: expect.any(Number) });
    } finally {
      await api.close();
    }
  });

  it('refreshes a 1-hour token 5 minutes before expiry (the lead is capped), and stored tokens without issuedAt likewise', async () => {
    const api = await startApi(() => ({ body: tokens('fresh') }));
    const store = new MemoryConnectionStore();
    const platform = platformOn(api.url, store);
    const hourToken = (left: number) => ({
      kind: 'oauth' as const,
      accessToken: 'fresh',
      refreshToken: 'r1',
      issuedAt: Date.now() - (60 * MINUTE - left),
      expiresAt: Date.now() + left,
    });
    try {
      // 10 % of an hour would be 6 minutes; the lead stays 5.
      await store.set('biz_1', hourToken(5.5 * MINUTE));
      await platform.merchant('biz_1').getPaymentRequest('pr_1');
      expect(tokenRequests(api)).toBe(0);
      await store.set('biz_1', hourToken(4.5 * MINUTE));
      await platform.merchant('biz_1').getPaymentRequest('pr_1');
      expect(tokenRequests(api)).toBe(1);
      // Written by an earlier version: no issuedAt, the former fixed 5-minute lead.
      await storeTokens(store, { expiresAt: Date.now() + 5.5 * MINUTE });
      await platform.merchant('biz_1').getPaymentRequest('pr_1');
      expect(tokenRequests(api)).toBe(1);
      await storeTokens(store, { expiresAt: Date.now() + 4.5 * MINUTE });
      await platform.merchant('biz_1').getPaymentRequest('pr_1');
      expect(tokenRequests(api)).toBe(2);
    } finally {
      await api.close();
    }
  });

  it('keeps the refresh token and the scope when a refresh response has neither', async () => {
    const api = await startApi(() => ({ body: { token_type: 'Bearer', expires_in: 3600, access_token: 'fresh' } }));
    const store = new MemoryConnectionStore();
    await store.set('biz_1', {
      kind: 'oauth',
      accessToken: 'stale',
      refreshToken: 'r1',
      expiresAt: 0,
      scope: 'payments',
    });
    try {
      await platformOn(api.url, store).merchant('biz_1').getPaymentRequest('pr_1');
      expect(await store.get('biz_1')).toMatchObject({ accessToken: 'fresh', refreshToken: 'r1', scope: 'payments' });
    } finally {
      await api.close();
    }
  });

  it('a merchant without a refresh token is connected until its token expires, then revoked once, never refreshed', async () => {
    const api = await startApi(() => ({ body: tokens('never-used') }));
    const store = new MemoryConnectionStore();
    const revoked: string[] = [];
    const platform = platformOn(api.url, store, revoked);
    await store.set('biz_1', {
      kind: 'oauth',
      accessToken: 'fresh',
      issuedAt: Date.now(),
      expiresAt: Date.now() + 400,
    });
    try {
      // Inside what would be the refresh lead: used as it is, since there is nothing to refresh with.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect((await platform.merchant('biz_1').getPaymentRequest('pr_1')).id).toBe('pr_1');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const failures = await Promise.allSettled(
        Array.from({ length: 5 }, () => platform.merchant('biz_1').getPaymentRequest('pr_1')),
      );
      for (const failure of failures) {
        expect(failure).toMatchObject({ status: 'rejected', reason: { code: 'unauthorized' } });
        expect((failure as PromiseRejectedResult).reason.message).toMatch(/gave no refresh token; connect it again/);
      }
      expect(revoked).toEqual(['biz_1']);
      // No secret is kept, only that the connection ended (for "connect again").
      expect(await store.get('biz_1')).toEqual({ kind: 'ended', endedAt: expect.any(Number) });
      expect(await platform.connection('biz_1')).toEqual({ state: 'connect_again' });
      expect(tokenRequests(api)).toBe(0);
      expect(api.requests).toHaveLength(1);
    } finally {
      await api.close();
    }
  });

  it('remembers the secrets it reads back from the store before they go into a request', async () => {
    const api = await startApi(() => ({ body: tokens('fresh') }));
    const store = new MemoryConnectionStore();
    // As after a restart: written by another process, never seen by this one.
    const access = `access-${randomUUID()}`;
    const refresh = `refresh-${randomUUID()}`;
    const apiKey = `sk-${randomUUID()}`;
    await store.set('biz_1', {
      kind: 'oauth',
      accessToken: access,
      refreshToken: refresh,
      expiresAt: Date.now() + 3_600_000,
    });
    await store.set('biz_2', { kind: 'api_key', apiKey });
    expect(rememberedSecrets()).not.toEqual(expect.arrayContaining([access]));
    const platform = platformOn(api.url, store);
    try {
      await platform
        .merchant('biz_1')
        .getPaymentRequest('pr_1')
        .catch(() => undefined);
      await platform
        .merchant('biz_2')
        .getPaymentRequest('pr_1')
        .catch(() => undefined);
      expect(rememberedSecrets()).toEqual(expect.arrayContaining([access, refresh, apiKey]));
    } finally {
      await api.close();
    }
  });
});
