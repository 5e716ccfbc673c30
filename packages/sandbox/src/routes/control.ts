/**
 * The control API of the sandbox, outside `/v1`: what a test or the demo needs to set up and to move time
 * along. No authentication: the sandbox listens on loopback only.
 */
import { createHash } from 'node:crypto';
import { formatMinor, majorToMinor, minorToMajor, SCOPES, toErrorBody, webUrl } from '@paykit/core';
import { isoUtcMicros, isoWithOffset, isoWithoutOffset } from '../clock.js';
import { Hono } from 'hono';
import * as z from 'zod';
import { readBody } from '../body.js';
import type { SandboxContext } from '../context.js';
import { notFound, SandboxError } from '../errors.js';
import { newId } from '../ids.js';
import { completePayment } from '../payments.js';
import { paymentRequestJson } from '../serialize.js';
import { approve, checkAuthorizeRequest, RedirectError } from '../oauth/authorize.js';

const businessBody = z.strictObject({
  name: z.string().min(1).max(100),
  country: z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code'),
  currency: z.string().regex(/^[A-Za-z]{3}$/, 'must be a three-letter currency code'),
  platform: z.boolean().optional(),
});

const endpointBody = z.strictObject({ business_id: z.string(), url: webUrl });

const payBody = z.strictObject({
  outcome: z.enum(['succeeded', 'failed']),
  payment_method: z.string().optional(),
});

const userBody = z.strictObject({
  email: z.email(),
  name: z.string().min(1).max(100),
  memberships: z.array(z.strictObject({ business_id: z.string(), role: z.enum(['owner', 'admin', 'member']) })),
});

const appBody = z.strictObject({
  business_id: z.string(),
  name: z.string().min(1).max(100),
  redirect_uris: z.array(webUrl).min(1, 'must name at least one redirect URI'),
  scopes: z.array(z.enum(SCOPES)).optional(),
});

const appScopesBody = z.strictObject({ scopes: z.array(z.enum(SCOPES)) });

const approveBody = z.strictObject({
  user_id: z.string(),
  client_id: z.string(),
  redirect_uri: z.string(),
  scope: z.string(),
  state: z.string().optional(),
  business_id: z.string(),
  code_challenge: z.string().optional(),
  code_challenge_method: z.string().optional(),
});

const connectionBody = z.strictObject({ business_id: z.string(), client_id: z.string() });

const payoutBody = z.strictObject({ business_id: z.string() });
const payoutStatusBody = z
  .strictObject({
    status: z.enum(['scheduled', 'processing', 'paid', 'failed', 'canceled', 'pending']),
    failure_code: z.string().min(1).optional(),
    failure_message: z.string().optional(),
  })
  .refine((b) => b.status !== 'failed' || b.failure_code !== undefined, {
    path: ['failure_code'],
    message: 'is required when the payout failed (spec 3, rule 1)',
  });
const terminalBody = z.strictObject({ business_id: z.string(), name: z.string().min(1).max(100) });
const beneficiaryBody = z.strictObject({
  business_id: z.string(),
  holder_name: z.string().min(1),
  account_number: z.string().min(1),
  bank_name: z.string().optional(),
  nickname: z.string().optional(),
});
const staffBody = z.strictObject({
  business_id: z.string(),
  name: z.string().min(1),
  email: z.email(),
  role_title: z.string().min(1),
});

const clockBody = z.strictObject({
  advance_seconds: z
    .number()
    .positive()
    .max(10 * 365 * 86_400),
});

/** Parses a control body or throws 422 with field errors. */
async function parse<S extends z.ZodType>(schema: S, request: Request): Promise<z.output<S>> {
  const result = schema.safeParse(await readBody(request, { form: false }));
  if (result.success) return result.data;
  const body = toErrorBody(result.error);
  throw new SandboxError(422, body.message, body.code, body.errors);
}

/** The `/_sandbox` routes. */
export function controlRoutes(sandbox: SandboxContext) {
  const routes = new Hono();
  const { state, webhooks, oauth } = sandbox;

  routes.post('/businesses', async (c) => {
    const input = await parse(businessBody, c.req.raw);
    const business = state.createBusiness({ ...input, platform: input.platform ?? false });
    return c.json({ id: business.id, api_key: business.apiKey, platform_key: business.platformKey }, 201);
  });

  routes.post('/webhook-endpoints', async (c) => {
    const input = await parse(endpointBody, c.req.raw);
    if (!state.businesses.has(input.business_id)) throw notFound('Business not found');
    const endpoint = { id: newId(), businessId: input.business_id, url: input.url };
    state.webhookEndpoints.set(endpoint.id, endpoint);
    return c.json({ id: endpoint.id, business_id: endpoint.businessId, url: endpoint.url }, 201);
  });

  routes.post('/payment-requests/:id/pay', async (c) => {
    const input = await parse(payBody, c.req.raw);
    const request = state.paymentRequests.get(c.req.param('id'));
    if (!request) throw notFound('Payment request not found');
    completePayment(sandbox, request, input.outcome, input.payment_method);
    return c.json(paymentRequestJson(request, sandbox.publicUrl()));
  });

  routes.get('/webhook-deliveries', (c) => c.json(webhooks.deliveries));

  routes.get('/businesses/:id/balance', (c) => {
    const business = state.businesses.get(c.req.param('id'));
    if (!business) throw notFound('Business not found');
    const minor = state.ledger.balanceMinor(business.id);
    return c.json({ business_id: business.id, available: formatMinor(minor), currency: business.currency });
  });

  const business = (id: string) => {
    const found = state.businesses.get(id);
    if (!found) throw notFound('Business not found');
    return found;
  };

  routes.post('/payouts', async (c) => {
    const owner = business((await parse(payoutBody, c.req.raw)).business_id);
    const availableMinor = state.ledger.balanceMinor(owner.id);
    if (availableMinor <= 0) throw new SandboxError(409, 'There is no available balance to pay out', 'conflict');
    const now = new Date();
    const payout = state.resources.add('payouts', owner.id, {
      status: 'scheduled',
      currency: owner.currency,
      amount: minorToMajor(availableMinor),
      source_currency: owner.currency,
      source_amount: minorToMajor(availableMinor),
      bank_name: 'Sandbox Bank',
      bank_account: '****6789',
      remark: null,
      reference: null,
      failure_code: null,
      failure_message: null,
      arrival_date: new Date(now.getTime() + 2 * 86_400_000).toISOString().slice(0, 10),
      created_at: isoWithoutOffset(now),
      updated_at: isoWithoutOffset(now),
    });
    state.ledger.add({
      businessId: owner.id,
      description: `Payout ${payout.id} to the linked bank account`,
      chargeId: null,
      payoutId: payout.id,
      creditMinor: null,
      debitMinor: -availableMinor,
      currency: owner.currency,
    });
    return c.json(payout, 201);
  });

  routes.post('/payouts/:id/status', async (c) => {
    const input = await parse(payoutStatusBody, c.req.raw);
    const stored = state.resources.find('payouts', c.req.param('id'));
    if (!stored) throw notFound('Payout not found');
    const payout = stored.json;
    const returned =
      (input.status === 'failed' || input.status === 'canceled') &&
      payout.status !== 'failed' &&
      payout.status !== 'canceled';
    Object.assign(payout, {
      status: input.status,
      failure_code: input.failure_code ?? null,
      failure_message: input.failure_message ?? null,
      updated_at: isoWithoutOffset(new Date()),
    });
    if (returned) {
      // Money that did not leave comes back to the available balance.
      state.ledger.add({
        businessId: stored.businessId,
        description: `Payout ${payout.id} ${input.status}: returned`,
        chargeId: null,
        payoutId: payout.id,
        creditMinor: majorToMinor(payout.amount),
        debitMinor: null,
        currency: payout.currency,
      });
    }
    return c.json(payout);
  });

  routes.post('/terminals', async (c) => {
    const input = await parse(terminalBody, c.req.raw);
    business(input.business_id);
    const terminal = state.resources.add('terminals', input.business_id, {
      name: input.name,
      status: 'online',
      created_at: isoWithoutOffset(new Date()),
    });
    return c.json({ ...terminal, url: `${sandbox.publicUrl()}/terminal/${terminal.id}` }, 201);
  });

  routes.post('/static-qr-codes', async (c) => {
    const input = await parse(terminalBody, c.req.raw);
    business(input.business_id);
    const id = newId();
    // `url` is part of the stored record: core's staticQrCodeSchema requires it.
    const code = state.resources.add('static_qr_codes', input.business_id, {
      id,
      name: input.name,
      url: `${sandbox.publicUrl()}/qr/${id}`,
      payment_method: 'paynow_online',
      created_at: isoWithoutOffset(new Date()),
    });
    return c.json(code, 201);
  });

  routes.post('/beneficiaries', async (c) => {
    const input = await parse(beneficiaryBody, c.req.raw);
    const owner = business(input.business_id);
    const now = isoWithOffset(new Date());
    const beneficiary = state.resources.add('beneficiaries', owner.id, {
      status: 'approved',
      country: owner.country,
      currency: owner.currency,
      transfer_method: 'bank_transfer',
      transfer_type: 'local',
      nickname: input.nickname ?? input.holder_name,
      remark: '',
      holder_name: input.holder_name,
      holder_type: 'individual',
      bank_branch_code: '',
      account_number: input.account_number,
      bank_name: input.bank_name ?? 'Sandbox Bank',
      bank_id: 'sandbox',
      email: '',
      is_favourite: false,
      created_by: accountOwner(owner),
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    return c.json(beneficiary, 201);
  });

  routes.post('/staff', async (c) => {
    const input = await parse(staffBody, c.req.raw);
    business(input.business_id);
    const staff = state.resources.add('staff', input.business_id, {
      name: input.name,
      role: { id: newId(), title: input.role_title },
      email: input.email,
      invited_at: isoUtcMicros(new Date()),
      locations: [],
    });
    return c.json(staff, 201);
  });

  routes.post('/users', async (c) => {
    const input = await parse(userBody, c.req.raw);
    for (const m of input.memberships) if (!state.businesses.has(m.business_id)) throw notFound('Business not found');
    if (oauth.userByEmail(input.email)) throw new SandboxError(409, 'A user with this email exists', 'conflict');
    const user = oauth.createUser({
      email: input.email,
      name: input.name,
      memberships: input.memberships.map((m) => ({ businessId: m.business_id, role: m.role })),
    });
    return c.json({ id: user.id }, 201);
  });

  routes.post('/apps', async (c) => {
    const input = await parse(appBody, c.req.raw);
    if (!state.businesses.has(input.business_id)) throw notFound('Business not found');
    const { app, clientSecret } = oauth.createApp({
      businessId: input.business_id,
      name: input.name,
      redirectUris: input.redirect_uris,
      ...(input.scopes ? { scopes: input.scopes } : {}),
    });
    return c.json({ client_id: app.clientId, client_secret: clientSecret }, 201);
  });

  routes.post('/apps/:clientId/secret', (c) => {
    if (!oauth.apps.has(c.req.param('clientId'))) throw notFound('App not found');
    return c.json({ client_secret: oauth.regenerateSecret(c.req.param('clientId')) });
  });

  // The review of a scope request (spec 5.2 rule 4), granted at once. Existing tokens keep their scopes.
  routes.put('/apps/:clientId/scopes', async (c) => {
    const input = await parse(appScopesBody, c.req.raw);
    const app = oauth.setAppScopes(c.req.param('clientId'), input.scopes);
    if (!app) throw notFound('App not found');
    return c.json({ client_id: app.clientId, scopes: app.scopes });
  });

  routes.delete('/apps/:clientId', (c) => {
    if (!oauth.deleteApp(c.req.param('clientId'))) throw notFound('App not found');
    return c.body(null, 204);
  });

  routes.post('/oauth/approve', async (c) => {
    const input = await parse(approveBody, c.req.raw);
    const user = oauth.users.get(input.user_id);
    if (!user) throw notFound('User not found');
    const { user_id: _user, business_id: businessId, ...query } = input;
    try {
      const request = checkAuthorizeRequest(oauth, { response_type: 'code', ...query });
      return c.json({ redirect: approve(oauth, request, user, businessId, sandbox.publicUrl()) });
    } catch (error) {
      // The request was refused as the consent page would refuse it: say where the browser would go.
      if (error instanceof RedirectError) throw new SandboxError(400, error.message, error.error);
      throw error;
    }
  });

  routes.post('/connections/revoke', async (c) => {
    const input = await parse(connectionBody, c.req.raw);
    // Idempotent: revoking what is not connected is already done. No notification goes out (spec 6 rule 5).
    oauth.revokeConnection(input.business_id, input.client_id);
    return c.body(null, 204);
  });

  routes.post('/clock', async (c) => {
    const input = await parse(clockBody, c.req.raw);
    oauth.advance(input.advance_seconds * 1000);
    return c.json({ now: new Date(oauth.now()).toISOString() });
  });

  routes.post('/reset', (c) => {
    webhooks.reset();
    state.reset();
    oauth.reset();
    sandbox.tokenRateLimit.reset();
    sandbox.faults.reset();
    return c.body(null, 204);
  });

  return routes;
}

/**
 * Who made a beneficiary through the control endpoint: the business's owner, as the object of spec 2.4
 * (`{ id, display_name, first_name, last_name }`). The sandbox has no user accounts, so the owner's id is
 * derived from the business id (the same for every beneficiary of one business) and the names are fixed.
 */
function accountOwner(business: { id: string; name: string }) {
  const hex = createHash('sha256').update(`owner:${business.id}`).digest('hex');
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
  return { id, display_name: `${business.name} owner`, first_name: 'Sandbox', last_name: 'Owner' };
}
