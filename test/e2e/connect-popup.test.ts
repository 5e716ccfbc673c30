/**
 * Connect in a popup as a merchant lives it, in every engine (Chromium, Firefox ESR, WebKitGTK; `PAYKIT_BROWSERS`
 * picks), with the BUILT script-tag file: the demo platform's onboarding page (`<paykit-connect-button popup>`,
 * strict Content-Security-Policy and Trusted Types) against the sandbox's dashboard (sign-in and consent in the
 * popup: approve, deny, close, and a browser that refuses the popup), and a platform's pages against the certified
 * OAuth server (oidc-provider) with its callback page served under `Cross-Origin-Opener-Policy: same-origin`, which
 * cuts the popup from its opener. Clicks are real input events (a person's click, with its user activation):
 * WebKit keeps its popup blocker on, and the popup opens all the same. What the pages sent is seen where the
 * platform's pages receive it, the same way in every engine.
 */
import {
  createPaykitHandler,
  createPlatform,
  MemoryConnectionStore,
  PaykitError,
  type ConnectedBusiness,
} from '@paykit/server';
import { ENGINE_NAMES, selectedEngines } from '@paykit/test-support/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MERCHANT } from '../../demo/platform.js';
import { startDemo, type RunningDemo } from '../../demo/start-demo.js';
import { browserForBlock, demoReports, problemsWithReports } from '../support/engine-block.js';
import type { Tab } from '../support/engine-browser.js';
import { harbourShopOf, startJwtResourceServer, type JwtResourceServer } from '../support/jwt-resource-server.js';
import { approveAtProvider, startOidcProvider, type OidcProvider } from '../support/oidc-provider.js';
import { pageWith, startPlatformPages, type PlatformPages } from '../support/platform-pages.js';

/** What the connect button says under itself (`[part=status]`). */
const shown = (tab: Tab) => tab.text('paykit-connect-button', '[part=status]');

/** The value of the field labelled `label`. */
const valueOf = (tab: Tab, label: string) =>
  tab.run<string>(
    `() => [...document.querySelectorAll('label')].find((l) => l.textContent.includes(${JSON.stringify(label)})).control.value`,
  );

const SCOPE = 'business:read payments';
let pages: PlatformPages;
let api: JwtResourceServer;
let provider: OidcProvider;
const connected: ConnectedBusiness[] = [];

beforeAll(async () => {
  pages = await startPlatformPages();
  api = await startJwtResourceServer(harbourShopOf);
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

describe.each(selectedEngines())('in %s', (engine) => {
  const name = ENGINE_NAMES[engine];
  /** A demo of this engine's own: the merchant connects once in each (the platform counts its connections). */
  let demo: RunningDemo;
  const browser = browserForBlock(engine);
  beforeAll(async () => {
    demo = await startDemo({ port: 0, sandboxPort: 0 });
  });
  afterAll(async () => {
    await demo?.close();
  });

  /** Everything that went wrong, in the tab and its popup and as reported to the demo and the sandbox (emptied). */
  const problems = (tab: Tab) => problemsWithReports(tab, demoReports(demo));

  /** The onboarding page of a fresh browser, with the shop's name typed in. */
  async function openOnboarding(): Promise<Tab> {
    const tab = await browser.newTab();
    await tab.goto(`${demo.url}/platform/onboarding`);
    await tab.fill('Shop name', 'Harbour Cafe by the water');
    return tab;
  }

  /** Clicks "Connect with Payments" and resolves with the popup, signed in on the sandbox, at the consent page. */
  async function consentInPopup(tab: Tab): Promise<Tab> {
    await tab.click('Connect with Payments');
    const popup = await tab.popup();
    await popup.waitForUrl((url) => url.pathname === '/dashboard/sign-in', 15_000);
    await popup.fill('Email', DEMO_MERCHANT.ownerEmail);
    await popup.click('Sign in');
    await popup.waitForUrl((url) => url.pathname === '/oauth/authorize', 15_000);
    return popup;
  }

  describe('connect in a popup on the demo platform (sandbox dashboard)', () => {
    it(`the merchant approves in the popup; the onboarding page says connected and keeps what was typed (${name})`, async () => {
      const tab = await openOnboarding();
      const before = demo.platform.connected.size;
      const popup = await consentInPopup(tab);
      // The page's heading, once the page has one (read at once, it can still be loading).
      await expect.poll(() => popup.text('h1'), { timeout: 10_000 }).toContain('Acme Marketplace wants to connect');
      await popup.click('Connect');
      await expect.poll(() => popup.isClosed(), { timeout: 15_000 }).toBe(true);
      await expect.poll(() => shown(tab), { timeout: 10_000 }).toBe(`Connected to ${DEMO_MERCHANT.name}.`);
      expect((await tab.url()).pathname).toBe('/platform/onboarding');
      expect(await valueOf(tab, 'Shop name')).toBe('Harbour Cafe by the water');
      expect(demo.platform.connected.size).toBe(before + 1);
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`the merchant declines in the popup: "cancelled", nothing connected (${name})`, async () => {
      const tab = await openOnboarding();
      const before = [...demo.platform.connected.keys()];
      const popup = await consentInPopup(tab);
      await popup.click('Deny');
      await expect.poll(() => shown(tab), { timeout: 10_000 }).toBe('Connection cancelled. Nothing was shared.');
      expect([...demo.platform.connected.keys()]).toEqual(before);
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`the merchant closes the popup: the button is ready again within a second, nothing changed (${name})`, async () => {
      const tab = await openOnboarding();
      const popup = await consentInPopup(tab);
      await tab.run(`() => {
        const button = document.querySelector('paykit-connect-button');
        button.addEventListener('paykit-cancel', () => (document.body.dataset.cancelledAt = String(performance.now())));
      }`);
      // A person reads the consent page before closing it (a handle that reads closed in its first second is taken
      // for one that Cross-Origin-Opener-Policy cut, see popup-connect.ts).
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await popup.close();
      // The clock starts once the popup is closed: the close is a round trip through the driver, which took a
      // loaded CI machine long enough to push the figure past the second (1,004 ms).
      const closedAt = await tab.run<number>(`() => performance.now()`);
      await expect.poll(() => tab.run<string | null>(`() => document.body.dataset.cancelledAt ?? null`)).not.toBeNull();
      const cancelledAt = Number(await tab.run<string>(`() => document.body.dataset.cancelledAt`));
      expect(cancelledAt - closedAt).toBeLessThan(1_000);
      await expect
        .poll(() =>
          tab.run<string | null>(
            `() => document.querySelector('paykit-connect-button').shadowRoot.querySelector('button').getAttribute('aria-busy')`,
          ),
        )
        .toBe('false');
      expect(await valueOf(tab, 'Shop name')).toBe('Harbour Cafe by the water');
      await tab.close();
    }, 120_000);

    it(`a browser that refuses the popup connects by redirect instead (${name})`, async () => {
      const tab = await browser.newTab();
      await tab.goto(`${demo.url}/platform/onboarding`);
      // What a popup blocker does to a page: `window.open` answers null (puppeteer's Chromium and Firefox have their
      // blockers off, and WebKit's lets a person's click through).
      await tab.run(`() => {
        window.open = () => null;
      }`);
      await tab.click('Connect with Payments');
      await tab.waitForUrl((url) => url.pathname === '/dashboard/sign-in', 15_000);
      expect(await tab.opened()).toEqual([]);
      await tab.fill('Email', DEMO_MERCHANT.ownerEmail);
      await tab.click('Sign in');
      await tab.waitForUrl((url) => url.pathname === '/oauth/authorize');
      await tab.click('Connect');
      await tab.waitForUrl((url) => url.origin === demo.url && url.pathname === '/platform/return');
      await expect
        .poll(() => tab.text('paykit-return', '[role=status]'), { timeout: 10_000 })
        .toBe(`Connected to ${DEMO_MERCHANT.name}.`);
      await tab.close();
    }, 120_000);
  });

  describe('connect in a popup against a certified OAuth server, the callback page under COOP same-origin', () => {
    it(`connects through the BroadcastChannel: paykit-connected on the onboarding page, the popup closed (${name})`, async () => {
      const seen = pages.requests.length;
      const before = connected.length;
      const tab = await browser.newTab();
      await tab.goto(`${pages.url}/onboarding`);
      await tab.fill('Shop name', 'Hana sells coffee');
      await tab.click('Connect with Payments');
      const popup = await tab.popup();
      await approveAtProvider(popup, provider, 'hana');
      await expect.poll(() => shown(tab), { timeout: 15_000 }).toBe("Connected to Hana's Harbour Shop.");
      const served = pages.requests.slice(seen);
      // The callback page was served once, under COOP.
      expect(
        served
          .filter((request) => request.method === 'GET' && request.url.startsWith('/return'))
          .map((request) => request.sent['cross-origin-opener-policy']),
      ).toEqual(['same-origin']);
      // The code was exchanged once, by the onboarding page, whose state is as the merchant left it.
      expect(
        served
          .filter((request) => request.method === 'POST' && request.url === '/paykit/oauth/callback')
          .map((request) => request.headers.referer),
      ).toEqual([`${pages.url}/onboarding`]);
      expect(connected.slice(before).map((business) => business.businessId)).toEqual(['biz_hana']);
      expect(await valueOf(tab, 'Shop name')).toBe('Hana sells coffee');
      await expect.poll(() => popup.isClosed(), { timeout: 5_000 }).toBe(true);
      expect(await tab.problems()).toEqual([]);
      await tab.close();
    }, 120_000);
  });
});
