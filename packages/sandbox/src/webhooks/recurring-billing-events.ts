/**
 * The service's `recurring_billing.*` events, sent when a record's payment method or the record itself changes.
 * Its newer "Event Webhooks" page lists them ("once a payment method is attached to a subscription", "once a
 * payment method (APMs) is detached from a subscription", "once a subscription is updated, including status
 * changes (active, cancelled, paused, expired) and edits made via the dashboard"); its webhook-events OpenAPI does
 * not. The body is the record as `GET /v1/recurring-billing/{id}` answers it, as every event webhook carries its
 * object (the page shows no example for these; the service's CLI's fixtures are flat objects of its own, see the
 * README's "Recurring billing events"). Each goes to the business's endpoints that listen, signed with its salt.
 */
import type { SandboxContext } from '../context.js';
import type { RecurringBillingJson } from '../recurring-billing.js';
import { sendEvent } from './send.js';

/**
 * After a card was saved on `record` (its checkout, or a paid payment request with `save_card`):
 * `method_attached`, then `subscription_updated` when saving it moved the record's status (`scheduled` to
 * `active`). `statusBefore` is the record's status before the card was saved.
 */
export function sendCardSaved(
  sandbox: SandboxContext,
  businessId: string,
  record: RecurringBillingJson,
  statusBefore: string,
): void {
  sendEvent(sandbox, 'recurring_billing.method_attached', record, businessId);
  if (record.status !== statusBefore) {
    sendEvent(sandbox, 'recurring_billing.subscription_updated', record, businessId);
  }
}

/** After an update of `record` (`PUT /v1/recurring-billing/{id}`): `subscription_updated`, the record as it is now. */
export function sendRecordUpdated(sandbox: SandboxContext, businessId: string, record: RecurringBillingJson): void {
  sendEvent(sandbox, 'recurring_billing.subscription_updated', record, businessId);
}

/**
 * After `record` was canceled (`DELETE /v1/recurring-billing/{id}`), when that changed its status:
 * `subscription_updated` (the status change), then `method_detached` when it had a saved method, which can no
 * longer be charged (a charge of a canceled record is 409). The docs name APMs for `method_detached`; the
 * sandbox saves cards only, and sends it for them: the README says so.
 */
export function sendRecordCanceled(
  sandbox: SandboxContext,
  businessId: string,
  record: RecurringBillingJson,
  statusBefore: string,
): void {
  if (record.status === statusBefore) return;
  sendEvent(sandbox, 'recurring_billing.subscription_updated', record, businessId);
  if (record.payment_method) sendEvent(sandbox, 'recurring_billing.method_detached', record, businessId);
}
