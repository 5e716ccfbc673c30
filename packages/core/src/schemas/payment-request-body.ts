/**
 * The body of `POST` and `PUT /v1/payment-requests` as the API takes it: every known field validated as in
 * `paymentRequestCreateSchema`, unknown fields kept and sent on untouched. The real service ignores fields
 * it does not know, so paykit's client must not refuse one the service may know better (the sandbox names
 * them in `X-Sandbox-Warning`). Reached through the operation table (`operations['paymentRequests.create']
 * .request`), which is the one place that says what an operation's body is.
 */
import * as z from 'zod';
import { checkCommission, checkCurrencyDecimals, paymentRequestCreateFields } from './payment-request.js';

/** What `POST /v1/payment-requests` takes: the documented fields checked, any other kept. */
export const paymentRequestCreateBodySchema = z
  .looseObject(paymentRequestCreateFields)
  .superRefine(checkCommission)
  .superRefine(checkCurrencyDecimals);
