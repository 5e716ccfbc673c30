/**
 * The demo platform, "Acme Marketplace": merchants connect with "Connect with Payments" (OAuth + PKCE on the
 * sandbox dashboard), and the platform then takes payments for them with its platform key and a commission.
 * It runs beside the demo shop on the same server, under `/platform`.
 */
import type { RunningSandbox } from '@paykit/sandbox';
import { createHash } from 'node:crypto';
import { formatMinor, formatPrice, isJsonObject, parseAmount, type PaymentRequest } from '@paykit/core';
import {
  createPaykitHandler,
  type ConnectionStore,
  createPlatform,
  type ConnectedBusiness,
  type PaykitHandler,
  type Platform,
} from '@paykit/server';
import { isVersionOne, JsonFileWriter, readDataFile } from './data-file.js';
import { escape, layout } from './pages.js';

/** The demo merchant that connects to the platform, and its owner on the sandbox dashboard. */
export const DEMO_MERCHANT = { name: 'Harbour Cafe', ownerEmail: 'owner@harbour.test' } as const;

/** What the platform charges a merchant's customer, and keeps as commission. */
const SERVICE = { name: 'Table booking deposit', amount: '20.00', currency: 'SGD', commission: '1.00' } as const;

/** A running demo platform. */
export interface PlatformDemo {
  /** The platform's paykit handler, under `/platform/paykit`. */
  handler: PaykitHandler;
  /** The marketplace page: connected merchants, their payments, and the commission earned. */
  page(): Promise<string>;
  /**
   * The onboarding wizard (`/platform/onboarding`): the merchant describes the shop, then connects in a popup
   * (`<paykit-connect-button popup>`), and what they typed stays on the page.
   */
  onboardingPage(): string;
  /** The page merchants and shoppers come back to. */
  returnPage(): string;
  /** The connect button alone, for another page to frame (`/site-builder?embed=connect`). */
  embedPage(): string;
  /** Merchants connected so far. */
  connected: Map<string, ConnectedBusiness>;
  /** Resolves once the data file, if any, holds every change. */
  flush(): Promise<void>;
}

/** Options of {@link startPlatformDemo}. */
export interface PlatformDemoOptions {
  /**
   * A JSON file that keeps what the platform registered on the sandbox (its app's client id and secret, the
   * demo merchant's id) and the merchants it saw connect, so that a restart on a sandbox that kept its state
   * reuses them instead of registering new ones. Without it, everything is registered anew on each start.
   */
  dataFile?: string;
  /** Where the platform keeps its merchants' credentials. Default in memory (lost on restart). */
  store?: ConnectionStore;
}

/** What `platform.json` holds. */
interface PlatformFile {
  version: 1;
  clientId: string;
  clientSecret: string;
  /** The app's redirect URI: it names the shop's port, so another port needs another app. */
  redirectUri: string;
  merchantId: string;
  connected: ConnectedBusiness[];
}

/** Registers the platform's OAuth app and a merchant on the sandbox (or reuses them), and builds the platform. */
export async function startPlatformDemo(
  sandbox: RunningSandbox,
  siteUrl: string,
  options: PlatformDemoOptions = {},
): Promise<PlatformDemo> {
  const control = async (path: string, body: unknown) => {
    const answer = await fetch(`${sandbox.url}/_sandbox${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`sandbox ${path}: ${answer.status} ${await answer.text()}`);
    // The sandbox's own control API: its answers' fields read here (ids, secrets) are strings.
    return (await answer.json()) as Record<string, string>;
  };
  const redirectUri = `${siteUrl}/platform/return`;
  const saved = options.dataFile === undefined ? undefined : await readDataFile(options.dataFile, isPlatformFile);
  // Whether the sandbox still knows what was saved. The control API has no reads of apps and users; the demo
  // runs the sandbox in this process, so it looks at its memory.
  const { oauth, state } = sandbox.context;
  const savedApp = saved && oauth.apps.get(saved.clientId);
  const app =
    saved &&
    savedApp?.businessId === sandbox.seed.businessId &&
    saved.redirectUri === redirectUri &&
    savedApp.redirectUris.includes(redirectUri) &&
    savedApp.secretHash === createHash('sha256').update(saved.clientSecret).digest('hex')
      ? { client_id: saved.clientId, client_secret: saved.clientSecret }
      : // The seeded business is platform-enabled: it owns the app and holds the platform key.
        await control('/apps', {
          business_id: sandbox.seed.businessId,
          name: 'Acme Marketplace',
          redirect_uris: [redirectUri],
          scopes: ['business:read', 'payments'],
        });
  const merchant =
    saved && state.businesses.has(saved.merchantId)
      ? { id: saved.merchantId }
      : await control('/businesses', { name: DEMO_MERCHANT.name, country: 'SG', currency: 'SGD' });
  if (!oauth.userByEmail(DEMO_MERCHANT.ownerEmail)) {
    await control('/users', {
      email: DEMO_MERCHANT.ownerEmail,
      name: 'Hana Harbour',
      memberships: [{ business_id: merchant.id, role: 'owner' }],
    });
  }

  const connected = new Map<string, ConnectedBusiness>();
  const file = options.dataFile === undefined ? undefined : new JsonFileWriter(options.dataFile);
  const save = () =>
    file?.save({
      version: 1,
      clientId: app.client_id!,
      clientSecret: app.client_secret!,
      redirectUri,
      merchantId: merchant.id!,
      connected: structuredClone([...connected.values()]),
    } satisfies PlatformFile);
  const platform: Platform = createPlatform({
    apiBaseUrl: sandbox.url,
    platformKey: sandbox.seed.platformKey,
    oauth: { clientId: app.client_id!, clientSecret: app.client_secret!, redirectUris: [redirectUri] },
    ...(options.store ? { store: options.store } : {}),
    onRevoked: (businessId) => {
      connected.delete(businessId);
      save();
    },
  });
  const handler = createPaykitHandler({
    prefix: '/platform/paykit',
    platform,
    onConnected: (business) => {
      connected.set(business.businessId, business);
      save();
    },
    // Who may see a merchant's payments and payouts on the marketplace page, and refund them. The demo has no
    // staff sign-in, so everyone on the page may: a real platform reads its session from `request`'s cookie here
    // and answers for that user and that merchant.
    merchantView: () => ({ view: true, refund: true }),
    createPaymentRequest: () => ({
      amount: SERVICE.amount,
      currency: SERVICE.currency,
      purpose: SERVICE.name,
      platform_commission_amount: SERVICE.commission,
    }),
    returnUrl: redirectUri,
  });

  // Merchants seen connected before a restart are listed again if the platform still holds their credentials
  // (with `store` a FileConnectionStore in the data folder, as `pnpm demo` runs it).
  if (saved && app.client_id === saved.clientId) {
    for (const known of saved.connected) {
      if (await platform.isConnected(known.businessId)) connected.set(known.businessId, known);
    }
  }
  save();
  await file?.flush(); // on disk before the demo says it is ready

  /**
   * What the marketplace shows a connected merchant, in three tags talking to its handler: the connection (with
   * "Connect again" when it ended), the payments with refunds, the payouts.
   */
  const merchantViews = (businessId: string) => {
    const common = `endpoint="/platform/paykit" merchant="${escape(businessId)}"`;
    return `<paykit-connection ${common} client-id="${escape(app.client_id!)}" redirect-uri="${escape(redirectUri)}"
            scope="payments business:read" dashboard-url="${escape(sandbox.url)}"></paykit-connection>
          <paykit-merchant-payments ${common}></paykit-merchant-payments>
          <paykit-merchant-payouts ${common}></paykit-merchant-payouts>`;
  };

  return {
    handler,
    connected,
    flush: async () => {
      await file?.flush();
    },
    page: async () => {
      const rows = await Promise.all(
        [...connected.values()].map(async (merchant) => ({
          merchant,
          payments: await paymentsOf(platform, merchant.businessId),
        })),
      );
      const earned = rows
        .flatMap(({ payments }) => payments)
        .filter((p) => p.status === 'completed')
        .reduce((sum, p) => {
          const commission = parseAmount(p.platform_commission_amount);
          return sum + (commission.ok ? commission.minor : 0);
        }, 0);
      return layout(
        'Acme Marketplace',
        `<h1>Acme Marketplace</h1>
        <p class="lead">Merchants connect their payment account; the marketplace then takes deposits for them and keeps
        ${escape(formatPrice(SERVICE.commission, SERVICE.currency))} of each. On the sandbox dashboard, sign in as
        <code>${escape(DEMO_MERCHANT.ownerEmail)}</code>.</p>
        <paykit-connect-button client-id="${escape(app.client_id!)}" redirect-uri="${escape(redirectUri)}"
          scope="payments business:read" dashboard-url="${escape(sandbox.url)}"></paykit-connect-button>
        <p class="small">Opening a shop? <a href="/platform/onboarding">Onboard step by step</a>: you connect in a
        popup and keep what you typed.</p>
        <h2>Connected merchants</h2>
        <p class="earned">Commission earned: ${escape(formatPrice(formatMinor(earned), SERVICE.currency))}</p>
        ${
          rows.length === 0
            ? '<p>None yet.</p>'
            : rows
                .map(
                  ({
                    merchant: { businessId, business },
                    payments,
                  }) => `<article class="product" data-merchant="${escape(businessId)}">
          <h2>${escape(business.name)}</h2>
          <p class="price">${escape(SERVICE.name)}: ${escape(formatPrice(SERVICE.amount, SERVICE.currency))}</p>
          <paykit-pay-button endpoint="/platform/paykit" merchant="${escape(businessId)}" reference="deposit"
            amount="${escape(SERVICE.amount)}" currency="${escape(SERVICE.currency)}"
            checkout-origins="${escape(sandbox.url)}">Pay the deposit to ${escape(business.name)}</paykit-pay-button>
          <ul class="payments">${payments
            .map((p) => `<li>${escape(formatPrice(p.amount, p.currency))}: ${escape(p.status)}</li>`)
            .join('')}</ul>
          ${merchantViews(businessId)}
        </article>`,
                )
                .join('')
        }`,
        // The platform's own bundle (demo/examples/platform): the elements and the merchant views, one Lit.
        '/assets/examples/platform.js',
      );
    },
    onboardingPage: () =>
      layout(
        'Open your shop · Acme Marketplace',
        `<p class="crumbs"><a href="/platform">Acme Marketplace</a> / Open your shop</p>
        <h1>Open your shop</h1>
        <form class="onboarding" action="/platform" method="get">
          <h2>1. Your shop</h2>
          <p><label for="shop-name">Shop name</label><br /><input id="shop-name" name="shop" autocomplete="organization" /></p>
          <p><label for="shop-about">What you sell</label><br /><textarea id="shop-about" name="about" rows="3"></textarea></p>
          <h2>2. Get paid</h2>
          <p>Connect your payment account. It opens in a small window (on the sandbox dashboard, sign in as
          <code>${escape(DEMO_MERCHANT.ownerEmail)}</code>); this page stays as it is.</p>
          <paykit-connect-button popup endpoint="/platform/paykit" client-id="${escape(app.client_id!)}"
            redirect-uri="${escape(redirectUri)}" scope="payments business:read"
            dashboard-url="${escape(sandbox.url)}"></paykit-connect-button>
          <h2>3. Done</h2>
          <p><button type="submit">Open my shop</button></p>
        </form>`,
      ),
    embedPage: () =>
      layout(
        'Connect · Acme Marketplace',
        `<h1>Get paid on Acme Marketplace</h1>
        <paykit-connect-button client-id="${escape(app.client_id!)}" redirect-uri="${escape(redirectUri)}"
          scope="payments business:read" dashboard-url="${escape(sandbox.url)}"></paykit-connect-button>`,
      ),
    returnPage: () =>
      layout(
        'Acme Marketplace',
        `<h1>Acme Marketplace</h1>
        <paykit-return endpoint="/platform/paykit"></paykit-return>
        <p><a href="/platform">Back to the marketplace</a></p>`,
      ),
  };
}

/** The latest payments of a connected merchant; none when it can no longer be reached (revoked). */
async function paymentsOf(platform: Platform, businessId: string): Promise<PaymentRequest[]> {
  try {
    return (await platform.merchant(businessId).listPaymentRequests({ perPage: 20 })).data;
  } catch {
    return [];
  }
}

function isPlatformFile(value: unknown): value is PlatformFile {
  return (
    isVersionOne(value) &&
    [value.clientId, value.clientSecret, value.redirectUri, value.merchantId].every(
      (field) => typeof field === 'string',
    ) &&
    Array.isArray(value.connected) &&
    value.connected.every(
      (c: unknown) => isJsonObject(c) && typeof c.businessId === 'string' && typeof c.business === 'object',
    )
  );
}
