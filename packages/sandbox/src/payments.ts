/**
 * What happens when a shopper pays or fails on the checkout page (or a test says so): a charge is written,
 * the payment request moves to its final status, and the service's webhooks go out (webhooks/send.ts).
 */
import { minorToMajor, PaykitError } from '@paykit/core';
import { isoWithoutOffset } from './clock.js';
import { paymentRequestCharge } from './charge-records.js';
import { expireIfDue } from './payment-request-expiry.js';
import { createRecurringBilling, saveCard } from './recurring-billing.js';
import { chargeJson, paymentRequestJson } from './serialize.js';
import type { SandboxContext } from './context.js';
import type { ResourceOf } from './resources.js';
import type { ChargeRecord, PaymentRequestRecord } from './state.js';
import { sendCardSaved } from './webhooks/recurring-billing-events.js';
import { sendEvent, sendPaymentNotification } from './webhooks/send.js';

/** How the shopper's attempt ended. */
export type PaymentOutcome = 'succeeded' | 'failed';

/**
 * Completes a pending payment request. What goes out, in this order: the payment notification to the request's
 * `webhook`; `charge.created` (paid: the service's "once a payment is successfully completed") or `charge.failed`;
 * `payment_request.completed` or `.failed`; and, when paid, `order.created` for the order it leaves. Charge
 * events of a request made with a platform key go to the platform's endpoints, signed with the platform's salt,
 * instead of the merchant's (spec 6, unified stream); everything else is the merchant's.
 */
export function completePayment(
  sandbox: SandboxContext,
  request: PaymentRequestRecord,
  outcome: PaymentOutcome,
  method?: string,
): ChargeRecord {
  // Past its expiry the request is `expired` (read on its business's clock), and not payable.
  expireIfDue(sandbox, request);
  if (request.status !== 'pending') {
    throw new PaykitError('conflict', `The payment request is already ${request.status}`);
  }
  const now = sandbox.clocks.now(request.businessId);
  const charge: ChargeRecord = paymentRequestCharge(
    request,
    method && request.paymentMethods.includes(method) ? method : (request.paymentMethods[0] ?? 'card'),
    now,
  );
  sandbox.state.charges.set(charge.id, charge);
  const { state } = sandbox;
  charge.status = outcome;
  request.status = outcome === 'succeeded' ? 'completed' : 'failed';
  let order: ResourceOf<'orders'> | undefined;
  if (outcome === 'succeeded') {
    order = recordPaidRequest(sandbox, request, charge);
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
  sendPaymentNotification(sandbox, request, charge);
  const paid = outcome === 'succeeded';
  sendEvent(
    sandbox,
    paid ? 'charge.created' : 'charge.failed',
    chargeJson(charge, sandbox.publicUrl()),
    charge.platformBusinessId ?? request.businessId,
  );
  sendEvent(
    sandbox,
    paid ? 'payment_request.completed' : 'payment_request.failed',
    paymentRequestJson(request, sandbox.publicUrl()),
    request.businessId,
  );
  if (order) sendEvent(sandbox, 'order.created', order, request.businessId);
  return charge;
}

/**
 * What a paid request leaves behind besides the charge: an order (returned, for its event), and a saved card when
 * one was asked for.
 */
function recordPaidRequest(
  sandbox: SandboxContext,
  request: PaymentRequestRecord,
  charge: ChargeRecord,
): ResourceOf<'orders'> {
  const { resources } = sandbox.state;
  const now = isoWithoutOffset(sandbox.clocks.now(request.businessId));
  const order = resources.add('orders', request.businessId, {
    status: 'paid',
    amount: minorToMajor(request.amountMinor),
    currency: request.currency,
    payment_request_id: request.id,
    created_at: now,
  });
  if (!request.saveCard) return order;
  // The same record as `POST /v1/recurring-billing` with save_card makes, with the card already saved: the
  // shopper paid by card on this checkout (the sandbox's Visa test card).
  const record = createRecurringBilling(
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
  const statusBefore = record.status;
  saveCard(record, { brand: 'visa', last4: '4242' }, sandbox.clocks.now(request.businessId));
  sendCardSaved(sandbox, request.businessId, record, statusBefore);
  return order;
}
