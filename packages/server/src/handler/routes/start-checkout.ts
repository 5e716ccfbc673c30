/**
 * `POST {prefix}/payment-requests`: the pay button's call. The shopper's choice goes through the merchant's
 * hook, which decides the price; the payment request is created with the merchant's credentials; the
 * browser gets back only what it needs to navigate and to show.
 */
import {
  PaykitError,
  parseOrThrow,
  shopperChoiceSchema,
  type CheckoutStarted,
  type PaymentRequestCreateInput,
  type ShopperChoice,
} from '@paykit/core';
import { withChoice } from '../../facts/created-from.js';
import { forMerchant, paymentAnswer } from '../answers.js';
import { asUpstreamFailure } from '../error-response.js';
import type { Answer, Exchange } from '../exchange.js';
import { hookContext, json, readJsonObject, type BodyLimits } from '../http.js';
import { DEFAULT_IDEMPOTENCY_POLICY, defaultIdempotencyScope, runIdempotently } from '../idempotency.js';
import type { IdempotencyStore } from '../idempotency-store.js';
import type { Logger } from '../logger.js';
import type { MerchantResolver } from '../merchant-resolver.js';
import type { PaykitHandlerOptions } from '../options.js';
import { assertChargeable, assertShownPrice, misconfigured, refusesDecidedPrice } from '../price-checks.js';

/**
 * The route. `store` keeps each `Idempotency-Key`'s outcome (shared by every instance when it is a database),
 * per caller: the scope is `options.idempotencyScope` of the request, by default its cookies and authorization.
 */
export function startCheckoutRoute(
  merchants: MerchantResolver,
  options: PaykitHandlerOptions,
  limits: BodyLimits,
  store: IdempotencyStore,
  logger: Logger,
) {
  return async (exchange: Exchange): Promise<Answer> => {
    const body = await readJsonObject(exchange, limits);
    const choice = parseOrThrow(shopperChoiceSchema, body, 'The checkout request');
    const key = exchange.headers.get('idempotency-key');
    const scope = key === null ? undefined : await scopeOf(options, exchange);
    const started = await runIdempotently<CheckoutStarted>({
      store,
      key,
      ...(scope === undefined ? {} : { scope }),
      // Without a key there is nothing to compare the request with.
      fingerprint: key === null ? '' : JSON.stringify(choice),
      work: () => start(merchants, options, choice, exchange, logger),
      policy: DEFAULT_IDEMPOTENCY_POLICY,
      logger,
    });
    return json(started, 201);
  };
}

/** The caller's scope: the merchant's hook, or the default; a hook that answers no text is a bug of the shop. */
async function scopeOf(options: PaykitHandlerOptions, exchange: Exchange): Promise<string> {
  if (!options.idempotencyScope) return defaultIdempotencyScope(exchange);
  const scope: unknown = await options.idempotencyScope(exchange.request());
  if (typeof scope !== 'string') {
    throw new PaykitError('internal_error', `idempotencyScope returned ${typeof scope}, not a string`);
  }
  return scope;
}

async function start(
  merchants: MerchantResolver,
  options: PaykitHandlerOptions,
  choice: ShopperChoice,
  exchange: Exchange,
  logger: Logger,
): Promise<CheckoutStarted> {
  const api = await merchants(choice.merchant);
  const answer = await options.createPaymentRequest(choice, hookContext(exchange));
  // Object.assign (below) sets its target's prototype from a source's own `__proto__` key (JSON.parse makes one),
  // and the schema reads inherited fields: such an answer could give the request a redirect_url or webhook nobody
  // decided.
  if (typeof answer === 'object' && answer !== null && Object.hasOwn(answer, '__proto__')) {
    throw misconfigured(
      'createPaymentRequest returned an object with a "__proto__" key of its own (JSON.parse makes one from text ' +
        "that has it): return the payment request's fields only, for example by picking them from parsed data.",
    );
  }
  // Copied with Object.assign and completed by assignment, not spread: the client's schema (24 fields, each looked up
  // on the body) reads a body made by spreading (`{ ...decided, metadata }`) at about twice the CPU on Node 20, 45
  // against 24 µs per click in bench/cpu-per-request.ts's server, the costliest step of paykit's own work there.
  const decided: PaymentRequestCreateInput = Object.assign(
    {},
    options.returnUrl === undefined ? {} : { redirect_url: withMerchant(options.returnUrl, choice.merchant) },
    options.webhookUrl === undefined ? {} : { webhook: withMerchant(options.webhookUrl, choice.merchant) },
    answer,
  );
  assertChargeable(decided);
  assertShownPrice(choice, decided);
  // Kept with the request, so that the hook learns which order a fact is about on every path (EventContext).
  const metadata = withChoice(decided.metadata, choice);
  if (metadata === undefined) {
    logger.warn(
      "paykit: the shopper's choice does not fit in the payment request's metadata beside createPaymentRequest's " +
        'own keys (50 at most): onEvent gets no context.createdFrom.choice for it',
    );
  }
  try {
    if (metadata !== undefined) decided.metadata = metadata;
    const created = await api.createPaymentRequest(decided);
    // A shop's handler ignores a `merchant` the page sends: only a platform's says which merchant it used.
    return { ...paymentAnswer(created), url: created.url, ...(options.platform ? forMerchant(choice.merchant) : {}) };
  } catch (error) {
    // The API (or the client's schema before it) refusing the hook's own price is the shop's to fix.
    if (refusesDecidedPrice(error)) {
      const fields = error.errors!.map((field) => `${field.path} ${field.message}`).join('; ');
      throw misconfigured(`the Payments API refused the price createPaymentRequest decided: ${fields}`, error);
    }
    // A field error is about what the shopper entered (an email, say) or what the hook decided; either way the
    // shopper reads it. Anything else is the shop's problem with the API, described without the API's words.
    throw asUpstreamFailure(error, 'The payment service could not start the checkout. Please try again.', [
      'validation_failed',
    ]);
  }
}

/**
 * The return page's or the webhook's URL; on a platform it names the merchant, so that the status is asked of the
 * right one, and a payment notification (whose fields name no business) is confirmed with the right credentials.
 */
function withMerchant(base: string, merchant: string | undefined): string {
  if (merchant === undefined) return base;
  const url = new URL(base);
  url.searchParams.set('merchant', merchant);
  return url.href;
}
