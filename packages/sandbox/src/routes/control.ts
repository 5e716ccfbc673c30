/**
 * The control API of the sandbox, outside `/v1`: what a test or the demo needs to set up and to move time
 * along. No authentication: the sandbox listens on loopback only.
 */
import { formatMinor, SCOPES, toErrorBody, webUrl } from '@paykit/core';
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
      return c.json({ redirect: approve(oauth, request, user, businessId) });
    } catch (error) {
      // The request was refused as the consent page would refuse it: say where the browser would go.
      if (error instanceof RedirectError) throw new SandboxError(400, error.message, error.error);
      throw error;
    }
  });

  routes.post('/connections/revoke', async (c) => {
    const input = await parse(connectionBody, c.req.raw);
    oauth.revokeWhere((grant) => grant.businessId === input.business_id && grant.clientId === input.client_id);
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
    return c.body(null, 204);
  });

  return routes;
}
