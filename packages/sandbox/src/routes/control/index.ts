/**
 * The control API of the sandbox, outside `/v1`: what a test or the demo needs to set up and to move time
 * along. No authentication: the sandbox listens on loopback only. One file per concept; this one mounts them and
 * owns the reset, which touches all of them.
 */
import { Hono } from 'hono';
import type { SandboxContext } from '../../context.js';
import { appRoutes } from './apps.js';
import { businessRoutes } from './businesses.js';
import { clockRoutes } from './clock.js';
import { connectionRoutes } from './connections.js';
import { paymentRoutes } from './payments.js';
import { payoutRoutes } from './payouts.js';
import { recordRoutes } from './records.js';
import { triggerRoutes } from './trigger.js';
import { userRoutes } from './users.js';
import { webhookDeliveryRoutes } from './webhook-deliveries.js';
import { webhookRoutes } from './webhooks.js';

/** The `/_sandbox` routes (mounted by the app; `/_sandbox/faults` is `routes/faults.ts`). */
export function controlRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  for (const concern of [
    businessRoutes,
    webhookRoutes,
    webhookDeliveryRoutes,
    paymentRoutes,
    payoutRoutes,
    recordRoutes,
    userRoutes,
    appRoutes,
    connectionRoutes,
    clockRoutes,
    triggerRoutes,
  ]) {
    routes.route('/', concern(sandbox));
  }

  // Back to the seed: state, OAuth, clocks, deliveries, rate-limit counters, armed faults and CSP reports, so that tests
  // start equal.
  routes.post('/reset', (c) => {
    sandbox.cspReports.length = 0;
    sandbox.webhooks.reset();
    sandbox.state.reset();
    sandbox.oauth.reset();
    sandbox.clocks.reset();
    sandbox.tokenRateLimit.reset();
    sandbox.faults.reset();
    return c.body(null, 204);
  });

  return routes;
}
