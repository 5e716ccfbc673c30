/**
 * The authorization server's clock: a test moves it forward instead of waiting for a code or a token to expire or
 * for the token endpoint's rate-limit window to reopen.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { SandboxContext } from '../../context.js';
import { controlBody } from './body.js';

const clockBody = z.strictObject({
  advance_seconds: z
    .number()
    .positive()
    .max(10 * 365 * 86_400),
});

/** `POST /_sandbox/clock` `{ advance_seconds }`: answers the new time. */
export function clockRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { oauth } = sandbox;

  routes.post('/clock', async (c) => {
    const input = await controlBody(clockBody, c.req.raw);
    oauth.advance(input.advance_seconds * 1000);
    return c.json({ now: new Date(oauth.now()).toISOString() });
  });

  return routes;
}
