/**
 * Businesses: the merchants and platforms a test makes, each with its API key (and platform key), and their
 * available balance.
 */
import { formatMinor, requestCurrency } from '@paykit/core';
import { Hono } from 'hono';
import * as z from 'zod';
import type { SandboxContext } from '../../context.js';
import { notFound } from '../../errors.js';
import type { Business, SandboxState } from '../../state.js';
import { controlBody } from './body.js';

const businessBody = z.strictObject({
  name: z.string().min(1).max(100),
  country: z.string().regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code'),
  // Core's rule for a currency in a request; the business stores it in lower case, as records carry it.
  currency: requestCurrency,
  platform: z.boolean().optional(),
});

/** The business with this id, or 404: every control route that names a business checks it here. */
export function businessOf(state: SandboxState, id: string): Business {
  const found = state.businesses.get(id);
  if (!found) throw notFound('Business not found');
  return found;
}

/** `POST /_sandbox/businesses` and `GET /_sandbox/businesses/{id}/balance`. */
export function businessRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { state } = sandbox;

  routes.post('/businesses', async (c) => {
    const input = await controlBody(businessBody, c.req.raw);
    const business = state.createBusiness({ ...input, platform: input.platform ?? false });
    return c.json(
      { id: business.id, api_key: business.apiKey, platform_key: business.platformKey, salt: business.salt },
      201,
    );
  });

  routes.get('/businesses/:id/balance', (c) => {
    const business = businessOf(state, c.req.param('id'));
    const minor = state.ledger.balanceMinor(business.id);
    return c.json({ business_id: business.id, available: formatMinor(minor), currency: business.currency });
  });

  return routes;
}
