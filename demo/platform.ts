/**
 * The demo platform, "Acme Marketplace": merchants connect with "Connect with Payments" (OAuth + PKCE on the
 * sandbox dashboard), and the platform then takes payments for them with its platform key and a commission.
 * It runs beside the demo shop on the same server, under `/platform`.
 */
import type { RunningSandbox } from '@paykit/sandbox';
import { formatMinor, parseAmount, type PaymentRequest } from '@paykit/core';
import {
  createPaykitHandler,
  createPlatform,
  type ConnectedBusiness,
  type PaykitHandler,
  type Platform,
} from '@paykit/server';
import { escape, layout } from './pages.js';

/** The demo merchant that connects to the platform, and its owner on the sandbox dashboard. */
export const DEMO_MERCHANT = { name: 'Harbour Cafe', ownerEmail: 'owner@harbour.test' } as const;

/** What the platform charges a merchant's customer, and keeps as commission. */
const SERVICE = { name: 'Table booking deposit', amount: '20.00', currency: 'SGD', commission: '1.00' } as const;

/** A running demo platform. */
export interface PlatformDemo {
  /** The platform's paykit handler, under `/platform/paykit`. */
  handler: PaykitHandler;
  /** The onboarding page: connected merchants, their payments, and the commission earned. */
  page(): Promise<string>;
  /** The page merchants and shoppers come back to. */
  returnPage(): string;
  /** Merchants connected so far. */
  connected: Map<string, ConnectedBusiness>;
}

/** Registers the platform's OAuth app and a merchant on the sandbox, and builds the platform. */
export async function startPlatformDemo(sandbox: RunningSandbox, siteUrl: string): Promise<PlatformDemo> {
  const control = async (path: string, body: unknown) => {
    const answer = await fetch(`${sandbox.url}/_sandbox${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!answer.ok) throw new Error(`sandbox ${path}: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as Record<string, string>;
  };
  const redirectUri = `${siteUrl}/platform/return`;
  // The seeded business is platform-enabled: it owns the app and holds the platform key.
  const app = await control('/apps', {
    business_id: sandbox.seed.businessId,
    name: 'Acme Marketplace',
    redirect_uris: [redirectUri],
    scopes: ['business:read', 'payments'],
  });
  const merchant = await control('/businesses', { name: DEMO_MERCHANT.name, country: 'SG', currency: 'SGD' });
  await control('/users', {
    email: DEMO_MERCHANT.ownerEmail,
    name: 'Hana Harbour',
    memberships: [{ business_id: merchant.id, role: 'owner' }],
  });

  const connected = new Map<string, ConnectedBusiness>();
  const platform: Platform = createPlatform({
    apiBaseUrl: sandbox.url,
    platformKey: sandbox.seed.platformKey,
    oauth: { clientId: app.client_id!, clientSecret: app.client_secret!, redirectUris: [redirectUri] },
    onRevoked: (businessId) => void connected.delete(businessId),
  });
  const handler = createPaykitHandler({
    prefix: '/platform/paykit',
    platform,
    onConnected: (business) => void connected.set(business.businessId, business),
    createPaymentRequest: () => ({
      amount: SERVICE.amount,
      currency: SERVICE.currency,
      purpose: SERVICE.name,
      platform_commission_amount: SERVICE.commission,
    }),
    returnUrl: redirectUri,
  });

  return {
    handler,
    connected,
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
        ${escape(SERVICE.currency)} ${escape(SERVICE.commission)} of each. On the sandbox dashboard, sign in as
        <code>${escape(DEMO_MERCHANT.ownerEmail)}</code>.</p>
        <paykit-connect-button client-id="${escape(app.client_id!)}" redirect-uri="${escape(redirectUri)}"
          scope="payments business:read" dashboard-url="${escape(sandbox.url)}"></paykit-connect-button>
        <h2>Connected merchants</h2>
        <p class="earned">Commission earned: ${escape(SERVICE.currency)} ${formatMinor(earned)}</p>
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
          <p class="price">${escape(SERVICE.name)}: ${escape(SERVICE.currency)} ${escape(SERVICE.amount)}</p>
          <paykit-pay-button endpoint="/platform/paykit" merchant="${escape(businessId)}" reference="deposit"
            amount="${escape(SERVICE.amount)}" currency="${escape(SERVICE.currency)}"
            checkout-origins="${escape(sandbox.url)}">Pay the deposit to ${escape(business.name)}</paykit-pay-button>
          <ul class="payments">${payments
            .map((p) => `<li>${escape(p.amount)} ${escape(p.currency.toUpperCase())}: ${escape(p.status)}</li>`)
            .join('')}</ul>
        </article>`,
                )
                .join('')
        }`,
      );
    },
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
