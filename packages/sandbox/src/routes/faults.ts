/**
 * `/_sandbox/faults`: arm and clear injected faults (see `faults.ts`).
 */
import { Hono } from 'hono';
import * as z from 'zod';
import { parseBody } from '../body.js';
import type { SandboxContext } from '../context.js';
import { FAULT_KINDS } from '../faults.js';
import { newId } from '../ids.js';

const faultBody = z.strictObject({
  path: z.string().startsWith('/', 'must be a path such as /v1/payment-requests'),
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE']).optional(),
  kind: z.enum(FAULT_KINDS),
  status: z.number().int().min(400).max(599).optional(),
  delay_ms: z.number().int().min(0).max(120_000).optional(),
  retry_after: z.number().int().min(0).max(3600).optional(),
  times: z.number().int().min(1).max(10_000).optional(),
});

/** The routes. */
export function faultRoutes(sandbox: SandboxContext) {
  const routes = new Hono();
  routes.post('/', async (c) => {
    // The control API takes JSON only: a test or the demo sends it, never a browser form.
    const input = await parseBody(faultBody, c.req.raw, { what: 'Fault', accept: ['json'] });
    const fault = {
      id: newId(),
      method: input.method,
      path: input.path,
      kind: input.kind,
      status: input.status ?? 503,
      delayMs: input.delay_ms ?? 0,
      retryAfter: input.retry_after ?? 1,
      remaining: input.times ?? 1,
    };
    sandbox.faults.armed.push(fault);
    return c.json({ id: fault.id, remaining: fault.remaining }, 201);
  });
  routes.delete('/', (c) => {
    sandbox.faults.reset();
    return c.body(null, 204);
  });
  return routes;
}
