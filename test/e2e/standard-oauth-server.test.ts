/**
 * "Connect with Payments" against a standard, certified authorization server instead of our own sandbox
 * (issue 12 item 4, "Prove it"): `oidc-provider` (OpenID Certified) runs in the test, a small resource server
 * takes its JWT access tokens, and a platform's pages load the BUILT elements bundle in Chromium with the
 * paykit handler behind them. Everything is configured from the provider's issuer the way any platform would:
 * the connect button discovers the authorization endpoint in the browser, the server reads the OpenID
 * discovery document and authenticates with `client_secret_basic`.
 *
 * The steps share one connected merchant and run in order: connect, a replayed code, a refresh, revocation;
 * then a mix-up attempt in a fresh browser. Token requests are counted where the provider receives them.
 */
import { launchChromium } from '@paykit/test-support/browser';
import type { Browser, Page, Request as BrowserRequest } from 'playwright-core';
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
import { startJwtResourceServer, type JwtResourceServer } from '../support/jwt-resource-server.js';
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
let browser: Browser;
let platform: Platform;
const store = new MemoryConnectionStore();
const connectedHook: ConnectedBusiness[] = [];
const revoked: string[] = [];

const returnUrl = () => `${pages.url}/return`;

beforeAll(async () => {
  pages = await startPlatformPages();
  api = await startJwtResourceServer((sub) => ({
    id: `biz_${sub}`,
    name: `${sub[0]!.toUpperCase()}${sub.slice(1)}'s Harbour Shop`,
    country: 'SG',
    currency: 'SGD',
    payments_enabled: true,
  }));
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
  pages.mount(
    '/paykit',
    createPaykitHandler({
      prefix: '/paykit',
      platform,
      publicOrigin: pages.url,
      onConnected: (connected) => {
        connectedHook.push(connected);
      },
      createPaymentRequest: () => {
        throw new PaykitError('validation_failed', 'This platform takes no payments in this test');
      },
    }),
  );
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
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([pages?.close(), api?.close(), provider?.stop(), otherServer?.stop()]);
});

/**
 * A page of a fresh browser profile, with the errors the platform's pages report (console and scripts). The
 * browser reaches 127.0.0.1 only: the provider's development pages would load a web font from the internet.
 */
async function freshPage(): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext();
  await context.route(
    (url) => url.hostname !== '127.0.0.1',
    (route) => route.abort(),
  );
  const page = await context.newPage();
  const problems: string[] = [];
  const onPlatformPage = () => page.url().startsWith(`${pages.url}/`);
  page.on('console', (message) => {
    if (message.type() === 'error' && onPlatformPage()) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  return { page, problems };
}

/** The callback's POST to the platform's backend, as the browser sent it and as the backend answered. */
interface CallbackExchange {
  body: Record<string, string>;
  status: number;
  answer: { code?: string; business?: { name: string } };
}

/** Resolves with the next `POST /paykit/oauth/callback` the page makes, once answered. */
function nextCallback(page: Page): Promise<CallbackExchange> {
  return new Promise((resolve) => {
    const onRequestFinished = (request: BrowserRequest) => {
      if (request.method() !== 'POST' || new URL(request.url()).pathname !== '/paykit/oauth/callback') return;
      page.off('requestfinished', onRequestFinished);
      void request.response().then(async (response) => {
        resolve({
          body: JSON.parse(request.postData() ?? '{}') as Record<string, string>,
          status: response?.status() ?? 0,
          answer: ((await response?.json()) ?? {}) as CallbackExchange['answer'],
        });
      });
    };
    page.on('requestfinished', onRequestFinished);
  });
}

const status = (page: Page) => page.locator('paykit-return').getByRole('status');

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

describe('Connect against a certified OAuth server (oidc-provider)', () => {
  const businessId = `biz_${MERCHANT_LOGIN}`;
  /** The first callback, replayed later. */
  let firstCallback: CallbackExchange | undefined;

  it('connects: the button discovers the provider, the merchant signs in and consents, the return page says "Connected to ..."', async () => {
    const { page, problems } = await freshPage();
    const returns: string[] = [];
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.url().startsWith(`${returnUrl()}?`)) returns.push(request.url());
    });
    await page.goto(`${pages.url}/connect`);
    const callback = nextCallback(page);
    await page.getByRole('button', { name: 'Connect with Payments' }).click();

    // The authorization request the button built from the provider's metadata, with its extra parameters:
    // the provider's sign-in page shows the login hint.
    await page.waitForURL((url) => url.origin === provider.issuer && url.pathname.startsWith('/interaction/'));
    expect(await page.locator('input[name=login]').inputValue()).toBe(MERCHANT_LOGIN);
    await approveAtProvider(page, provider, MERCHANT_LOGIN);
    await page.waitForURL((url) => url.origin === pages.url && url.pathname === '/return');
    await expect.poll(() => status(page).textContent(), { timeout: 10_000 }).toBe("Connected to Hana's Harbour Shop.");

    // RFC 9207: the provider put `iss` on its redirect, and the return page passed it on.
    expect(returns).toHaveLength(1);
    expect(new URL(returns[0]!).searchParams.get('iss')).toBe(provider.issuer);
    firstCallback = await callback;
    expect(firstCallback.status).toBe(200);
    expect(firstCallback.body).toMatchObject({ iss: provider.issuer, redirect_uri: returnUrl() });
    expect(firstCallback.body.code_verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    expect(new URL(page.url()).search).toBe('');

    // The platform keeps the merchant, with the provider's tokens: one code exchange, nothing else.
    expect(provider.tokenRequests()).toBe(1);
    expect(connectedHook.map((connected) => connected.businessId)).toEqual([businessId]);
    expect(await platform.isConnected(businessId)).toBe(true);
    const credentials = await kept(businessId);
    expect(credentials.expiresAt - Date.now()).toBeLessThanOrEqual(ACCESS_TOKEN_TTL_SECONDS * 1000);

    // A call right away uses the access token it got: no refresh of a token with most of its life left.
    expect((await platform.merchant(businessId).getBusinessInfo()).name).toBe("Hana's Harbour Shop");
    expect(provider.tokenRequests()).toBe(1);
    expect(api.calls.filter((call) => call.status === 200).map((call) => call.sub)).toEqual([
      MERCHANT_LOGIN,
      MERCHANT_LOGIN,
    ]);
    expect(problems).toEqual([]);
    await page.context().close();
  }, 20_000);

  it('refuses the same code posted again (code_reused) before the token endpoint: the merchant stays connected', async () => {
    if (!firstCallback) throw new Error('The connect step did not run');
    const before = provider.tokenRequests();
    // The browser's own request, byte for byte: the right verifier, redirect URI and iss.
    const replay = await fetch(`${pages.url}/paykit/oauth/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: pages.url },
      body: JSON.stringify(firstCallback.body),
    });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { code: string }).code).toBe('code_reused');
    // Sent on, the reused code would have made the provider revoke the grant (RFC 6749 section 4.1.2).
    expect(provider.tokenRequests()).toBe(before);
    expect(await platform.isConnected(businessId)).toBe(true);
    expect(revoked).toEqual([]);
  });

  it('refreshes once when the access token has expired, however many calls find it so', async () => {
    const before = provider.tokenRequests();
    const expired = await kept(businessId);
    await untilExpired(businessId);
    const infos = await Promise.all(Array.from({ length: 3 }, () => platform.merchant(businessId).getBusinessInfo()));
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
    // RFC 7009: revoking the refresh token revokes its grant. The JWT access token lives on until it expires.
    await provider.revoke(refreshToken, 'refresh_token');
    await untilExpired(businessId);
    const before = provider.tokenRequests();
    await expect(platform.merchant(businessId).getBusinessInfo()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(provider.tokenRequests()).toBe(before + 1); // the refused refresh
    expect(revoked).toEqual([businessId]);
    expect(await platform.isConnected(businessId)).toBe(false);
    // Later calls fail at once, without asking the provider again.
    await expect(platform.merchant(businessId).getBusinessInfo()).rejects.toMatchObject({ code: 'unauthorized' });
    expect(provider.tokenRequests()).toBe(before + 1);
    expect(revoked).toEqual([businessId]);
  });

  it("refuses a callback carrying another server's iss (mix-up) with issuer_mismatch, before any token request", async () => {
    const { page } = await freshPage();
    const before = {
      provider: provider.tokenRequests(),
      other: otherServer.tokenRequests(),
      connected: connectedHook.length,
    };
    // The mix-up (RFC 9207 section 2.4): the merchant's authorization request, built for the provider, is
    // steered to another server (where the same client id and redirect URI are registered), which sends the
    // browser back to the platform's return page with this tab's state, its own code, and its own `iss`.
    let steered = 0;
    await page.route(
      (url) => url.origin === provider.issuer && url.pathname === '/auth',
      async (route) => {
        steered += 1;
        const { search } = new URL(route.request().url());
        return route.fulfill({ status: 302, headers: { location: `${otherServer.issuer}/auth${search}` } });
      },
    );
    await page.goto(`${pages.url}/connect`);
    const callback = nextCallback(page);
    await page.getByRole('button', { name: 'Connect with Payments' }).click();
    await approveAtProvider(page, otherServer, 'mallory');
    const refused = await callback;

    expect(steered).toBe(1);
    expect(refused.body.iss).toBe(otherServer.issuer);
    expect(refused.status).toBe(400);
    expect(refused.answer.code).toBe('issuer_mismatch');
    await expect.poll(() => status(page).getAttribute('data-state'), { timeout: 10_000 }).toBe('error');
    expect(await status(page).textContent()).not.toMatch(/Connected/);
    // Neither server saw the code come back: not the configured one, and not the one that issued it.
    expect(provider.tokenRequests()).toBe(before.provider);
    expect(otherServer.tokenRequests()).toBe(before.other);
    expect(await platform.isConnected('biz_mallory')).toBe(false);
    expect(connectedHook).toHaveLength(before.connected);
    await page.context().close();
  }, 20_000);
});
