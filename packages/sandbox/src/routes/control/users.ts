/**
 * Dashboard users (spec 4.9): who may sign in to the sandbox's dashboard and approve a connection, with their role
 * in each business. The seed has one; a test adds members or admins of its own businesses here.
 */
import { PaykitError } from '@paykit/core';
import { Hono } from 'hono';
import * as z from 'zod';
import type { SandboxContext } from '../../context.js';
import { businessOf } from './businesses.js';
import { controlBody } from './body.js';

const userBody = z.strictObject({
  email: z.email(),
  name: z.string().min(1).max(100),
  memberships: z.array(z.strictObject({ business_id: z.string(), role: z.enum(['owner', 'admin', 'member']) })),
});

/** `POST /_sandbox/users`. */
export function userRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { state, oauth } = sandbox;

  routes.post('/users', async (c) => {
    const input = await controlBody(userBody, c.req.raw);
    for (const m of input.memberships) businessOf(state, m.business_id);
    if (oauth.userByEmail(input.email)) throw new PaykitError('conflict', 'A user with this email exists');
    const user = oauth.createUser({
      email: input.email,
      name: input.name,
      memberships: input.memberships.map((m) => ({ businessId: m.business_id, role: m.role })),
    });
    return c.json({ id: user.id }, 201);
  });

  return routes;
}
