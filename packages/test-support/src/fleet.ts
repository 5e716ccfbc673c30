/**
 * The stage of the fleet tests: a sandbox (behind a counting proxy), a platform app, a merchant connected to
 * it by a real OAuth approval and code exchange, and the connection kept in the stores the instances share.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { createPlatform, type ConnectionStore, type MerchantCredentials } from '@paykit/server';
import { randomBytes } from 'node:crypto';
import { startCountingProxy, type CountingProxy } from './counting-proxy.js';
import { call } from './sandbox-calls.js';
import { createBusiness, createUser, registerApp } from './sandbox-control.js';
import { approveOnSandbox } from './sandbox-oauth.js';

/** The origin the fleet's pages are served from (allowed to post to the handlers). */
export const SHOP_ORIGIN = 'https://shop.example';
const REDIRECT = `${SHOP_ORIGIN}/connect/return`;
/** Access tokens live an hour here, so that the tests can let them expire by moving the sandbox clock. */
const ACCESS_TOKEN_TTL_SECONDS = 3600;

/** A prepared stage. */
export interface Fleet {
  readonly sandbox: RunningSandbox;
  /** The proxy the instances call the API through. */
  readonly api: CountingProxy;
  readonly app: { clientId: string; clientSecret: string };
  /** The connected merchant's business id. */
  readonly merchantId: string;
  /** A payment request of that merchant, made by the platform when it connected. */
  readonly paymentRequestId: string;
  /** Makes the merchant's access token expire, for the sandbox (its clock) and for the store alike. */
  expireAccessToken(): Promise<void>;
  close(): Promise<void>;
}

/** Starts the sandbox and the proxy, registers the app and the merchant, and connects it into `store`. */
export async function prepareFleet(store: ConnectionStore): Promise<Fleet> {
  const sandbox = await startSandbox({ port: 0, oauth: { accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS } });
  const api = await startCountingProxy(sandbox.url);
  const control = async (path: string, json: unknown) =>
    (await call(sandbox, 'POST', `/_sandbox${path}`, { json })).body;
  const created = await registerApp(sandbox, {
    name: 'Fleet Marketplace',
    redirectUris: [REDIRECT],
    scopes: ['business:read', 'payments'],
  });
  const app = { clientId: created.client_id, clientSecret: created.client_secret };
  const merchant = await createBusiness(sandbox, { name: 'Harbour Cafe' });
  const owner = await createUser(sandbox, { email: 'owner@harbour.test', name: 'Hana', businessId: merchant.id });
  const codeVerifier = randomBytes(32).toString('base64url');
  const { code } = await approveOnSandbox(sandbox, {
    userId: owner.id,
    clientId: app.clientId,
    redirectUri: REDIRECT,
    scope: 'payments business:read',
    state: 'fleet',
    businessId: merchant.id,
    codeVerifier,
  });
  const platform = createPlatform({
    apiBaseUrl: sandbox.url,
    platformKey: sandbox.seed.platformKey,
    oauth: { ...app, redirectUris: [REDIRECT] },
    store,
  });
  const { businessId } = await platform.connectWithCode({ code, codeVerifier, redirectUri: REDIRECT });
  const payment = await platform
    .merchant(businessId)
    .createPaymentRequest({ amount: 20, currency: 'SGD', platform_commission_amount: 1 });
  return {
    paymentRequestId: payment.id,
    sandbox,
    api,
    app,
    merchantId: businessId,
    expireAccessToken: async () => {
      await control('/clock', { advance_seconds: ACCESS_TOKEN_TTL_SECONDS + 60 });
      const credentials = (await store.get(businessId)) as MerchantCredentials & { kind: 'oauth' };
      await store.set(businessId, { ...credentials, expiresAt: Date.now() - 1000 });
    },
    close: async () => {
      await api.close();
      await sandbox.close();
    },
  };
}

/** Arms a sandbox fault (see the sandbox's `POST /_sandbox/faults`). */
export async function armFault(fleet: Fleet, fault: Record<string, unknown>): Promise<void> {
  const answer = await call(fleet.sandbox, 'POST', '/_sandbox/faults', { json: fault });
  if (answer.status >= 300) throw new Error(`could not arm the fault: ${answer.status} ${JSON.stringify(answer.body)}`);
}

/** The live grants of the merchant at the authorization server (0 once it is disconnected). */
export function liveGrants(fleet: Fleet): number {
  const now = fleet.sandbox.context.oauth.now();
  return [...fleet.sandbox.context.oauth.grants.values()].filter(
    (grant) => grant.businessId === fleet.merchantId && !grant.revoked && grant.accessExpiresAt > now,
  ).length;
}
