/**
 * The control API of the sandbox, outside `/v1`: what a test or the demo needs to set up and to move time
 * along. No authentication: the sandbox listens on loopback only.
 */
import { toErrorBody, webUrl } from '@paykit/core';
import { Hono } from 'hono';
import * as z from 'zod';
import { readBody } from '../body.js';
import type { SandboxContext } from '../context.js';
import { notFound, SandboxError } from '../errors.js';
import { newId } from '../ids.js';
import { completePayment } from '../payments.js';
import { paymentRequestJson } from '../serialize.js';

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
  const { state, webhooks } = sandbox;

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

  routes.post('/reset', (c) => {
    webhooks.reset();
    state.reset();
    return c.body(null, 204);
  });

  return routes;
}
