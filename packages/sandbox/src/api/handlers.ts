/**
 * The handler of every operation of the table, gathered from the modules of each resource family. The type
 * refuses a missing handler, and an extra one (an id the table does not have), at compile time.
 */
import type { SandboxContext } from '../context.js';
import { balanceHandlers } from '../routes/balances.js';
import { businessHandlers } from '../routes/business.js';
import { chargeHandlers } from '../routes/charges.js';
import { customerHandlers } from '../routes/customers.js';
import { inPersonHandlers } from '../routes/in-person.js';
import { invoiceHandlers } from '../routes/invoices.js';
import { orderHandlers } from '../routes/orders.js';
import { paymentRequestHandlers } from '../routes/payment-requests.js';
import { productHandlers } from '../routes/products.js';
import { recurringBillingHandlers } from '../routes/recurring-billing.js';
import { refundHandlers } from '../routes/refunds.js';
import { subscriptionPlanHandlers } from '../routes/subscription-plans.js';
import { transferHandlers } from '../routes/transfers.js';
import { webhookEventHandlers } from '../routes/webhook-events.js';
import type { OperationHandlers } from '../operation-call.js';

/** Every operation's handler over one sandbox. */
export function operationHandlers(sandbox: SandboxContext): OperationHandlers {
  return {
    ...businessHandlers(sandbox),
    ...paymentRequestHandlers(sandbox),
    ...chargeHandlers(sandbox),
    ...refundHandlers(sandbox),
    ...balanceHandlers(sandbox),
    ...recurringBillingHandlers(sandbox),
    ...subscriptionPlanHandlers(sandbox),
    ...productHandlers(sandbox),
    ...invoiceHandlers(sandbox),
    ...orderHandlers(sandbox),
    ...customerHandlers(sandbox),
    ...transferHandlers(sandbox),
    ...webhookEventHandlers(sandbox),
    ...inPersonHandlers(sandbox),
  };
}
