/**
 * `GET {prefix}/payment-requests/{id}`: the return page's call. The status is the API's, read now with the
 * merchant's credentials; what the return URL's query says is never consulted.
 *
 * A final status read here is also a fact the shop must act on: the shopper paid and sees a receipt, so the order
 * is fulfilled now, through the same event store as the webhooks (the hook runs once, whichever comes first),
 * instead of waiting for a webhook that may be late or lost. The route needs no login and has no time limit (a
 * return link is bookmarked, shared, restored with the browser's tabs), so whoever asks is not the payer, and a
 * payment older than the event store remembers is shown but not acted on again.
 */
import { isPaykitError, PaykitError, type PaymentRequest } from '@paykit/core';
import type { FactActor } from '../../facts/act-once.js';
import { paymentRequestFact } from '../../facts/payment-request-fact.js';
import { forMerchant, paymentStatusAnswer } from '../answers.js';
import { asUpstreamFailure } from '../error-response.js';
import type { Answer, Exchange } from '../exchange.js';
import { hookContext, json } from '../http.js';
import type { Logger } from '../logger.js';
import type { MerchantResolver } from '../merchant-resolver.js';

/**
 * The route. `id` is the path segment after `payment-requests/`, URL-decoded; `merchant` the business id of
 * the `merchant` query parameter, on a platform.
 */
export function paymentStatusRoute(merchants: MerchantResolver, facts: FactActor, logger: Logger, platform: boolean) {
  return async (exchange: Exchange, id: string, merchant: string | undefined): Promise<Answer> => {
    const api = await merchants(merchant);
    let found: PaymentRequest;
    try {
      found = await api.getPaymentRequest(id);
    } catch (error) {
      if (isPaykitError(error, 'not_found')) {
        throw new PaykitError('not_found', 'No payment was found for this reference.', { cause: error });
      }
      throw asUpstreamFailure(error, 'The payment service could not confirm the payment. Please try again.', [
        'validation_failed',
      ]);
    }
    await recordFact(found, exchange, facts, logger);
    return json({ ...paymentStatusAnswer(found), ...(platform ? forMerchant(merchant) : {}) });
  };
}

/**
 * Acts on the fact the status states, once. The shopper's answer does not wait on the shop's own troubles: a
 * hook that throws or a store that is down is logged, the claim is given back, and the status is answered
 * anyway; the webhooks and the next reconcile sweep will offer the fact again.
 */
async function recordFact(found: PaymentRequest, exchange: Exchange, facts: FactActor, logger: Logger): Promise<void> {
  const event = paymentRequestFact(found, 'return');
  if (event === undefined) return;
  try {
    await facts.act(event, hookContext(exchange));
  } catch (error) {
    logger.error(
      `paykit: onEvent could not act on ${event.fact} learnt from the return; a webhook or reconcile will offer it again`,
      error,
    );
  }
}
