/**
 * Connections between a platform's app and a merchant's business (spec 4.9, 5.3): approving one as the consent
 * page's Connect button would, without a browser, and revoking one as the merchant would on the dashboard.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { SandboxContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { approve, checkAuthorizeRequest, RedirectError } from '../../oauth/authorize.js';
import { OAuthError } from '../../oauth/oauth-error.js';
import { controlBody } from './body.js';

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

/** `POST /_sandbox/oauth/approve` and `POST /_sandbox/connections/revoke`. */
export function connectionRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { oauth } = sandbox;

  /**
   * 200 `{ redirect }`: where Connect would send the browser. A request the consent page would refuse is answered
   * 400 with the RFC 6749 body `{ error, error_description }` the client would have read, whether the page would
   * have redirected it (`invalid_scope`, ...) or shown it (`invalid_client`, a redirect URI not registered).
   */
  routes.post('/oauth/approve', async (c) => {
    const input = await controlBody(approveBody, c.req.raw);
    const user = oauth.users.get(input.user_id);
    if (!user) throw notFound('User not found');
    const { user_id: _user, business_id: businessId, ...query } = input;
    try {
      const request = checkAuthorizeRequest(oauth, { response_type: 'code', ...query });
      return c.json({ redirect: approve(oauth, request, user, businessId, sandbox.publicUrl()) });
    } catch (error) {
      if (error instanceof RedirectError) throw new OAuthError(400, error.error, error.description);
      throw error;
    }
  });

  routes.post('/connections/revoke', async (c) => {
    const input = await controlBody(connectionBody, c.req.raw);
    // Idempotent: revoking what is not connected is already done. No notification goes out (spec 6 rule 5).
    oauth.revokeConnection(input.business_id, input.client_id);
    return c.body(null, 204);
  });

  return routes;
}
