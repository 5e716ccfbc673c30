/**
 * Webhooks: where a business's events go, and what the sandbox delivered, so that a test can register its own
 * receiver and then look at every attempt.
 */
import { webUrl } from '@paykit/core';
import { Hono } from 'hono';
import * as z from 'zod';
import type { SandboxContext } from '../../context.js';
import { newId } from '../../ids.js';
import { businessOf } from './businesses.js';
import { controlBody } from './body.js';

const endpointBody = z.strictObject({ business_id: z.string(), url: webUrl });

/** `POST /_sandbox/webhook-endpoints` and `GET /_sandbox/webhook-deliveries`. */
export function webhookRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { state, webhooks } = sandbox;

  routes.post('/webhook-endpoints', async (c) => {
    const input = await controlBody(endpointBody, c.req.raw);
    businessOf(state, input.business_id);
    const endpoint = { id: newId(), businessId: input.business_id, url: input.url };
    state.webhookEndpoints.set(endpoint.id, endpoint);
    return c.json({ id: endpoint.id, business_id: endpoint.businessId, url: endpoint.url }, 201);
  });

  routes.get('/webhook-deliveries', (c) => c.json(webhooks.deliveries));

  return routes;
}
