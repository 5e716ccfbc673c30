/**
 * Charging a recurring billing's saved card through the API (`POST /v1/charge/recurring-billing/{id}`): the
 * charge record, the ledger, the record's counters and the webhooks it sends.
 */
import { majorToMinor, minorToMajor, PaykitError } from '@paykit/core';
import { isoWithoutOffset } from './clock.js';
import type { SandboxContext } from './context.js';
import { chargeJson } from './serialize.js';
import type { WireOf } from './wire.js';
import type { ChargeRecord } from './state.js';
import { recurringBillingCharge } from './charge-records.js';
import type { RecurringBillingJson } from './recurring-billing.js';
import { savedCardDeclines } from './test-cards.js';
import { sendEvent, sendRecurringBillingNotification } from './webhooks/send.js';

/** What a charge of a saved card answers (the real service's shape, core's `recurringBillingChargeResultSchema`). */
export type RecurringBillingChargeAnswer = WireOf<'recurringBilling.charge'>;

/**
 * Charges the saved card of `record`: a succeeded charge in the charges list and the ledger, the record's
 * `times_charged` and `total_charge` moved on, `charge.created` sent to the business's endpoints that listen, and
 * the notification form to the record's own `webhook` when it has one (webhooks/send.ts). A saved card that
 * declines (test-cards.ts) makes a failed charge instead: nothing enters the ledger or the counters, the
 * notification says `failed` and the endpoints get `charge.failed`. Stamped on the business's clock.
 */
export function chargeRecurringBilling(
  sandbox: SandboxContext,
  record: RecurringBillingJson,
  businessId: string,
  charge: { amountMinor: number; currency: string },
): RecurringBillingChargeAnswer {
  if (record.status === 'canceled') throw new PaykitError('conflict', 'This recurring billing was canceled');
  if (!record.payment_method) {
    throw new PaykitError('conflict', 'No card is saved on this recurring billing yet: open its url first');
  }
  const { state } = sandbox;
  const currency = charge.currency.toLowerCase();
  const now = sandbox.clocks.now(businessId);
  const created: ChargeRecord = recurringBillingCharge(
    record,
    businessId,
    { amountMinor: charge.amountMinor, currency },
    now,
  );
  state.charges.set(created.id, created);
  if (savedCardDeclines(record.payment_method.card)) {
    created.status = 'failed';
    record.updated_at = isoWithoutOffset(now);
    sendRecurringBillingNotification(sandbox, record, created);
    sendEvent(sandbox, 'charge.failed', chargeJson(created, sandbox.publicUrl()), businessId);
    return {
      payment_id: created.id,
      recurring_billing_id: record.id,
      amount: minorToMajor(charge.amountMinor),
      currency,
      status: 'failed',
    };
  }
  created.status = 'succeeded';
  state.ledger.recordCharge({
    chargeId: created.id,
    businessId,
    platformBusinessId: null,
    amountMinor: charge.amountMinor,
    commissionMinor: null,
    currency,
  });
  record.times_charged = (record.times_charged ?? 0) + 1;
  // total_charge starts at 0: a total, so 0 is taken as nothing charged yet.
  const chargedBefore = majorToMinor(record.total_charge ?? 0, { field: 'total_charge', allowZero: true });
  record.total_charge = minorToMajor(chargedBefore + charge.amountMinor);
  record.updated_at = isoWithoutOffset(now);
  sendRecurringBillingNotification(sandbox, record, created);
  sendEvent(sandbox, 'charge.created', chargeJson(created, sandbox.publicUrl()), businessId);
  return {
    payment_id: created.id,
    recurring_billing_id: record.id,
    amount: minorToMajor(charge.amountMinor),
    currency,
    status: 'succeeded',
  };
}
