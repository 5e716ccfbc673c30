/**
 * Connect in a popup as a merchant lives it, in Chromium, with the BUILT script-tag file: the demo platform's
 * onboarding page (`<paykit-connect-button popup>`, strict Content-Security-Policy and Trusted Types) against the
 * sandbox's dashboard (sign-in and consent in the popup: approve, deny, close, and a browser that refuses the
 * popup), and a platform's pages against the certified OAuth server (oidc-provider) with its callback page served
 * under `Cross-Origin-Opener-Policy: same-origin`, which cuts the popup from its opener.
 */
import {
  createPaykitHandler,
  createPlatform,
  MemoryConnectionStore,
  PaykitError,
  type ConnectedBusiness,
} from '@paykit/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT } from '../../demo/platform.js';
import { demoInChromium } from '../support/demo-in-chromium.js';
import { startJwtResourceServer, type JwtResourceServer } from '../support/jwt-resource-server.js';
import { approveAtProvider, startOidcProvider, type OidcProvider } from '../support/oidc-provider.js';
import { pageWith, startPlatformPages, type PlatformPages } from '../support/platform-pages.js';

const e2e = demoInChromium();

/** The onboarding page of a fresh browser, with the shop's name typed in, and the errors it reports. */
async function openOnboarding(): Promise<{ page: Page; problems: string[] }> {
  const page = await (await e2e.browser.newContext()).newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(String(error)));
  await page.goto(`${e2e.demo.url}/platform/onboarding`);
  await page.getByLabel('Shop name').fill('Harbour Cafe by the water');
  return { page, problems };
}

const connectButton = (page: Page) => page.getByRole('button', { name: 'Connect with Payments' });
const shown = (page: Page) => page.locator('paykit-connect-button [part=status]');

/** Clicks "Connect with Payments" and resolves with the popup, signed in on the sandbox, at the consent page. */
async function consentInPopup(page: Page): Promise<Page> {
  const opened = page.context().waitForEvent('page');
  await connectButton(page).click();
  const popup = await opened;
  await popup.waitForURL((url) => url.pathname === '/dashboard/sign-in');
  await popup.getByLabel('Email').fill(DEMO_MERCHANT.ownerEmail);
  await popup.getByRole('button', { name: 'Sign in' }).click();
  await popup.waitForURL((url) => url.pathname === '/oauth/authorize');
  return popup;
}

describe('connect in a popup on the demo platform (sandbox dashboard)', () => {
  it('the merchant approves in the popup; the onboarding page says connected and keeps what was typed', async () => {
    const { page, problems } = await openOnboarding();
    const before = e2e.demo.platform.connected.size;
    const popup = await consentInPopup(page);
    expect(await popup.textContent('h1')).toContain('Acme Marketplace wants to connect');
    const closed = popup.waitForEvent('close');
    await popup.getByRole('button', { name: 'Connect' }).click();
    await closed;
    await expect.poll(() => shown(page).textContent(), { timeout: 10_000 }).toBe(`Connected to ${DEMO_MERCHANT.name}.`);
    expect(new URL(page.url()).pathname).toBe('/platform/onboarding');
    expect(await page.getByLabel('Shop name').inputValue()).toBe('Harbour Cafe by the water');
    expect(e2e.demo.platform.connected.size).toBe(before + 1);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the merchant declines in the popup: "cancelled", nothing connected', async () => {
    const { page, problems } = await openOnboarding();
    const before = [...e2e.demo.platform.connected.keys()];
    const popup = await consentInPopup(page);
    await popup.getByRole('button', { name: 'Deny' }).click();
    await expect
      .poll(() => shown(page).textContent(), { timeout: 10_000 })
      .toBe('Connection cancelled. Nothing was shared.');
    expect([...e2e.demo.platform.connected.keys()]).toEqual(before);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('the merchant closes the popup: the button is ready again within a second, nothing changed', async () => {
    const { page } = await openOnboarding();
    const popup = await consentInPopup(page);
    await page.evaluate(() => {
      const button = document.querySelector('paykit-connect-button')!;
      button.addEventListener('paykit-cancel', () => (document.body.dataset.cancelledAt = String(performance.now())));
    });
    // A person reads the consent page before closing it (a handle that reads closed in its first second is taken
    // for one that Cross-Origin-Opener-Policy cut, see popup-connect.ts).
    await popup.waitForTimeout(1_000);
    const closedAt = await page.evaluate(() => performance.now());
    await popup.close();
    await expect.poll(() => page.evaluate(() => document.body.dataset.cancelledAt)).toBeDefined();
    const cancelledAt = Number(await page.evaluate(() => document.body.dataset.cancelledAt));
    expect(cancelledAt - closedAt).toBeLessThan(1_000);
    const inner = page.locator('paykit-connect-button button');
    await expect.poll(() => inner.getAttribute('aria-busy')).toBe('false');
    expect(await page.getByLabel('Shop name').inputValue()).toBe('Harbour Cafe by the water');
    await page.context().close();
  });

  it('a browser that refuses the popup connects by redirect instead', async () => {
    const context = await e2e.browser.newContext();
    // What a popup blocker does to a page: `window.open` answers null (headless Chromium has no blocker of its own).
    await context.addInitScript(() => {
      window.open = () => null;
    });
    const page = await context.newPage();
    await page.goto(`${e2e.demo.url}/platform/onboarding`);
    await connectButton(page).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/sign-in');
    await page.getByLabel('Email').fill(DEMO_MERCHANT.ownerEmail);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.waitForURL((url) => url.origin === e2e.demo.url && url.pathname === '/platform/return');
    await expect
      .poll(() => page.locator('paykit-return').getByRole('status').textContent(), { timeout: 10_000 })
      .toBe(`Connected to ${DEMO_MERCHANT.name}.`);
    await context.close();
  });
});

describe('connect in a popup against a certified OAuth server, the callback page under COOP same-origin', () => {
  const SCOPE = 'business:read payments';
  let pages: PlatformPages;
  let api: JwtResourceServer;
  let provider: OidcProvider;
  const connected: ConnectedBusiness[] = [];

  beforeAll(async () => {
    pages = await startPlatformPages();
    api = await startJwtResourceServer((sub) => ({
      id: `biz_${sub}`,
      name: `${sub[0]!.toUpperCase()}${sub.slice(1)}'s Harbour Shop`,
      country: 'SG',
      currency: 'SGD',
      payments_enabled: true,
    }));
    const redirectUri = `${pages.url}/return`;
    provider = await startOidcProvider({
      redirectUris: [redirectUri],
      resource: api.resource,
      resourceScopes: SCOPE.split(' '),
      accessTokenTtlSeconds: 60,
    });
    api.trustIssuer(provider.issuer);
    const platform = createPlatform({
      apiBaseUrl: api.url,
      oauth: {
        issuer: provider.issuer,
        discovery: 'oidc',
        clientId: provider.clientId,
        clientSecret: provider.clientSecret,
        clientAuthentication: 'client_secret_basic',
        redirectUris: [redirectUri],
      },
      store: new MemoryConnectionStore(),
    });
    pages.mount(
      '/paykit',
      createPaykitHandler({
        prefix: '/paykit',
        platform,
        publicOrigin: pages.url,
        onConnected: (business) => void connected.push(business),
        createPaymentRequest: () => {
          throw new PaykitError('validation_failed', 'This platform takes no payments in this test');
        },
      }),
    );
    pages.page(
      '/onboarding',
      pageWith(
        'Open your shop',
        `<label for="shop">Shop name</label> <input id="shop" />
        <paykit-connect-button popup endpoint="/paykit" issuer="${provider.issuer}" client-id="${provider.clientId}"
          redirect-uri="${redirectUri}" scope="${SCOPE}" resource="${api.resource}" login-hint="hana"></paykit-connect-button>`,
      ),
    );
    // The callback page in its own browsing context group: its `window.opener` is null.
    pages.page('/return', pageWith('Connecting', '<paykit-return endpoint="/paykit"></paykit-return>'), {
      'cross-origin-opener-policy': 'same-origin',
    });
  });

  afterAll(async () => {
    await Promise.all([pages?.close(), api?.close(), provider?.stop()]);
  });

  it('connects through the BroadcastChannel: paykit-connected on the onboarding page, the popup closed', async () => {
    const context = await e2e.browser.newContext();
    // The provider's development pages would load a web font from the internet.
    await context.route(
      (url) => url.hostname !== '127.0.0.1',
      (route) => route.abort(),
    );
    const page = await context.newPage();
    await page.goto(`${pages.url}/onboarding`);
    await page.getByLabel('Shop name').fill('Hana sells coffee');
    const exchanges: string[] = [];
    context.on('request', (request) => {
      if (request.url().endsWith('/paykit/oauth/callback')) exchanges.push(request.frame().page().url());
    });
    const opened = context.waitForEvent('page');
    await connectButton(page).click();
    const popup = await opened;
    const coop: (string | undefined)[] = [];
    popup.on('response', (response) => {
      if (response.url().startsWith(`${pages.url}/return`)) coop.push(response.headers()['cross-origin-opener-policy']);
    });
    await approveAtProvider(popup, provider, 'hana');
    await expect.poll(() => shown(page).textContent(), { timeout: 15_000 }).toBe("Connected to Hana's Harbour Shop.");
    expect(coop).toEqual(['same-origin']);
    // The code was exchanged once, by the onboarding page, whose state is as the merchant left it.
    expect(exchanges).toEqual([`${pages.url}/onboarding`]);
    expect(connected.map((business) => business.businessId)).toEqual(['biz_hana']);
    expect(await page.getByLabel('Shop name').inputValue()).toBe('Hana sells coffee');
    await expect.poll(() => popup.isClosed(), { timeout: 5_000 }).toBe(true);
    await context.close();
  });
});
