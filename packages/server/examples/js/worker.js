/**
 * A shop's paykit handler as a Cloudflare Worker, its state in PostgreSQL through `pg` over Workers' TCP
 * sockets. The stores are opened for each request and closed after it: a Worker's connections cannot outlive
 * the request that opened them. Needs `compatibility_flags = ["nodejs_compat"]` (for pg). The runtime matrix
 * bundles this file as wrangler does and runs it in workerd (Miniflare) against the sandbox and a PostgreSQL.
 *
 *   npm install @paykit/server pg
 *   wrangler dev worker.ts   # with PAYMENTS_API_URL, PAYMENTS_API_KEY, PAYMENTS_SALT, PUBLIC_ORIGIN, DATABASE_URL,
 *                            # CONNECTIONS_KEY as vars and secrets
 */
import { createPaykitHandler, PaykitError } from '@paykit/server';
import { createPostgresStores } from '@paykit/server/postgres';

/** The Worker's vars and secrets. */

/** What a Worker's `fetch` is given beside the request (the part used here). */

/** The shop's prices: the only place a price comes from. */
const PRICES = { 'sku-mug': 12.5, 'sku-tee': 30 };

export default {
  async fetch(request, env, ctx) {
    const stores = await createPostgresStores({
      connectionString: env.DATABASE_URL,
      encryptionKey: env.CONNECTIONS_KEY,
    });
    try {
      const paykit = createPaykitHandler({
        api: { apiBaseUrl: env.PAYMENTS_API_URL, apiKey: env.PAYMENTS_API_KEY },
        // The shop's address as shoppers' browsers show it (a var): http://localhost:8787 under wrangler dev.
        publicOrigin: env.PUBLIC_ORIGIN,
        returnUrl: `${env.PUBLIC_ORIGIN}/thanks`,
        webhookUrl: `${env.PUBLIC_ORIGIN}/paykit/webhooks`,
        webhookSalt: env.PAYMENTS_SALT,
        eventStore: stores.events,
        idempotencyStore: stores.idempotency,
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
      return await paykit(request);
    } finally {
      ctx.waitUntil(stores.close());
    }
  },
};
