/**
 * Webhooks: where a business's events go, and what the sandbox delivered, so that a test can register its own
 * receiver and then look at every attempt.
 */
import { webhookEndpointCreateSchema, webhookEventTypes, webUrl } from '@paykit/core';
import { Hono } from 'hono';
import * as z from 'zod';
import type { SandboxContext } from '../../context.js';
import { DEFAULT_ENDPOINT_NAME } from '../../state.js';
import { webhookEndpointJson } from '../webhook-events.js';
import { businessOf } from './businesses.js';
import { controlBody } from './body.js';

// `name` and `event_types` follow the rules of `POST /v1/webhook-events` (core's schema); left out, the endpoint is
// named `DEFAULT_ENDPOINT_NAME` and listens to every event, which is what an endpoint registered here always got before.
const endpointBody = z.strictObject({
  business_id: z.string(),
  url: webUrl,
  name: webhookEndpointCreateSchema.shape.name.optional(),
  event_types: webhookEndpointCreateSchema.shape.event_types.optional(),
});

/** `POST /_sandbox/webhook-endpoints` and `GET /_sandbox/webhook-deliveries`. */
export function webhookRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { state, webhooks } = sandbox;

  routes.post('/webhook-endpoints', async (c) => {
    const input = await controlBody(endpointBody, c.req.raw);
    businessOf(state, input.business_id);
    const endpoint = state.addEndpoint({
      businessId: input.business_id,
      name: input.name ?? DEFAULT_ENDPOINT_NAME,
      url: input.url,
      eventTypes: input.event_types ?? [...webhookEventTypes],
    });
    // The endpoint as `GET /v1/webhook-events/{id}` answers it.
    return c.json(webhookEndpointJson(endpoint), 201);
  });

  routes.get('/webhook-deliveries', (c) => c.json(webhooks.deliveries));

  return routes;
}
