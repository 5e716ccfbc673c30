/**
 * `GET {prefix}/payment-requests/{id}`: the return page's call. The status is the API's, read now with the
 * merchant's credentials; what the return URL's query says is never consulted.
 */
import { isPaykitError, PaykitError, type PaymentStatus } from '@paykit/core';
import { asUpstreamFailure } from '../error-response.js';
import { json } from '../http.js';
import type { MerchantResolver } from '../merchant-resolver.js';

/**
 * The route. `id` is the path segment after `payment-requests/`, URL-decoded; `merchant` the business id of
 * the `merchant` query parameter, on a platform.
 */
export function paymentStatusRoute(merchants: MerchantResolver) {
  return async (id: string, merchant: string | undefined): Promise<Response> => {
    const api = await merchants(merchant);
    try {
      const found = await api.getPaymentRequest(id);
      const status: PaymentStatus = {
        id: found.id,
        status: found.status,
        amount: found.amount,
        currency: found.currency.toUpperCase(),
        // Set by the merchant's own hook, never by the browser: safe to show back to the shopper.
        ...(found.purpose ? { purpose: found.purpose } : {}),
        ...(typeof found.reference_number === 'string' && found.reference_number
          ? { reference: found.reference_number }
          : {}),
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
