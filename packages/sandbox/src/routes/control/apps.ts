/**
 * OAuth apps (spec 5.3): a platform's client id and secret, its redirect URIs and the scopes it was granted. The
 * real service's app review (spec 5.2 rule 4) is a call here that grants scopes at once.
 */
import { SCOPES, webUrl } from '@paykit/core';
import { Hono } from 'hono';
import * as z from 'zod';
import type { SandboxContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { businessOf } from './businesses.js';
import { controlBody } from './body.js';

const appBody = z.strictObject({
  business_id: z.string(),
  name: z.string().min(1).max(100),
  redirect_uris: z.array(webUrl).min(1, 'must name at least one redirect URI'),
  scopes: z.array(z.enum(SCOPES)).optional(),
});

const appScopesBody = z.strictObject({ scopes: z.array(z.enum(SCOPES)) });

/** `POST /_sandbox/apps`, `POST /_sandbox/apps/{id}/secret`, `PUT /_sandbox/apps/{id}/scopes`, `DELETE /_sandbox/apps/{id}`. */
export function appRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { state, oauth } = sandbox;

  routes.post('/apps', async (c) => {
    const input = await controlBody(appBody, c.req.raw);
    businessOf(state, input.business_id);
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
    const input = await controlBody(appScopesBody, c.req.raw);
    const app = oauth.setAppScopes(c.req.param('clientId'), input.scopes);
    if (!app) throw notFound('App not found');
    return c.json({ client_id: app.clientId, scopes: app.scopes });
  });

  routes.delete('/apps/:clientId', (c) => {
    if (!oauth.deleteApp(c.req.param('clientId'))) throw notFound('App not found');
    return c.body(null, 204);
  });

  return routes;
}
