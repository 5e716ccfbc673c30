/**
 * The sandbox as a web-standard app: the emulated `/v1` API, the checkout pages and the `/_sandbox` control API.
 */
import { httpStatusOf, OAUTH_TOKEN_PATH, PaykitError } from '@paykit/core';
import { Hono } from 'hono';
import { operationHandlers } from './api/handlers.js';
import { mountOperations } from './api/mount.js';
import { authenticate, authorize } from './auth.js';
import { bodyLimitMiddleware } from './body.js';
import type { SandboxContext } from './context.js';
import type { SandboxEnv } from './env.js';
import { bearerChallengeHeader, BearerTokenError, sandboxErrorBody } from './errors.js';
import { OAuthError, oauthErrorBody } from './oauth/oauth-error.js';
import { SANDBOX_CSS } from './pages/styles.js';
import { DROP_IN_FRAME_SCRIPT_PATH } from './pages/drop-in.js';
import { DROP_IN_FRAME_JS } from './pages/drop-in-frame-script.js';
import { HITPAY_JS } from './pages/drop-in-script.js';
import { checkoutPages } from './pages/checkout.js';
import { controlRoutes } from './routes/control/index.js';
import { oauthTokenRoute } from './routes/oauth-token.js';
import { METADATA_PATH, oauthMetadataRoute } from './routes/oauth-metadata.js';
import { terminalPages } from './pages/terminal.js';
import { authorizePages } from './pages/authorize.js';
import { dashboardPages } from './pages/dashboard.js';
import { faultMiddleware } from './faults.js';
import { faultRoutes } from './routes/faults.js';
import { METHOD_ICONS_PATH, methodIconRoutes } from './method-icons.js';

/** Builds the Hono app of one sandbox. */
export function createSandboxApp(sandbox: SandboxContext): Hono {
  const app = new Hono();
  app.use(faultMiddleware(sandbox.faults));
  app.use(bodyLimitMiddleware());

  const v1 = new Hono<SandboxEnv>();
  v1.use(async (c, next) => {
    const caller = authenticate(c.req.raw, sandbox.state, sandbox.oauth);
    authorize(caller, c.req.method, new URL(c.req.url).pathname.replace(/^\/v1/, ''));
    c.set('caller', caller);
    await next();
  });
  mountOperations(v1, operationHandlers(sandbox));

  // The token endpoint takes client credentials in its body, not the /v1 headers: mounted before /v1.
  app.route(OAUTH_TOKEN_PATH, oauthTokenRoute(sandbox));
  app.route('/v1', v1);
  app.route(METADATA_PATH, oauthMetadataRoute(sandbox));
  app.route('/oauth', authorizePages(sandbox));
  app.route('/dashboard', dashboardPages(sandbox));
  app.route('/_sandbox/faults', faultRoutes(sandbox));
  app.route('/_sandbox', controlRoutes(sandbox));
  app.route('/checkout', checkoutPages(sandbox));
  app.route('/terminal', terminalPages(sandbox));
  // The images of the logo URLs a charge's payment_method carries (method-icons.ts).
  app.route(METHOD_ICONS_PATH, methodIconRoutes());
  // The hosted pages' policies report here (CSP_REPORT in pages/layout.ts); kept for tests and `GET` to read.
  app.post('/_sandbox/csp-reports', async (c) => {
    let report: unknown = null;
    try {
      report = JSON.parse(await c.req.text());
    } catch {
      // Kept as null: a report that is not JSON still says a browser saw a violation.
    }
    sandbox.cspReports.push(report);
    sandbox.cspReports.splice(0, Math.max(0, sandbox.cspReports.length - 100));
    return c.body(null, 204);
  });
  app.get('/_sandbox/csp-reports', (c) => c.json(sandbox.cspReports));
  app.get('/_assets/sandbox.css', (c) => c.body(SANDBOX_CSS, 200, { 'content-type': 'text/css; charset=utf-8' }));
  // The drop-in script at the service's path, for merchants' pages (any origin: a classic script needs no CORS; the
  // resource policy lets a page that requires it, COEP, load it), and the script of the checkout's drop-in mode.
  app.get('/hitpay.js', (c) =>
    c.body(HITPAY_JS, 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'cross-origin',
    }),
  );
  app.get(DROP_IN_FRAME_SCRIPT_PATH, (c) =>
    c.body(DROP_IN_FRAME_JS, 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'x-content-type-options': 'nosniff',
    }),
  );

  app.notFound((c) =>
    c.json({ message: `No route for ${c.req.method} ${new URL(c.req.url).pathname}`, code: 'not_found' }, 404),
  );
  // The one place a failure becomes an answer: the status from the code (core's table, as the server's handler),
  // the body in the real service's shape, and the Bearer challenge when a token was refused (RFC 6750 section 3).
  app.onError((error, c) => {
    if (error instanceof PaykitError && error.code !== 'internal_error') {
      const headers: Record<string, string> = {};
      if (error instanceof BearerTokenError) headers['www-authenticate'] = bearerChallengeHeader(error.challenge);
      if (error.retryAfterSeconds !== undefined) headers['retry-after'] = String(Math.ceil(error.retryAfterSeconds));
      return c.json(sandboxErrorBody(error), httpStatusOf(error.code), headers);
    }
    // Thrown by the checks of an authorization request that `POST /_sandbox/oauth/approve` runs.
    if (error instanceof OAuthError) return c.json(oauthErrorBody(error), error.status);
    // The sandbox's only log line: a bug in the emulator, for the person running it.
    // eslint-disable-next-line no-console
    console.error('[paykit sandbox] unexpected error', error);
    return c.json({ message: 'The sandbox failed unexpectedly; see its log', code: 'internal_error' }, 500);
  });
  return app;
}
