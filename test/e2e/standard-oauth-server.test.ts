/**
 * "Connect with Payments" against a standard, certified authorization server instead of our own sandbox
 * (issue 12 item 4, "Prove it"): `oidc-provider` (OpenID Certified) runs in the test, a small resource server
 * takes its JWT access tokens, and a platform's pages load the BUILT elements bundle in every engine (Chromium,
 * Firefox ESR, WebKitGTK; `PAYKIT_BROWSERS` picks) with the paykit handler behind them. Everything is configured
 * from the provider's issuer the way any platform would: the connect button discovers the authorization endpoint
 * in the browser, the server reads the OpenID discovery document and authenticates with `client_secret_basic`.
 *
 * In each engine: connect, then a replayed code; a mix-up attempt in a fresh browser. After the first engine's
 * connect, the server's own steps run once (they use no browser): a refresh, revocation. Token requests are
 * counted where the provider receives them; what the browsers sent is seen where the platform's pages receive it.
 */
import { ENGINE_NAMES, selectedEngines } from '@paykit/test-support/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPaykitHandler,
  createPlatform,
  MemoryConnectionStore,
  PaykitError,
  type ConnectedBusiness,
  type MerchantCredentials,
  type Platform,
} from '@paykit/server';
import { browserForBlock } from '../support/engine-block.js';
import type { Tab } from '../support/engine-browser.js';
import { harbourShopOf, startJwtResourceServer, type JwtResourceServer } from '../support/jwt-resource-server.js';
import { approveAtProvider, startOidcProvider, type OidcProvider } from '../support/oidc-provider.js';
import { pageWith, startPlatformPages, type PlatformPages } from '../support/platform-pages.js';

/**
 * Short, so that the test sees tokens expire twice; long enough that a call right after connecting, on a busy
 * machine, is still well before the refresh lead (a tenth of the lifetime by default, at most half).
 */
const ACCESS_TOKEN_TTL_SECONDS = 5;
const SCOPE = 'business:read payments';
/** The merchant's account at the authorization server (any name signs in on its development pages). */
const MERCHANT_LOGIN = 'hana';

let pages: PlatformPages;
let api: JwtResourceServer;
let provider: OidcProvider;
/** Another standard server, whose `iss` the mix-up attempt shows the platform. */
let otherServer: OidcProvider;
let platform: Platform;
const store = new MemoryConnectionStore();
const connectedHook: ConnectedBusiness[] = [];
const revoked: string[] = [];

/** The callback's POST to the platform's backend, as the browser sent it and as the backend answered. */
interface CallbackExchange {
  body: Record<string, string>;
  status: number;
  answer: { code?: string; business?: { name: string } };
}
/** Every `POST /paykit/oauth/callback` the pages sent, once answered, in order. */
const callbacks: CallbackExchange[] = [];

const returnUrl = () => `${pages.url}/return`;

beforeAll(async () => {
  pages = await startPlatformPages();
  api = await startJwtResourceServer(harbourShopOf);
  const providerOptions = {
    redirectUris: [returnUrl()],
    resource: api.resource,
    resourceScopes: SCOPE.split(' '),
    accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
  };
  provider = await startOidcProvider(providerOptions);
  otherServer = await startOidcProvider(providerOptions);
  api.trustIssuer(provider.issuer);

  platform = createPlatform({
    apiBaseUrl: api.url,
    oauth: {
      issuer: provider.issuer,
      discovery: 'oidc',
      clientId: provider.clientId,
      clientSecret: provider.clientSecret,
      clientAuthentication: 'client_secret_basic',
      redirectUris: [returnUrl()],
    },
    store,
    onRevoked: (businessId) => {
      revoked.push(businessId);
    },
  });
  const handler = createPaykitHandler({
    prefix: '/paykit',
    platform,
    publicOrigin: pages.url,
    onConnected: (connected) => {
      connectedHook.push(connected);
    },
    createPaymentRequest: () => {
      throw new PaykitError('validation_failed', 'This platform takes no payments in this test');
    },
  });
  // The callback's exchange, kept as the browser sent it and as the backend answered (in every engine).
  pages.mount('/paykit', async (request) => {
    if (request.method !== 'POST' || new URL(request.url).pathname !== '/paykit/oauth/callback')
      return handler(request);
    const body = (await request
      .clone()
      .json()
      .catch(() => ({}))) as Record<string, string>;
    const response = await handler(request);
    const answer = (await response
      .clone()
      .json()
      .catch(() => ({}))) as CallbackExchange['answer'];
    callbacks.push({ body, status: response.status, answer });
    return response;
  });
  pages.page(
    '/connect',
    pageWith(
      'Connect your shop',
      `<paykit-connect-button issuer="${provider.issuer}" client-id="${provider.clientId}"
        redirect-uri="${returnUrl()}" scope="${SCOPE}" resource="${api.resource}"
        login-hint="${MERCHANT_LOGIN}"></paykit-connect-button>`,
    ),
  );
  pages.page('/return', pageWith('Connecting', '<paykit-return endpoint="/paykit"></paykit-return>'));
});

afterAll(async () => {
  await Promise.all([pages?.close(), api?.close(), provider?.stop(), otherServer?.stop()]);
});

/** Resolves with the next callback exchange after the `seen` first ones, once answered. */
async function nextCallback(seen: number): Promise<CallbackExchange> {
  await expect.poll(() => callbacks.length, { timeout: 15_000 }).toBeGreaterThan(seen);
  return callbacks[seen]!;
}

/** The navigations to the return page the platform's pages received, after the `seen` first requests. */
const returnsAfter = (seen: number) =>
  pages.requests
    .slice(seen)
    .filter((request) => request.method === 'GET' && request.url.startsWith('/return?'))
    .map((request) => `${pages.url}${request.url}`);

const status = (tab: Tab) => tab.text('paykit-return', '[role=status]');

/** The credentials the platform keeps for the merchant; fails the step when there are none. */
async function kept(businessId: string): Promise<Extract<MerchantCredentials, { kind: 'oauth' }>> {
  const credentials = await store.get(businessId);
  if (credentials?.kind !== 'oauth') throw new Error(`No OAuth credentials are kept for ${businessId}`);
  return credentials;
}

/** Waits until the kept access token has expired (the resource server would refuse it now). */
async function untilExpired(businessId: string): Promise<void> {
  const { expiresAt } = await kept(businessId);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 250));
}

const engines = selectedEngines();

describe.each(engines)('Connect against a certified OAuth server (oidc-provider), in %s', (engine) => {
  const name = ENGINE_NAMES[engine];
  const businessId = `biz_${MERCHANT_LOGIN}`;
  const browser = browserForBlock(engine);
  /** This engine's first callback, replayed later. */
  let firstCallback: CallbackExchange | undefined;

  it(`connects: the button discovers the provider, the merchant signs in and consents, the return page says "Connected to ..." (${name})`, async () => {
    const before = {
      requests: pages.requests.length,
      callbacks: callbacks.length,
      tokens: provider.tokenRequests(),
      connected: connectedHook.length,
      calls: api.calls.length,
    };
    const tab = await browser.newTab();
    await tab.goto(`${pages.url}/connect`);
    await tab.click('Connect with Payments');

    // The authorization request the button built from the provider's metadata, with its extra parameters:
    // the provider's sign-in page shows the login hint.
    await tab.waitForUrl((url) => url.origin === provider.issuer && url.pathname.startsWith('/interaction/'), 15_000);
    await expect
      .poll(() =>
        tab.run<string | null>(`() => document.querySelector('input[name=login]')?.value ?? null`).catch(() => null),
      )
      .toBe(MERCHANT_LOGIN);
    await approveAtProvider(tab, provider, MERCHANT_LOGIN);
    await tab.waitForUrl((url) => url.origin === pages.url && url.pathname === '/return', 15_000);
    await expect.poll(() => status(tab), { timeout: 10_000 }).toBe("Connected to Hana's Harbour Shop.");

    // RFC 9207: the provider put `iss` on its redirect, and the return page passed it on.
    const returns = returnsAfter(before.requests);
    expect(returns).toHaveLength(1);
    expect(new URL(returns[0]!).searchParams.get('iss')).toBe(provider.issuer);
    firstCallback = await nextCallback(before.callbacks);
    expect(callbacks).toHaveLength(before.callbacks + 1);
    expect(firstCallback.status).toBe(200);
    expect(firstCallback.body).toMatchObject({ iss: provider.issuer, redirect_uri: returnUrl() });
    expect(firstCallback.body.code_verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    await expect.poll(async () => (await tab.url()).search, { timeout: 5_000 }).toBe('');

    // The platform keeps the merchant, with the provider's tokens: one code exchange, nothing else.
    expect(provider.tokenRequests()).toBe(before.tokens + 1);
    expect(connectedHook.slice(before.connected).map((connected) => connected.businessId)).toEqual([businessId]);
    expect(await platform.isConnected(businessId)).toBe(true);
    const credentials = await kept(businessId);
    expect(credentials.expiresAt - Date.now()).toBeLessThanOrEqual(ACCESS_TOKEN_TTL_SECONDS * 1000);

    // A call right away uses the access token it got: no refresh of a token with most of its life left.
    expect((await platform.merchant(businessId).getBusinessInfo()).name).toBe("Hana's Harbour Shop");
    expect(provider.tokenRequests()).toBe(before.tokens + 1);
    expect(
      api.calls
        .slice(before.calls)
        .filter((call) => call.status === 200)
        .map((call) => call.sub),
    ).toEqual([MERCHANT_LOGIN, MERCHANT_LOGIN]);
    expect(await tab.problems()).toEqual([]);
    await tab.close();
  }, 120_000);

  it(`refuses the same code posted again (code_reused) before the token endpoint: the merchant stays connected (${name})`, async () => {
    if (!firstCallback) throw new Error('The connect step did not run');
    const before = { tokens: provider.tokenRequests(), revoked: revoked.length };
    // The browser's own request, byte for byte: the right verifier, redirect URI and iss.
    const replay = await fetch(`${pages.url}/paykit/oauth/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: pages.url },
      body: JSON.stringify(firstCallback.body),
    });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { code: string }).code).toBe('code_reused');
    // Sent on, the reused code would have made the provider revoke the grant (RFC 6749 section 4.1.2).
    expect(provider.tokenRequests()).toBe(before.tokens);
    expect(await platform.isConnected(businessId)).toBe(true);
    expect(revoked).toHaveLength(before.revoked);
  });

  // The platform's own steps with the provider use no browser: once, after the first engine's connect.
  if (engine === engines[0])
    describe(`then on the server, once (no browser: after the connect in ${name})`, () => {
      it('refreshes once when the access token has expired, however many calls find it so', async () => {
        const before = provider.tokenRequests();
        const expired = await kept(businessId);
        await untilExpired(businessId);
        const infos = await Promise.all(
          Array.from({ length: 3 }, () => platform.merchant(businessId).getBusinessInfo()),
        );
        expect(infos.map((info) => info.id)).toEqual([businessId, businessId, businessId]);
        expect(provider.tokenRequests()).toBe(before + 1);
        const fresh = await kept(businessId);
        expect(fresh.accessToken).not.toBe(expired.accessToken);
        expect(fresh.expiresAt).toBeGreaterThan(Date.now());
        // The resource server saw the new token only: its calls after the refresh carry one new token id.
        const jtis = new Set(api.calls.slice(-3).map((call) => call.jti));
        expect(jtis.size).toBe(1);
        expect(api.calls.slice(-3).every((call) => call.status === 200)).toBe(true);
      });

      it('drops the merchant and calls onRevoked when the grant was revoked at the provider', async () => {
        const { refreshToken } = await kept(businessId);
        if (!refreshToken) throw new Error('The provider issues refresh tokens to this client: the platform kept none');
        const revokedBefore = revoked.length;
        // RFC 7009: revoking the refresh token revokes its grant. The JWT access token lives on until it expires.
        await provider.revoke(refreshToken, 'refresh_token');
        await untilExpired(businessId);
        const before = provider.tokenRequests();
        await expect(platform.merchant(businessId).getBusinessInfo()).rejects.toMatchObject({ code: 'unauthorized' });
        expect(provider.tokenRequests()).toBe(before + 1); // the refused refresh
        expect(revoked.slice(revokedBefore)).toEqual([businessId]);
        expect(await platform.isConnected(businessId)).toBe(false);
        // Later calls fail at once, without asking the provider again.
        await expect(platform.merchant(businessId).getBusinessInfo()).rejects.toMatchObject({ code: 'unauthorized' });
        expect(provider.tokenRequests()).toBe(before + 1);
        expect(revoked.slice(revokedBefore)).toEqual([businessId]);
      });
    });

  it(`refuses a callback carrying another server's iss (mix-up) with issuer_mismatch, before any token request (${name})`, async () => {
    const before = {
      provider: provider.tokenRequests(),
      other: otherServer.tokenRequests(),
      connected: connectedHook.length,
      callbacks: callbacks.length,
      mallory: await platform.isConnected('biz_mallory'),
    };
    // The mix-up (RFC 9207 section 2.4): the merchant's authorization request, built for the provider, is
    // steered to another server (where the same client id and redirect URI are registered), which sends the
    // browser back to the platform's return page with this tab's state, its own code, and its own `iss`. The
    // provider's address answers with the redirect, as an attacker in the path would (in every engine alike).
    let steered = 0;
    provider.intercept((req, res) => {
      const url = new URL(req.url ?? '/', provider.issuer);
      if (req.method !== 'GET' || url.pathname !== '/auth') return false;
      steered += 1;
      res.writeHead(302, { location: `${otherServer.issuer}/auth${url.search}` }).end();
      return true;
    });
    try {
      const tab = await browser.newTab();
      await tab.goto(`${pages.url}/connect`);
      await tab.click('Connect with Payments');
      await approveAtProvider(tab, otherServer, 'mallory');
      const refused = await nextCallback(before.callbacks);

      expect(steered).toBe(1);
      expect(refused.body.iss).toBe(otherServer.issuer);
      expect(refused.status).toBe(400);
      expect(refused.answer.code).toBe('issuer_mismatch');
      await expect
        .poll(
          () =>
            tab.run<string | null>(
              `() => document.querySelector('paykit-return')?.shadowRoot?.querySelector('[role=status]')?.getAttribute('data-state') ?? null`,
            ),
          { timeout: 10_000 },
        )
        .toBe('error');
      expect(await status(tab)).not.toMatch(/Connected/);
      // Neither server saw the code come back: not the configured one, and not the one that issued it.
      expect(provider.tokenRequests()).toBe(before.provider);
      expect(otherServer.tokenRequests()).toBe(before.other);
      expect(before.mallory).toBe(false);
      expect(await platform.isConnected('biz_mallory')).toBe(false);
      expect(connectedHook).toHaveLength(before.connected);
      await tab.close();
    } finally {
      provider.intercept(undefined);
    }
  }, 120_000);
});
