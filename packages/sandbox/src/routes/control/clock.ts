/**
 * The clocks. `POST /_sandbox/clock` moves the authorization server's clock (codes, tokens, the token endpoint's
 * rate-limit window), as it always did: stamps and schedules do not follow it. `GET /_sandbox/businesses/{id}/clock`
 * reads one business's clock and
 * `POST /_sandbox/businesses/{id}/clock/advance` moves it forward alone, answering what happened on the way
 * (`timeline.ts`). A clock never goes back.
 */
import { PaykitError } from '@paykit/core';
import { Hono } from 'hono';
import * as z from 'zod';
import type { SandboxContext } from '../../context.js';
import { advanceClock } from '../../timeline.js';
import { businessOf } from './businesses.js';
import { controlBody } from './body.js';

/** How far one call may move a clock: ten years, beyond any lifetime or cycle the API has. */
const MAX_SECONDS = 10 * 366 * 86_400;

const clockBody = z.strictObject({
  advance_seconds: z.number().positive().max(MAX_SECONDS),
});

const advanceBody = z
  .strictObject({
    seconds: z.number().int().positive().max(MAX_SECONDS).optional(),
    to: z.iso.datetime({ offset: true }).optional(),
  })
  .refine((body) => (body.seconds === undefined) !== (body.to === undefined), {
    path: ['seconds'],
    message: 'give either seconds (how far) or to (until when), one of the two',
  });

/** `POST /_sandbox/clock`, and the business clocks' read and advance. */
export function clockRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { oauth, clocks, state } = sandbox;

  routes.post('/clock', async (c) => {
    const input = await controlBody(clockBody, c.req.raw);
    oauth.advance(input.advance_seconds * 1000);
    return c.json({ now: new Date(oauth.now()).toISOString() });
  });

  routes.get('/businesses/:id/clock', (c) => {
    const business = businessOf(state, c.req.param('id'));
    return c.json({ business_id: business.id, now: clocks.now(business.id).toISOString() });
  });

  routes.post('/businesses/:id/clock/advance', async (c) => {
    const business = businessOf(state, c.req.param('id'));
    const input = await controlBody(advanceBody, c.req.raw);
    const from = clocks.nowMs(business.id);
    const to = input.seconds === undefined ? Date.parse(input.to ?? '') : from + input.seconds * 1000;
    checkAdvance(from, to, { field: 'to', given: input.to });
    const happened = await advanceClock(sandbox, business.id, to);
    return c.json({ business_id: business.id, from: iso(from), now: clocks.now(business.id).toISOString(), happened });
  });

  return routes;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Refuses an advance from `fromMs` to `toMs` that would not move the clock forward, or would move it more than ten
 * years at once: 422 `validation_failed` whose error is on `field`. `given` is the target as it was written, for
 * the message. The control route and the dashboard's clock page both check with it.
 */
export function checkAdvance(fromMs: number, toMs: number, where: { field: string; given?: string | undefined }): void {
  if (!(toMs > fromMs)) {
    const given = where.given ?? iso(toMs);
    throw new PaykitError('validation_failed', `A clock only moves forward: ${given} is not after ${iso(fromMs)}`, {
      errors: [{ path: where.field, message: `must be after the business's now, ${iso(fromMs)}` }],
    });
  }
  if (toMs - fromMs > MAX_SECONDS * 1000) {
    throw new PaykitError('validation_failed', 'A clock moves at most ten years at a time', {
      errors: [{ path: where.field, message: 'must be at most ten years after now' }],
    });
  }
}
