/**
 * `paykit-sandbox --seed platform`: what a platform needs before its first connect, made through the control
 * endpoints in the order the README's "Connect end to end" walks (a business, then users with their membership,
 * then the app), so that the seed is exactly what a test or a person would make by hand, and is kept in the
 * data file like any other change.
 */
import type { Scope } from '@paykit/core';
import type { SandboxContext } from './context.js';

/**
 * What {@link seedPlatform} made. The keys and secrets are the sandbox's, valid on this sandbox only. The client
 * secret is known only when it is made: a sandbox restarted from its data file keeps its hash, as the service does.
 */
export interface SeededPlatform {
  platform: { id: string; name: string; platformKey: string; apiKey: string; ownerEmail: string };
  app: { clientId: string; clientSecret?: string; redirectUris: string[]; scopes: Scope[] };
  merchants: { id: string; name: string; ownerEmail: string }[];
}

/** The platform and its two merchants: names and owners' sign-in addresses. */
export const SEEDED_PLATFORM = {
  platform: { name: 'Sandbox Marketplace', ownerEmail: 'owner@marketplace.test' },
  merchants: [
    { name: 'Harbour Cafe', ownerEmail: 'owner@harbour-cafe.test', ownerName: 'Hana' },
    { name: 'Lantern Books', ownerEmail: 'owner@lantern-books.test', ownerName: 'Leo' },
  ],
  /** What a connect button asks for in the examples: the business profile and taking payments. */
  scopes: ['business:read', 'payments'] satisfies Scope[],
  /**
   * What each merchant has already taken, so that a platform's merchant view has something to show at once: paid
   * payments (amount, purpose), one failed, and for the first merchant a partial refund of its first payment and a
   * payout of its balance.
   */
  history: [
    {
      paid: [
        { amount: 18.5, purpose: 'Flat white and croissant' },
        { amount: 42, purpose: 'Team breakfast' },
        { amount: 7.2, purpose: 'Iced latte' },
      ],
      failed: { amount: 12, purpose: 'Lunch set' },
      refund: 5,
      payout: true,
    },
    {
      paid: [
        { amount: 29.9, purpose: 'The Lantern Reader, hardcover' },
        { amount: 64.5, purpose: 'Poetry box set' },
      ],
      failed: null,
      refund: 0,
      payout: false,
    },
  ],
} as const;

/** Creates the platform, its OAuth app with `redirectUris`, and two merchants with owners, on the sandbox at `url`. */
export async function seedPlatform(url: string, redirectUris: readonly string[]): Promise<SeededPlatform> {
  const post = async (path: string, body: unknown, apiKey?: string): Promise<Record<string, string>> => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(apiKey ? { 'x-business-api-key': apiKey } : {}) },
      body: JSON.stringify(body),
    });
    // The sandbox's own API: the fields read here (ids, keys, secrets, a message) are strings.
    const answer = (await response.json()) as Record<string, string>;
    if (!response.ok) throw new Error(`--seed platform: POST ${path} answered ${response.status}: ${answer.message}`);
    return answer;
  };
  const control = (path: string, body: unknown) => post(`/_sandbox${path}`, body);
  const { platform: p, merchants: m, scopes } = SEEDED_PLATFORM;
  const platform = await control('/businesses', { name: p.name, country: 'SG', currency: 'SGD', platform: true });
  await control('/users', {
    email: p.ownerEmail,
    name: 'Pat',
    memberships: [{ business_id: platform.id, role: 'owner' }],
  });
  const app = await control('/apps', {
    business_id: platform.id,
    name: p.name,
    redirect_uris: redirectUris,
    scopes,
  });
  const merchants = [];
  for (const [index, merchant] of m.entries()) {
    const business = await control('/businesses', { name: merchant.name, country: 'SG', currency: 'SGD' });
    await control('/users', {
      email: merchant.ownerEmail,
      name: merchant.ownerName,
      memberships: [{ business_id: business.id, role: 'owner' }],
    });
    merchants.push({ id: business.id!, name: merchant.name, ownerEmail: merchant.ownerEmail });
    const history = SEEDED_PLATFORM.history[index];
    if (history) await takePayments(business.id!, business.api_key!, history);
  }
  /** A merchant's history, made through its own API key and the control API, as a shop and its shoppers would. */
  async function takePayments(
    businessId: string,
    apiKey: string,
    history: (typeof SEEDED_PLATFORM.history)[number],
  ): Promise<void> {
    const pay = async (payment: { amount: number; purpose: string }, outcome: 'succeeded' | 'failed') => {
      const request = await post('/v1/payment-requests', { ...payment, currency: 'SGD' }, apiKey);
      await control(`/payment-requests/${request.id}/pay`, { outcome, payment_method: 'card' });
      return request.id!;
    };
    const paid = [];
    for (const payment of history.paid) paid.push(await pay(payment, 'succeeded'));
    if (history.failed) await pay(history.failed, 'failed');
    if (history.refund > 0 && paid[0] !== undefined) {
      const charge = await fetch(`${url}/v1/payment-requests/${paid[0]}`, {
        headers: { 'x-business-api-key': apiKey },
      });
      const { payments } = (await charge.json()) as { payments: { id: string }[] };
      await post('/v1/refund', { payment_id: payments[0]?.id, amount: history.refund }, apiKey);
    }
    if (history.payout) await control('/payouts', { business_id: businessId });
  }

  return {
    platform: {
      id: platform.id!,
      name: p.name,
      platformKey: platform.platform_key!,
      apiKey: platform.api_key!,
      ownerEmail: p.ownerEmail,
    },
    app: { clientId: app.client_id!, clientSecret: app.client_secret!, redirectUris: [...redirectUris], scopes },
    merchants,
  };
}

/**
 * The platform a previous `--seed platform` made, as a restarted sandbox found it in its data file (found by its
 * owner's sign-in address), or `undefined` when the state has none.
 */
export function seededPlatformIn(context: Pick<SandboxContext, 'state' | 'oauth'>): SeededPlatform | undefined {
  const owner = context.oauth.userByEmail(SEEDED_PLATFORM.platform.ownerEmail);
  const business = owner && context.state.businesses.get(owner.memberships[0]?.businessId ?? '');
  if (!business) return undefined;
  const app = [...context.oauth.apps.values()].find((candidate) => candidate.businessId === business.id);
  const merchants = SEEDED_PLATFORM.merchants.flatMap((merchant) => {
    const id = context.oauth.userByEmail(merchant.ownerEmail)?.memberships[0]?.businessId;
    const found = id === undefined ? undefined : context.state.businesses.get(id);
    return found ? [{ id: found.id, name: found.name, ownerEmail: merchant.ownerEmail }] : [];
  });
  return {
    platform: {
      id: business.id,
      name: business.name,
      platformKey: business.platformKey ?? '',
      apiKey: business.apiKey,
      ownerEmail: SEEDED_PLATFORM.platform.ownerEmail,
    },
    app: app
      ? { clientId: app.clientId, redirectUris: app.redirectUris, scopes: app.scopes }
      : { clientId: '(deleted)', redirectUris: [], scopes: [] },
    merchants,
  };
}
