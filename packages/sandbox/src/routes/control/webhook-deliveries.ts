/**
 * What the sandbox delivered, and the tools to test a receiver with: send a delivery again, send a test event to
 * an endpoint, and arm the faults the real network brings (a duplicate, deliveries out of order, a late retry).
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { SandboxContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { sendTestEvent } from '../../webhooks/send.js';
import { controlBody } from './body.js';

const faultBody = z.discriminatedUnion('fault', [
  z.strictObject({ fault: z.literal('duplicate'), count: z.int().min(1).max(100).default(1) }),
  z.strictObject({ fault: z.literal('out_of_order'), count: z.int().min(2).max(100).default(2) }),
  z.strictObject({
    fault: z.literal('late_retry'),
    count: z.int().min(1).max(100).default(1),
    delay_ms: z.int().min(0).max(600_000).default(2_000),
  }),
]);

/**
 * `GET /_sandbox/webhook-deliveries`, `POST /_sandbox/webhook-deliveries/{id}/redeliver`,
 * `POST /_sandbox/webhook-endpoints/{id}/test` and `POST /_sandbox/webhook-faults`.
 */
export function webhookDeliveryRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { webhooks } = sandbox;

  routes.get('/webhook-deliveries', (c) => c.json(webhooks.deliveries));

  routes.post('/webhook-deliveries/:id/redeliver', (c) => {
    const delivery = webhooks.find(c.req.param('id'));
    if (!delivery) throw notFound('Webhook delivery not found');
    webhooks.redeliver(delivery);
    return c.json(delivery);
  });

  routes.post('/webhook-endpoints/:id/test', (c) => {
    const endpoint = sandbox.state.webhookEndpoints.get(c.req.param('id'));
    if (!endpoint) throw notFound('Webhook endpoint not found');
    return c.json(sendTestEvent(sandbox, endpoint.businessId, endpoint.id));
  });

  routes.post('/webhook-faults', async (c) => {
    const input = await controlBody(faultBody, c.req.raw);
    webhooks.arm(
      input.fault === 'late_retry'
        ? { kind: 'late_retry', count: input.count, delayMs: input.delay_ms }
        : { kind: input.fault, count: input.count },
    );
    return c.body(null, 204);
  });

  return routes;
}
