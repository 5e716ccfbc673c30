/**
 * The answers the handler's routes send the elements, built here once from the shapes in core's
 * `handler-routes.ts`: a field added there is a type error here, and nowhere else on the server.
 */
import type { ConnectedBusinessAnswer, ForMerchant, PaymentAnswer, PaymentRequest, PaymentStatus } from '@paykit/core';

/** `{ id, status, amount, currency }` of a payment request, the currency in capitals (the API's may not be). */
export function paymentAnswer(found: PaymentRequest): PaymentAnswer {
  return { id: found.id, status: found.status, amount: found.amount, currency: found.currency.toUpperCase() };
}

/** What the return page is told: the status and what it may show, nothing else of the payment request. */
export function paymentStatusAnswer(found: PaymentRequest): PaymentStatus {
  return {
    ...paymentAnswer(found),
    // Set by the merchant's own hook, never by the browser: safe to show back to the shopper.
    ...(found.purpose ? { purpose: found.purpose } : {}),
    ...(typeof found.reference_number === 'string' && found.reference_number
      ? { reference: found.reference_number }
      : {}),
  };
}

/**
 * On a platform, the merchant a payment request was created for or read with (the resolver has checked that it
 * is connected): the API's answer names no business, so the handler says which one it used.
 */
export function forMerchant(merchant: string | undefined): ForMerchant {
  return merchant === undefined ? {} : { merchant };
}

/** The connected business's public profile: no other field of the API's answer reaches the browser. */
export function connectedBusinessAnswer(business: ConnectedBusinessAnswer): ConnectedBusinessAnswer {
  const { id, name, country, currency, payments_enabled } = business;
  return { id, name, country, currency, payments_enabled };
}
