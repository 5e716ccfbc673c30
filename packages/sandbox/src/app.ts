/**
 * The sandbox as a web-standard app: the emulated `/v1` API, the checkout pages and the `/_sandbox` control API.
 */
import { Hono } from 'hono';
import { authenticate } from './auth.js';
import type { SandboxContext } from './context.js';
import type { SandboxEnv } from './env.js';
import { SandboxError } from './errors.js';
import { SANDBOX_CSS } from './pages/layout.js';
import { checkoutPages } from './pages/checkout.js';
import { chargeRoutes } from './routes/charges.js';
import { controlRoutes } from './routes/control.js';
import { paymentRequestRoutes } from './routes/payment-requests.js';

/** Builds the Hono app of one sandbox. */
export function createSandboxApp(sandbox: SandboxContext): Hono {
  const app = new Hono();

  const v1 = new Hono<SandboxEnv>();
  v1.use(async (c, next) => {
    c.set('caller', authenticate(c.req.raw, sandbox.state));
    await next();
  });
  v1.route('/', paymentRequestRoutes(sandbox));
  v1.route('/', chargeRoutes(sandbox));

  app.route('/v1', v1);
  app.route('/_sandbox', controlRoutes(sandbox));
  app.route('/checkout', checkoutPages(sandbox));
  app.get('/_assets/sandbox.css', (c) => c.body(SANDBOX_CSS, 200, { 'content-type': 'text/css; charset=utf-8' }));

  app.notFound((c) =>
    c.json({ message: `No route for ${c.req.method} ${new URL(c.req.url).pathname}`, code: 'not_found' }, 404),
  );
  app.onError((error, c) => {
    if (error instanceof SandboxError) return c.json(error.body(), error.status as 400);
    console.error('[paykit sandbox] unexpected error', error);
    return c.json({ message: 'The sandbox failed unexpectedly; see its log', code: 'internal_error' }, 500);
  });
  return app;
}
