/**
 * The paykit handler as a Next.js App Router route handler: every method under /paykit (the handler's default
 * prefix) is handed to it as the web-standard Request it is. The pay button posts here, the return page reads
 * the status here, and the API sends its webhooks here.
 */
import { createPaykitHandler, PaykitError } from '@paykit/server';
import { FileEventStore } from '@paykit/server/files';

// Never prerendered nor cached: every call is a shopper's or the API's, answered now.
export const dynamic = 'force-dynamic';

/** The shop's prices: the only place a price comes from. */
const PRICES = { 'sku-mug': 12.5, 'sku-tee': 30 };

function setting(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

let paykit;

/**
 * The handler, made at the first request rather than when the module loads: `next build` loads this module to
 * collect its routes, where the shop's secrets need not be set.
 */
function handler() {
  paykit ??= createPaykitHandler({
    api: { apiBaseUrl: setting('PAYMENTS_API_URL'), apiKey: setting('PAYMENTS_API_KEY') },
    // The address shoppers open the shop at, as the browser shows it: locally PUBLIC_ORIGIN=http://127.0.0.1:3000
    // (next start's), in production your https origin. Pages of any other origin are refused (and logged, once).
    publicOrigin: setting('PUBLIC_ORIGIN'),
    returnUrl: `${setting('PUBLIC_ORIGIN')}/thanks`,
    webhookUrl: `${setting('PUBLIC_ORIGIN')}/paykit/webhooks`,
    webhookSalt: setting('PAYMENTS_SALT'),
    // Which payments were acted on, kept across restarts of this one `next start` process (`next start` in
    // production refuses a store in memory). Several instances or a serverless host: createPostgresStores().
    eventStore: new FileEventStore({ path: process.env.PAYKIT_EVENTS_FILE ?? '.paykit/events.jsonl' }),
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
  return paykit;
}

/** Every method the handler answers (OPTIONS too, with its CORS headers), handed the Request as it came. */
export function GET(request) {
  return handler()(request);
}
export { GET as POST, GET as OPTIONS };
