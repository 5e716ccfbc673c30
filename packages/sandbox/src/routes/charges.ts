/**
 * `/v1/charges` (spec 4.10): list and read. The charge record is not shown by the spec; see core's `chargeSchema`.
 * Saved cards and their charges (`/v1/recurring-billing`, `/v1/charge/recurring-billing/{id}`) are mounted
 * here from `recurring-billing.ts`.
 */
import { Hono } from 'hono';
import type { SandboxContext } from '../context.js';
import type { SandboxEnv } from '../env.js';
import { notFound } from '../errors.js';
import { cursorList, readPageSize } from '../paginate.js';
import { chargeJson } from '../serialize.js';
import { recurringBillingRoutes } from './recurring-billing.js';

/** The charge routes, mounted under `/v1` behind authentication. */
export function chargeRoutes(sandbox: SandboxContext) {
  const routes = new Hono<SandboxEnv>();

  routes.get('/charges', (c) => {
    const businessId = c.get('caller').business.id;
    const mine = [...sandbox.state.charges.values()].filter((r) => r.businessId === businessId).reverse();
    // The service's cursor list (its charges OpenAPI: links, meta.path, per_page a number, 25 unless asked).
    const page = cursorList(mine, (r) => r.id, {
      cursor: c.req.query('cursor'),
      perPage: readPageSize(c.req.query('per_page'), 'per_page', 25),
      cursorName: 'cursor',
      url: c.req.url,
    });
    return c.json({ ...page, data: page.data.map(chargeJson) });
  });

  routes.get('/charges/:id', (c) => {
    const charge = sandbox.state.charges.get(c.req.param('id'));
    if (!charge || charge.businessId !== c.get('caller').business.id) throw notFound('Charge not found');
    return c.json(chargeJson(charge));
  });

  // Mounted before money.ts's older saved-card routes (app.ts mounts charges first), so these answer.
  routes.route('/', recurringBillingRoutes(sandbox));

  return routes;
}
