/**
 * One payment is one fact. The service tells of a paid payment request in up to three ways: its notification to
 * the request's `webhook`, `payment_request.completed`, and `charge.created` for the charge that paid it (the
 * service's docs suggest `charge.created` for "payment completed"). A business listening to both kinds would be
 * offered `charge.created:<charge>` and `payment_request.completed:<request>` for one payment, and a hook that
 * fulfils on either would ship twice; the return and reconcile only ever know the request. So a charge that
 * belongs to a payment request is offered as that request's event, under the request's fact; only a charge with
 * no request (a saved card's) stays a charge fact of its own.
 */
import { isPaykitError, PaykitError, type PaymentRequest } from '@paykit/core';
import type { MerchantApi } from '../api/merchant-api.js';
import { asUpstreamFailure } from '../handler/error-response.js';
import type { ConfirmedEvent } from './confirmed-event.js';
import { factOf } from '../webhooks/event-rules.js';

/**
 * `event` as the payment of its request when it is a confirmed `charge.created` / `charge.failed` of a request's
 * charge (the request re-fetched, and in the state the charge implies), `event` itself otherwise; `undefined` for
 * a failed attempt at a request that is not failed (still open for another attempt, or paid by one): nothing to
 * act on, the request's own outcome will come.
 */
export async function asPaymentOfRequest(api: MerchantApi, event: ConfirmedEvent): Promise<ConfirmedEvent | undefined> {
  if (event.type !== 'charge.created' && event.type !== 'charge.failed') return event;
  const requestId = event.charge.payment_request_id;
  if (typeof requestId !== 'string' || requestId === '') return event;
  const request = await fetchRequest(api, requestId);
  const paid = event.type === 'charge.created';
  const type = paid ? 'payment_request.completed' : 'payment_request.failed';
  if (request.status !== (paid ? 'completed' : 'failed')) {
    if (!paid) return undefined;
    throw new PaykitError(
      'event_not_confirmed',
      `The webhook says charge ${event.charge.id} paid payment request ${requestId}, but the API says the request is ${request.status}`,
    );
  }
  return {
    type,
    fact: factOf(type, request.id, request.status),
    source: event.source,
    ...(event.deliveredAs === undefined ? {} : { deliveredAs: event.deliveredAs }),
    paymentRequest: request,
    charge: event.charge,
  };
}

async function fetchRequest(api: MerchantApi, id: string): Promise<PaymentRequest> {
  try {
    return await api.getPaymentRequest(id);
  } catch (error) {
    if (isPaykitError(error, 'not_found')) {
      throw new PaykitError('not_found', `The API knows no payment request ${id} of this merchant`, { cause: error });
    }
    throw asUpstreamFailure(error, 'The payment service could not confirm the webhook', ['validation_failed']);
  }
}
