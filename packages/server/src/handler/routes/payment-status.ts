/**
 * `GET {prefix}/payment-requests/{id}`: the return page's call. The status is the API's, read now with the
 * merchant's credentials; what the return URL's query says is never consulted.
 */
import { isPaykitError, PaykitError, type PaymentStatus } from '@paykit/core';
import type { MerchantApi } from '../../api/merchant-api.js';
import { asUpstreamFailure } from '../error-response.js';
import { json } from '../http.js';

/** The route. `id` is the raw path segment after `payment-requests/`, already URL-decoded. */
export function paymentStatusRoute(api: MerchantApi) {
  return async (id: string): Promise<Response> => {
    try {
      const found = await api.getPaymentRequest(id);
      const status: PaymentStatus = {
        id: found.id,
        status: found.status,
        amount: found.amount,
        currency: found.currency.toUpperCase(),
      };
      return json(status);
    } catch (error) {
      if (isPaykitError(error, 'not_found')) {
        throw new PaykitError('not_found', 'No payment was found for this reference.', { cause: error });
      }
      throw asUpstreamFailure(error, 'The payment service could not confirm the payment. Please try again.', [
        'validation_failed',
      ]);
    }
  };
}
