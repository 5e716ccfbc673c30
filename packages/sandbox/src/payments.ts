/**
 * What happens when a shopper pays or fails on the checkout page (or a test says so): a charge is written,
 * the payment request moves to its final status, and the events of spec section 6 go out.
 */
import { minorToMajor, PaykitError } from '@paykit/core';
import { isoWithoutOffset } from './clock.js';
import { paymentRequestCharge } from './charge-records.js';
import { createSavedCardRecord, saveCard } from './saved-cards.js';
import { chargeJson, paymentRequestJson } from './serialize.js';
import type { SandboxContext } from './context.js';
import type { ChargeRecord, PaymentRequestRecord } from './state.js';

/** How the shopper's attempt ended. */
export type PaymentOutcome = 'succeeded' | 'failed';

/**
 * Completes a pending payment request. Events: `charge.created` then `charge.updated` (succeeded) or
 * `charge.failed`, then `payment_request.completed` or `payment_request.failed`. Charge events of a request
 * made with a platform key go to the platform's endpoints instead of the merchant's (spec 6, unified stream).
 */
export function completePayment(
  sandbox: SandboxContext,
  request: PaymentRequestRecord,
  outcome: PaymentOutcome,
  method?: string,
): ChargeRecord {
  if (request.status !== 'pending') {
    throw new PaykitError('conflict', `The payment request is already ${request.status}`);
  }
  const now = new Date();
  const charge: ChargeRecord = paymentRequestCharge(
    request,
    method && request.paymentMethods.includes(method) ? method : (request.paymentMethods[0] ?? 'card'),
    now,
  );
  sandbox.state.charges.set(charge.id, charge);
  const { state, webhooks } = sandbox;
  const chargeTargets = state.endpointsOf(request.platformBusinessId ?? request.businessId).map((e) => e.url);
  const requestTargets = [
    ...state.endpointsOf(request.businessId).map((e) => e.url),
    ...(request.webhook ? [request.webhook] : []),
  ];

  webhooks.emit('charge.created', request.businessId, chargeJson(charge), chargeTargets);
  charge.status = outcome;
  request.status = outcome === 'succeeded' ? 'completed' : 'failed';
  if (outcome === 'succeeded') {
    recordPaidRequest(sandbox, request, charge);
    state.ledger.recordCharge({
      chargeId: charge.id,
      businessId: request.businessId,
      platformBusinessId: request.platformBusinessId,
      amountMinor: request.amountMinor,
      commissionMinor: request.platformCommissionMinor,
      currency: request.currency,
    });
  }
  request.updatedAt = now;
  webhooks.emit(
    outcome === 'succeeded' ? 'charge.updated' : 'charge.failed',
    request.businessId,
    chargeJson(charge),
    chargeTargets,
  );
  webhooks.emit(
    outcome === 'succeeded' ? 'payment_request.completed' : 'payment_request.failed',
    request.businessId,
    paymentRequestJson(request, sandbox.publicUrl()),
    requestTargets,
  );
  return charge;
}

/** What a paid request leaves behind besides the charge: an order, and a saved card when one was asked for. */
function recordPaidRequest(sandbox: SandboxContext, request: PaymentRequestRecord, charge: ChargeRecord): void {
  const { resources } = sandbox.state;
  const now = isoWithoutOffset(new Date());
  resources.add('orders', request.businessId, {
    status: 'paid',
    amount: minorToMajor(request.amountMinor),
    currency: request.currency,
    payment_request_id: request.id,
    created_at: now,
  });
  if (!request.saveCard) return;
  // The same record as `POST /v1/recurring-billing` with save_card makes, with the card already saved: the
  // shopper paid by card on this checkout (the sandbox's Visa test card).
  const record = createSavedCardRecord(
    sandbox,
    request.businessId,
    {
      customer_email: request.email ?? 'shopper@example.test',
      customer_name: request.email ?? 'Sandbox shopper',
      name: request.purpose ?? 'Saved card',
      amount: minorToMajor(request.amountMinor),
      currency: request.currency,
      reference: request.id,
      save_card: true,
      ...(request.redirectUrl ? { redirect_url: request.redirectUrl } : {}),
    },
    undefined,
  );
  record.charge_id = charge.id;
  saveCard(record, { brand: 'visa', last4: '4242' });
}
