import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { startCountingProxy, type CountingProxy } from '@paykit/test-support/counting-proxy';
import { testDatabaseUrl, testTablePrefix } from '@paykit/test-support/postgres';
import { call } from '@paykit/test-support/sandbox-calls';
import { createBusiness, createUser, registerApp } from '@paykit/test-support/sandbox-control';
import { approveOnSandbox } from '@paykit/test-support/sandbox-oauth';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaykitHandler } from '../handler/create-handler.js';
import { MemoryCodeLedger } from '../oauth/code-ledger.js';
import { createPostgresStores } from '../postgres/create-postgres-stores.js';
import { createPlatform, type Platform, type PlatformOptions } from './platform.js';

const REDIRECT = 'https://platform.example/connect/callback';

let sandbox: RunningSandbox;
let app: { client_id: string; client_secret: string };
let merchant: { id: string; api_key: string };
let merchantOwner: string;
/** In front of the sandbox: what reaches the authorization server is counted where it arrives. */
let proxy: CountingProxy;
const tokenRequests = () => proxy.count('POST', '/v1/open/oauth/token');

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  proxy = await startCountingProxy(sandbox.url);
  app = await registerApp(sandbox, {
    name: 'Acme Platform',
    redirectUris: [REDIRECT],
    scopes: ['business:read', 'payments'],
  });
  merchant = await createBusiness(sandbox, { name: 'Harbour Cafe' });
  merchantOwner = (await createUser(sandbox, { email: 'owner@harbour.test', name: 'Hana', businessId: merchant.id }))
    .id;
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
});

/** What the browser part does: PKCE, the merchant's approval, and the code that comes back. */
async function approval(scope = 'payments business:read'): Promise<{ code: string; codeVerifier: string }> {
  const codeVerifier = randomBytes(32).toString('base64url');
  const { code } = await approveOnSandbox(sandbox, {
    userId: merchantOwner,
    clientId: app.client_id,
    redirectUri: REDIRECT,
    scope,
    state: 's',
    businessId: merchant.id,
    codeVerifier,
  });
  return { code, codeVerifier };
}

function newPlatform(revoked: string[] = [], options: Partial<PlatformOptions> = {}): Platform {
  return createPlatform({
    apiBaseUrl: proxy.url,
    platformKey: sandbox.seed.platformKey,
    oauth: { clientId: app.client_id, clientSecret: app.client_secret, redirectUris: [REDIRECT] },
    onRevoked: (id) => void revoked.push(id),
    ...options,
  });
}

/** The sandbox's live grants of the merchant for the app: a replay that reached it would revoke them. */
const liveGrants = () =>
  [...sandbox.context.oauth.grants.values()].filter(
    (grant) => grant.businessId === merchant.id && grant.clientId === app.client_id && !grant.revoked,
  ).length;

describe('a platform against the sandbox', () => {
  it('connects a merchant by OAuth, takes a payment with its commission, and refuses a replayed code before it leaves', async () => {
    const platform = newPlatform();
    const { code, codeVerifier } = await approval();
    const connected = await platform.connectWithCode({ code, codeVerifier, redirectUri: REDIRECT });
    expect(connected).toMatchObject({
      businessId: merchant.id,
      business: { name: 'Harbour Cafe', payments_enabled: true },
    });
    const request = await platform
      .merchant(merchant.id)
      .createPaymentRequest({ amount: 40, currency: 'SGD', platform_commission_amount: 2 });
    expect(request.platform_commission_amount).toBe(2);
    expect(sandbox.context.state.paymentRequests.get(request.id)).toMatchObject({
      businessId: merchant.id,
      platformBusinessId: sandbox.seed.businessId,
    });

    // The replay, with the real verifier and with a made-up one: refused here, so the authorization server
    // never sees the code twice and never revokes what it issued (RFC 6749 section 4.1.2).
    const sent = tokenRequests();
    const grants = liveGrants();
    for (const verifier of [codeVerifier, 'x'.repeat(43)]) {
      await expect(
        platform.connectWithCode({ code, codeVerifier: verifier, redirectUri: REDIRECT }),
      ).rejects.toMatchObject({
        code: 'code_reused',
        message: 'This connection link was already used. Please connect again.',
      });
    }
    expect(tokenRequests()).toBe(sent);
    expect(liveGrants()).toBe(grants);
    expect(await platform.isConnected(merchant.id)).toBe(true);
    expect((await platform.merchant(merchant.id).getBusinessInfo()).id).toBe(merchant.id);
  });

  it('spends a code on its one try: a code the token endpoint refused is not sent again', async () => {
    const platform = newPlatform();
    const { code } = await approval();
    const sent = tokenRequests();
    // A made-up verifier: the sandbox refuses the exchange (invalid_grant).
    await expect(
      platform.connectWithCode({ code, codeVerifier: 'y'.repeat(43), redirectUri: REDIRECT }),
    ).rejects.toMatchObject({ code: 'unauthorized' });
    expect(tokenRequests()).toBe(sent + 1);
    await expect(
      platform.connectWithCode({ code, codeVerifier: 'z'.repeat(43), redirectUri: REDIRECT }),
    ).rejects.toMatchObject({ code: 'code_reused' });
    expect(tokenRequests()).toBe(sent + 1);
  });

  it('does not spend a code on a callback it refuses before sending (no verifier, another issuer, another redirect URI)', async () => {
    const platform = newPlatform();
    const { code, codeVerifier } = await approval();
    const sent = tokenRequests();
    await expect(platform.connectWithCode({ code, redirectUri: REDIRECT })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    await expect(
      platform.connectWithCode({ code, codeVerifier, redirectUri: REDIRECT, iss: 'https://evil.example' }),
    ).rejects.toMatchObject({ code: 'issuer_mismatch' });
    await expect(
      platform.connectWithCode({ code, codeVerifier, redirectUri: 'https://evil.example/cb' }),
    ).rejects.toMatchObject({ code: 'validation_failed' });
    expect(tokenRequests()).toBe(sent);
    // The code was never sent, so it still connects.
    const connected = await platform.connectWithCode({ code, codeVerifier, redirectUri: REDIRECT, iss: proxy.url });
    expect(connected.businessId).toBe(merchant.id);
  });

  it('sends a code once when two callbacks race with it', async () => {
    const platform = newPlatform();
    const { code, codeVerifier } = await approval();
    const sent = tokenRequests();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => platform.connectWithCode({ code, codeVerifier, redirectUri: REDIRECT })),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ code: 'code_reused' });
    }
    expect(tokenRequests()).toBe(sent + 1);
  });

  it('shares the ledger through PostgreSQL: a code tried on one instance is refused on another', async () => {
    const [prefix, encryptionKey] = [testTablePrefix(), randomBytes(32)];
    const open = () =>
      createPostgresStores({ connectionString: testDatabaseUrl(), encryptionKey, tablePrefix: prefix });
    const [one, two] = [await open(), await open()];
    try {
      const shared = (stores: typeof one) =>
        newPlatform([], { store: stores.connections, tokenBudget: stores.tokenBudget, codeLedger: stores.codes });
      const [first, second] = [shared(one), shared(two)];
      expect(first.processLocalState).toEqual([]);
      const { code, codeVerifier } = await approval();
      await first.connectWithCode({ code, codeVerifier, redirectUri: REDIRECT });
      const sent = tokenRequests();
      const grants = liveGrants();
      await expect(second.connectWithCode({ code, codeVerifier, redirectUri: REDIRECT })).rejects.toMatchObject({
        code: 'code_reused',
      });
      expect(tokenRequests()).toBe(sent);
      expect(liveGrants()).toBe(grants);
      expect((await second.merchant(merchant.id).getBusinessInfo()).id).toBe(merchant.id);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });

  it('says that a ledger in memory is this process’s own', () => {
    const ledger = 'authorization codes already tried (a replay to another instance reaches the authorization server)';
    expect(newPlatform().processLocalState).toContain(ledger);
    expect(newPlatform([], { codeLedger: new MemoryCodeLedger() }).processLocalState).toContain(ledger);
    expect(newPlatform([], { codeLedger: { claimCode: async () => true } }).processLocalState).not.toContain(ledger);
    // Without OAuth there are no codes.
    expect(createPlatform({ apiBaseUrl: sandbox.url }).processLocalState).not.toContain(ledger);
  });

  it('refuses a redirect URI that is not the app’s before any exchange', async () => {
    const { code, codeVerifier } = await approval();
    await expect(
      newPlatform().connectWithCode({ code, codeVerifier, redirectUri: 'https://evil.example/cb' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });

  it('connects a merchant by API key through the same interface', async () => {
    const platform = newPlatform();
    const connected = await platform.connectWithApiKey(merchant.api_key);
    expect(connected.businessId).toBe(merchant.id);
    const listed = await platform.merchant(merchant.id).listPaymentRequests();
    expect(Array.isArray(listed.data)).toBe(true);
    await expect(newPlatform().connectWithApiKey('wrong')).rejects.toMatchObject({ code: 'unauthorized' });
  });

  it('treats the merchant revoking the app as revocation: onRevoked once, credentials gone', async () => {
    const revoked: string[] = [];
    const platform = newPlatform(revoked);
    const { code, codeVerifier } = await approval();
    await platform.connectWithCode({ code, codeVerifier, redirectUri: REDIRECT });
    await call(sandbox, 'POST', '/_sandbox/connections/revoke', {
      json: { business_id: merchant.id, client_id: app.client_id },
    });
    await expect(platform.merchant(merchant.id).getBusinessInfo()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(revoked).toEqual([merchant.id]);
    expect(await platform.isConnected(merchant.id)).toBe(false);
  });

  it('refuses at start a registered redirect URI on an origin the handler does not serve, naming it', () => {
    const options = {
      createPaymentRequest: () => ({ amount: '1.00', currency: 'SGD' }),
      returnUrl: 'https://platform.example/return',
      logger: { warn: () => undefined, error: () => undefined },
    };
    expect(() =>
      createPaykitHandler({ ...options, platform: newPlatform(), publicOrigin: 'https://www.platform.example' }),
    ).toThrow(
      expect.objectContaining({
        code: 'validation_failed',
        errors: [expect.objectContaining({ path: 'returnUrl' })],
      }),
    );
    expect(() =>
      createPaykitHandler({
        ...options,
        platform: newPlatform(),
        publicOrigin: 'https://www.platform.example',
        allowedOrigins: ['https://platform.example'],
        returnUrl: 'https://www.platform.example/return',
      }),
    ).not.toThrow();
    let refused: unknown;
    try {
      createPaykitHandler({
        ...options,
        platform: newPlatform(),
        publicOrigin: 'https://www.platform.example',
        returnUrl: 'https://www.platform.example/return',
      });
    } catch (error) {
      refused = error;
    }
    expect(refused).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining(`"oauth.redirectUris" (${REDIRECT}) is on https://platform.example`),
      errors: [{ path: 'oauth.redirectUris' }],
    });
  });

  it('runs the handler for connected merchants: callback, checkout with commission, status', async () => {
    const platform = newPlatform();
    const handler = createPaykitHandler({
      platform,
      createPaymentRequest: (choice) => ({
        amount: '25.00',
        currency: 'SGD',
        platform_commission_amount: '1.25',
        purpose: choice.reference ?? 'x',
      }),
      returnUrl: 'https://platform.example/return',
      publicOrigin: 'https://platform.example',
      logger: { warn: () => undefined, error: () => undefined },
    });
    const post = (path: string, body: unknown, origin = 'https://platform.example') =>
      handler(
        new Request(`https://platform.example/paykit${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin },
          body: JSON.stringify(body),
        }),
      );

    const { code, codeVerifier } = await approval();
    const callback = await post('/oauth/callback', { code, code_verifier: codeVerifier, redirect_uri: REDIRECT });
    expect(callback.status).toBe(200);
    expect(await callback.json()).toEqual({
      business: { id: merchant.id, name: 'Harbour Cafe', country: 'sg', currency: 'sgd', payments_enabled: true },
    });
    const crossSite = await post(
      '/oauth/callback',
      { code, code_verifier: codeVerifier, redirect_uri: REDIRECT },
      'https://evil.example',
    );
    expect(crossSite.status).toBe(403);
    const started = await post('/payment-requests', { merchant: merchant.id, reference: 'Coffee beans' });
    expect(started.status).toBe(201);
    const startedBody = (await started.json()) as { id: string; merchant?: string };
    // The API's payment request names no business: the handler says which merchant it created it for.
    expect(startedBody.merchant).toBe(merchant.id);
    const { id } = startedBody;
    const stored = sandbox.context.state.paymentRequests.get(id)!;
    expect(stored).toMatchObject({
      businessId: merchant.id,
      platformCommissionMinor: 125,
      redirectUrl: `https://platform.example/return?merchant=${merchant.id}`,
    });

    const status = await handler(
      new Request(`https://platform.example/paykit/payment-requests/${id}?merchant=${merchant.id}`),
    );
    expect(await status.json()).toMatchObject({ id, status: 'pending', amount: '25.00', merchant: merchant.id });
    // Another merchant of the same platform asking for this payment is told it does not exist.
    const other = await createBusiness(sandbox, { name: 'Pier Bakery' });
    await platform.connectWithApiKey(other.api_key);
    const foreign = await handler(
      new Request(`https://platform.example/paykit/payment-requests/${id}?merchant=${other.id}`),
    );
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toMatchObject({ code: 'not_found' });
    const stranger = await post('/payment-requests', {
      merchant: '00000000-0000-4000-8000-00000000beef',
      reference: 'x',
    });
    expect(stranger.status).toBe(404);
    const nobody = await post('/payment-requests', { reference: 'x' });
    expect(nobody.status).toBe(422);

    // A replayed callback is refused before it reaches the authorization server, which therefore revokes
    // nothing: the merchant stays connected and is still called.
    const sent = tokenRequests();
    const replayed = await post('/oauth/callback', { code, code_verifier: codeVerifier, redirect_uri: REDIRECT });
    expect(replayed.status).toBe(400);
    expect(await replayed.json()).toEqual({
      code: 'code_reused',
      message: 'This connection link was already used. Please connect again.',
    });
    expect(tokenRequests()).toBe(sent);
    expect((await platform.merchant(merchant.id).getBusinessInfo()).id).toBe(merchant.id);
  });
});

describe('the callback route answers in the shop’s words', () => {
  const logged: string[] = [];
  const logger = {
    warn: (...parts: unknown[]) => void logged.push(parts.map((part) => String(part)).join(' ')),
    error: (...parts: unknown[]) => void logged.push(parts.map((part) => String(part)).join(' ')),
  };
  const origin = 'https://platform.example';
  const handlerOf = (platform: Platform) =>
    createPaykitHandler({
      platform,
      createPaymentRequest: () => ({ amount: '1.00', currency: 'SGD' }),
      returnUrl: `${origin}/return`,
      publicOrigin: origin,
      logger,
    });
  const callback = (platform: Platform, body: unknown, headers: Record<string, string> = { origin }) =>
    handlerOf(platform)(
      new Request(`${origin}/paykit/oauth/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }),
    );

  it('refuses a replayed code with 400 code_reused, with or without Origin, and sends nothing', async () => {
    const platform = newPlatform();
    const { code, codeVerifier } = await approval();
    const first = await callback(platform, { code, code_verifier: codeVerifier, redirect_uri: REDIRECT });
    expect(first.status).toBe(200);
    const sent = tokenRequests();
    const grants = liveGrants();

    const replay = { code, code_verifier: 'x'.repeat(43), redirect_uri: REDIRECT };
    const withOrigin = await callback(platform, replay);
    expect(withOrigin.status).toBe(400);
    expect(await withOrigin.json()).toEqual({
      code: 'code_reused',
      message: 'This connection link was already used. Please connect again.',
    });
    // Without Origin (a replay tool, not a browser's fetch) the handler refuses it even before the ledger.
    const withoutOrigin = await callback(platform, replay, {});
    expect(withoutOrigin.status).toBe(403);
    expect(await withoutOrigin.json()).toMatchObject({ code: 'cross_site_request' });

    expect(tokenRequests()).toBe(sent);
    expect(liveGrants()).toBe(grants);
    expect(await platform.isConnected(merchant.id)).toBe(true);
    expect((await platform.merchant(merchant.id).getBusinessInfo()).id).toBe(merchant.id);
  });

  it('answers a refused exchange with 502 upstream_error and none of the authorization server’s words; they go to the log', async () => {
    const { code } = await approval();
    logged.length = 0;
    const refused = await callback(newPlatform(), { code, code_verifier: 'y'.repeat(43), redirect_uri: REDIRECT });
    expect(refused.status).toBe(502);
    const text = await refused.text();
    expect(JSON.parse(text)).toEqual({
      code: 'upstream_error',
      message: 'The payment service did not accept the connection. Please connect again.',
    });
    for (const word of ['invalid_grant', 'code_verifier', 'client']) expect(text).not.toContain(word);
    expect(logged.join('\n')).toContain('invalid_grant');

    // Wrong client credentials (invalid_client, a 401 of the token endpoint): the same 502, not a 401.
    const { code: other, codeVerifier } = await approval();
    const wrongSecret = newPlatform([], {
      oauth: { clientId: app.client_id, clientSecret: 'not-the-secret', redirectUris: [REDIRECT] },
    });
    const unauthenticated = await callback(wrongSecret, {
      code: other,
      code_verifier: codeVerifier,
      redirect_uri: REDIRECT,
    });
    expect(unauthenticated.status).toBe(502);
    const body = await unauthenticated.text();
    expect(JSON.parse(body)).toMatchObject({ code: 'upstream_error' });
    for (const word of ['invalid_grant', 'invalid_client', 'code_verifier', 'client']) expect(body).not.toContain(word);
  });

  it('takes iss: the configured issuer connects, another is 400 issuer_mismatch before any request, a malformed one 422', async () => {
    const platform = newPlatform();
    const { code, codeVerifier } = await approval();
    const sent = tokenRequests();
    const mixedUp = await callback(platform, {
      code,
      code_verifier: codeVerifier,
      redirect_uri: REDIRECT,
      iss: 'https://attacker.example',
    });
    expect(mixedUp.status).toBe(400);
    const mixedUpText = await mixedUp.text();
    expect(JSON.parse(mixedUpText)).toMatchObject({ code: 'issuer_mismatch' });
    expect(mixedUpText).not.toContain('attacker.example');
    for (const iss of ['javascript:alert(1)', 'http://remote.example', `https://x.example/${'a'.repeat(2048)}`, 7]) {
      const malformed = await callback(platform, { code, code_verifier: codeVerifier, redirect_uri: REDIRECT, iss });
      expect(malformed.status).toBe(422);
      expect(await malformed.json()).toMatchObject({
        code: 'validation_failed',
        errors: [expect.objectContaining({ path: 'iss' })],
      });
    }
    expect(tokenRequests()).toBe(sent);
    const connected = await callback(platform, {
      code,
      code_verifier: codeVerifier,
      redirect_uri: REDIRECT,
      iss: proxy.url,
    });
    expect(connected.status).toBe(200);
  });

  it('answers a full ledger with 429 rate_limited and Retry-After, sending nothing', async () => {
    const platform = newPlatform([], { codeLedger: new MemoryCodeLedger({ maxEntries: 1 }) });
    const first = await approval();
    expect(
      (await callback(platform, { code: first.code, code_verifier: first.codeVerifier, redirect_uri: REDIRECT }))
        .status,
    ).toBe(200);
    const { code, codeVerifier } = await approval();
    const sent = tokenRequests();
    const full = await callback(platform, { code, code_verifier: codeVerifier, redirect_uri: REDIRECT });
    expect(full.status).toBe(429);
    expect(Number(full.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await full.json()).toEqual({
      code: 'rate_limited',
      message: 'Too many connection attempts right now. Please try again later.',
    });
    expect(tokenRequests()).toBe(sent);
  });

  it('keeps body shape errors as 422 validation_failed with field errors', async () => {
    const answer = await callback(newPlatform(), { code_verifier: 'v'.repeat(43), redirect_uri: REDIRECT, extra: 1 });
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { code: string; errors: { path: string }[] };
    expect(body.code).toBe('validation_failed');
    expect(body.errors.map((error) => error.path).sort()).toEqual(['(body)', 'code'].sort());
  });
});
