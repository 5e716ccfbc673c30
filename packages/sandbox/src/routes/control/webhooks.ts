/**
 * Webhook endpoints registered without the API: a test or the demo names the business and the URL (what the
 * sandbox delivered is `webhook-deliveries.ts`).
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

/** `POST /_sandbox/webhook-endpoints`. */
export function webhookRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { state } = sandbox;

  routes.post('/webhook-endpoints', async (c) => {
    const input = await controlBody(endpointBody, c.req.raw);
    businessOf(state, input.business_id);
    const endpoint = state.addEndpoint(
      {
        businessId: input.business_id,
        name: input.name ?? DEFAULT_ENDPOINT_NAME,
        url: input.url,
        eventTypes: input.event_types ?? [...webhookEventTypes],
      },
      sandbox.clocks.now(input.business_id),
    );
    // The endpoint as `GET /v1/webhook-events/{id}` answers it.
    return c.json(webhookEndpointJson(endpoint), 201);
  });

  return routes;
}
