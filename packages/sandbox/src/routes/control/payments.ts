/**
 * Paying a payment request without the checkout page: what a shopper would do there, in one call, so that a test
 * of the merchant's side need not drive a browser.
 */
import { Hono } from 'hono';
import * as z from 'zod';
import type { SandboxContext } from '../../context.js';
import { notFound } from '../../errors.js';
import { completePayment } from '../../payments.js';
import { paymentRequestJson } from '../../serialize.js';
import { controlBody } from './body.js';

const payBody = z.strictObject({
  outcome: z.enum(['succeeded', 'failed']),
  payment_method: z.string().optional(),
});

/** `POST /_sandbox/payment-requests/{id}/pay`: completes the request as the checkout page would. */
export function paymentRoutes(sandbox: SandboxContext): Hono {
  const routes = new Hono();
  const { state } = sandbox;

  routes.post('/payment-requests/:id/pay', async (c) => {
    const input = await controlBody(payBody, c.req.raw);
    const request = state.paymentRequests.get(c.req.param('id'));
    if (!request) throw notFound('Payment request not found');
    completePayment(sandbox, request, input.outcome, input.payment_method);
    return c.json(paymentRequestJson(request, sandbox.publicUrl()));
  });

  return routes;
}
