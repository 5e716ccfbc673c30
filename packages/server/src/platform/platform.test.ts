import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../../test/support/sandbox-calls.js';
import { createPaykitHandler } from '../handler/create-handler.js';
import { createPlatform, type Platform } from './platform.js';

const REDIRECT = 'https://platform.example/connect/callback';

let sandbox: RunningSandbox;
let app: { client_id: string; client_secret: string };
let merchant: { id: string; api_key: string };
let merchantOwner: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  app = (
    await call(sandbox, 'POST', '/_sandbox/apps', {
      json: {
        business_id: sandbox.seed.businessId,
        name: 'Acme Platform',
        redirect_uris: [REDIRECT],
        scopes: ['business:read', 'payments'],
      },
    })
  ).body;
  merchant = (
    await call(sandbox, 'POST', '/_sandbox/businesses', {
      json: { name: 'Harbour Cafe', country: 'SG', currency: 'SGD' },
    })
  ).body;
  merchantOwner = (
    await call(sandbox, 'POST', '/_sandbox/users', {
      json: { email: 'owner@harbour.test', name: 'Hana', memberships: [{ business_id: merchant.id, role: 'owner' }] },
    })
  ).body.id;
});
afterAll(() => sandbox.close());

/** What the browser part does: PKCE, the merchant's approval, and the code that comes back. */
async function approval(scope = 'payments business:read'): Promise<{ code: string; codeVerifier: string }> {
  const codeVerifier = randomBytes(32).toString('base64url');
  const approved = await call(sandbox, 'POST', '/_sandbox/oauth/approve', {
    json: {
      user_id: merchantOwner,
      client_id: app.client_id,
      redirect_uri: REDIRECT,
      scope,
      state: 's',
      business_id: merchant.id,
      code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
    },
  });
  return { code: new URL(approved.body.redirect).searchParams.get('code')!, codeVerifier };
}

function newPlatform(revoked: string[] = []): Platform {
  return createPlatform({
    apiBaseUrl: sandbox.url,
    platformKey: sandbox.seed.platformKey,
    oauth: { clientId: app.client_id, clientSecret: app.client_secret, redirectUris: [REDIRECT] },
    onRevoked: (id) => void revoked.push(id),
  });
}

describe('a platform against the sandbox', () => {
  it('connects a merchant by OAuth, takes a payment with its commission, and refuses a replayed code', async () => {
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

    const replay = platform.connectWithCode({ code, codeVerifier, redirectUri: REDIRECT });
    await expect(replay).rejects.toMatchObject({ code: 'unauthorized' });
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
    const { id } = (await started.json()) as { id: string };
    const stored = sandbox.context.state.paymentRequests.get(id)!;
    expect(stored).toMatchObject({
      businessId: merchant.id,
      platformCommissionMinor: 125,
      redirectUrl: `https://platform.example/return?merchant=${merchant.id}`,
    });

    const status = await handler(
      new Request(`https://platform.example/paykit/payment-requests/${id}?merchant=${merchant.id}`),
    );
    expect(await status.json()).toMatchObject({ id, status: 'pending', amount: '25.00' });
    // Another merchant of the same platform asking for this payment is told it does not exist.
    const other = (
      await call(sandbox, 'POST', '/_sandbox/businesses', {
        json: { name: 'Pier Bakery', country: 'SG', currency: 'SGD' },
      })
    ).body as { id: string; api_key: string };
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

    // A replayed callback is refused and stores nothing; the authorization server also revokes what the code
    // issued (RFC 6749 section 4.1.2), which the platform learns on its next call.
    const replayed = await post('/oauth/callback', { code, code_verifier: codeVerifier, redirect_uri: REDIRECT });
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { code: string }).code).toBe('unauthorized');
  });
});
