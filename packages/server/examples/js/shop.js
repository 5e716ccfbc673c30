/**
 * The shop every runtime example serves (Bun, Deno, Hono on Node, a Worker): its prices and its paykit options.
 * Each example file adds only what its host does its own way: how it reads its settings, how it serves, and the
 * stores a Worker needs. A real shop keeps such a module too, so that its hooks are the same wherever it runs.
 */
import { PaykitError } from '@paykit/server';

/** The shop's prices: the only place a price comes from (the page's is checked against it, never taken from it). */
const PRICES = { 'sku-mug': 12.5, 'sku-tee': 30 };

/** Reads one setting of the shop (an environment variable, a Worker's var or secret); undefined when not set. */

/**
 * The shop's handler options, from its settings: PAYMENTS_API_URL, PAYMENTS_API_KEY, PAYMENTS_SALT (the
 * business's webhook salt) and PUBLIC_ORIGIN: the address shoppers open the shop at, as the browser shows it
 * (locally the example's own, such as http://127.0.0.1:3000; in production your https origin). The handler
 * refuses pages of any other origin (and logs which, once). A setting that is not there stops the start, named.
 */
export function shopOptions(read) {
  const setting = (name) => {
    const value = read(name);
    if (!value) throw new Error(`${name} is not set`);
    return value;
  };
  const origin = setting('PUBLIC_ORIGIN');
  return {
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
  };
}
