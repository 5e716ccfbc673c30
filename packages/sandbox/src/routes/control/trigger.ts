/**
 * `POST /_sandbox/webhooks/trigger`: sends one event of a business on demand, about an object that exists or a
 * fresh one made for it, in every format the service uses for it (`webhooks/trigger.ts`); and
 * `GET /_sandbox/businesses/{id}/salt`, the salt a receiver checks those deliveries with (`paykit-sandbox trigger
 * --print-salt`), as the service's dashboard shows it beside the API key.
 */
import { webUrl } from '@paykit/core';
import { Hono } from 'hono';
import * as z from 'zod';
import type { SandboxContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { triggerEvent } from '../../webhooks/trigger.js';
import { controlBody } from './body.js';

// `event_type` is any text here: `triggerEvent` refuses an unknown one with the list of those it can send.
const triggerBody = z.strictObject({
  business_id: z.string().min(1, 'must name a business'),
  event_type: z.string().min(1, 'must name an event, e.g. charge.created'),
  object_id: z.string().min(1, 'must not be empty').optional(),
  url: webUrl.optional(),
});

/**
 * `POST /_sandbox/webhooks/trigger` `{ business_id, event_type, object_id?, url? }`: 200 what was sent.
 * `GET /_sandbox/businesses/{id}/salt`: 200 `{ business_id, salt }`.
 */
export function triggerRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  routes.get('/businesses/:id/salt', (c) => {
    const business = sandbox.state.businesses.get(c.req.param('id'));
    if (!business) throw notFound(`No business ${c.req.param('id')}`);
    return c.json({ business_id: business.id, salt: business.salt });
  });
  routes.post('/webhooks/trigger', async (c) => {
    const input = await controlBody(triggerBody, c.req.raw);
    return c.json(await triggerEvent(sandbox, input));
  });
  return routes;
}
