/**
 * A shop's paykit handler on Bun: `Bun.serve` hands every request to it (the routes are under /paykit; a real
 * shop serves its pages beside them). The runtime matrix runs this file on Bun against the sandbox.
 *
 *   bun add @paykit/server
 *   PAYMENTS_API_URL=http://127.0.0.1:4010 PAYMENTS_API_KEY=sandbox_api_key_demo_store \
 *   PAYMENTS_SALT=sandbox_salt_demo_store PUBLIC_ORIGIN=http://127.0.0.1:3000 bun bun.ts
 */
import { createPaykitHandler, PaykitError } from '@paykit/server';

function setting(name) {
  const value = Bun.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** The shop's prices: the only place a price comes from. */
const PRICES = { 'sku-mug': 12.5, 'sku-tee': 30 };
// The address shoppers open the shop at, as the browser shows it: locally PUBLIC_ORIGIN=http://127.0.0.1:3000,
// in production your https origin. The handler refuses pages of any other origin (and logs which, once).
const origin = setting('PUBLIC_ORIGIN');

const paykit = createPaykitHandler({
  api: { apiBaseUrl: setting('PAYMENTS_API_URL'), apiKey: setting('PAYMENTS_API_KEY') },
  publicOrigin: origin,
  returnUrl: `${origin}/thanks`,
  webhookUrl: `${origin}/paykit/webhooks`,
  webhookSalt: setting('PAYMENTS_SALT'),
  createPaymentRequest: (choice) => {
    const amount = PRICES[choice.reference ?? ''];
    if (amount === undefined) {
      throw new PaykitError('validation_failed', 'This product is not for sale', {
        errors: [{ path: 'reference', message: 'is not a product' }],
      });
    }
    return { amount, currency: 'SGD' };
  },
  onEvent: (event) => {
    if (event.type === 'payment_request.completed') console.log(`paid: ${event.paymentRequest.id}`);
  },
});

const server = Bun.serve({ hostname: '127.0.0.1', port: Number(Bun.env.PORT ?? 3000), fetch: paykit });
console.log(`listening on http://127.0.0.1:${server.port}`);
