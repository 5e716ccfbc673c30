/**
 * The schemas half of the operation table: for each operation of `routes.ts`, the schema its request body must
 * pass, the schema of its query (beyond the paging parameters), the schema its 2xx answer is read with, and the
 * noun its validation messages use. Keyed by the same ids; the `satisfies` below refuses a missing or an extra
 * id at compile time, so the two halves cannot drift apart.
 */
import * as z from 'zod';
import { balanceTransactionFiltersSchema, balanceTransactionListSchema } from '../schemas/balance-transaction.js';
import { beneficiarySchema } from '../schemas/beneficiary.js';
import { chargeSchema } from '../schemas/charge.js';
import {
  invoiceCreateSchema,
  invoiceListFiltersSchema,
  invoiceSchema,
  orderSchema,
  productCreateSchema,
  productSchema,
} from '../schemas/commerce.js';
import { customerCreateSchema, customerSchema } from '../schemas/customer.js';
import { listOf } from '../schemas/list.js';
import { businessInfoSchema } from '../schemas/oauth.js';
import { paymentRequestCreateBodySchema } from '../schemas/payment-request-body.js';
import { paymentRequestListSchema, paymentRequestSchema } from '../schemas/payment-request.js';
import { payoutSchema } from '../schemas/payout.js';
import { refundCreateSchema, refundSchema } from '../schemas/refund.js';
import {
  recurringBillingChargeResultSchema,
  recurringBillingChargeSchema,
  recurringBillingCreateSchema,
  recurringBillingListFiltersSchema,
  recurringBillingSchema,
  recurringBillingUpdateSchema,
} from '../schemas/recurring-billing.js';
import { staffMemberSchema } from '../schemas/staff.js';
import { subscriptionPlanCreateSchema, subscriptionPlanSchema } from '../schemas/subscription-plan.js';
import { staticQrCodeSchema, terminalSchema } from '../schemas/terminal.js';
import {
  webhookEndpointCreateSchema,
  webhookEndpointListSchema,
  webhookEndpointSchema,
  webhookEndpointUpdateSchema,
} from '../schemas/webhook-event.js';
import {
  accountStatusSchema,
  transferCreateSchema,
  transferEstimateResultSchema,
  transferEstimateSchema,
  transferListFiltersSchema,
  transferSchema,
} from '../schemas/transfer.js';
import type { OperationId } from './routes.js';

/** One operation's schemas. */
export interface OperationPayload {
  /** The body the operation takes; undefined when it takes none. */
  readonly request: z.ZodType | undefined;
  /**
   * A list's filters: the query parameters it takes besides the paging ones (the cursor, the page size, the
   * page number). The client checks what it sends with it and the sandbox reads what it gets with it; the
   * parameters it does not name are left out. Undefined when the list takes none.
   */
  readonly query?: z.ZodType<Record<string, unknown>>;
  /** How a 2xx answer is read. A list's is a page (`listOf(item)` or its own). */
  readonly response: z.ZodType;
  /** What a validation message calls the body: "Payment request is invalid: amount: ...". */
  readonly subject?: string;
}

/**
 * A delete's answer: the sandbox answers 204 with no body, and what the service sends is not shown (spec 4.10;
 * its webhook-events OpenAPI says 204 yet shows a body of `1`), so any answer is taken.
 */
const noContent = z.unknown();

const body = <R extends z.ZodType, S extends z.ZodType>(request: R, response: S, subject: string) =>
  ({ request, response, subject }) as const;
const answer = <S extends z.ZodType>(response: S) => ({ request: undefined, response }) as const;
const filtered = <S extends z.ZodType, Q extends z.ZodType<Record<string, unknown>>>(response: S, query: Q) =>
  ({ request: undefined, response, query }) as const;

/** The schemas of every operation, by id. */
export const OPERATION_PAYLOADS = {
  'info.get': answer(businessInfoSchema),

  'paymentRequests.create': body(paymentRequestCreateBodySchema, paymentRequestSchema, 'Payment request'),
  'paymentRequests.list': answer(paymentRequestListSchema),
  'paymentRequests.get': answer(paymentRequestSchema),
  // An update takes the whole request again (the spec does not show a partial form).
  'paymentRequests.update': body(paymentRequestCreateBodySchema, paymentRequestSchema, 'Payment request'),
  'paymentRequests.cancel': answer(paymentRequestSchema),

  'charges.list': answer(listOf(chargeSchema)),
  'charges.get': answer(chargeSchema),

  'refunds.create': body(refundCreateSchema, refundSchema, 'Refund'),
  'refunds.get': answer(refundSchema),

  'payouts.get': answer(payoutSchema),
  'balances.transactions.list': filtered(balanceTransactionListSchema, balanceTransactionFiltersSchema),

  'recurringBilling.create': body(recurringBillingCreateSchema, recurringBillingSchema, 'Recurring billing'),
  'recurringBilling.list': filtered(listOf(recurringBillingSchema), recurringBillingListFiltersSchema),
  'recurringBilling.get': answer(recurringBillingSchema),
  'recurringBilling.update': body(recurringBillingUpdateSchema, recurringBillingSchema, 'Recurring billing'),
  'recurringBilling.charge': body(recurringBillingChargeSchema, recurringBillingChargeResultSchema, 'Charge'),
  'recurringBilling.cancel': answer(recurringBillingSchema),

  'subscriptionPlans.create': body(subscriptionPlanCreateSchema, subscriptionPlanSchema, 'Subscription plan'),
  'subscriptionPlans.list': answer(listOf(subscriptionPlanSchema)),
  'subscriptionPlans.get': answer(subscriptionPlanSchema),
  'subscriptionPlans.update': body(subscriptionPlanCreateSchema, subscriptionPlanSchema, 'Subscription plan'),
  'subscriptionPlans.delete': answer(noContent),

  'beneficiaries.get': answer(beneficiarySchema),
  'staff.get': answer(staffMemberSchema),
  'accountStatus.get': answer(accountStatusSchema),

  'products.create': body(productCreateSchema, productSchema, 'Product'),
  'products.list': answer(listOf(productSchema)),
  'products.delete': answer(noContent),
  'invoices.create': body(invoiceCreateSchema, invoiceSchema, 'Invoice'),
  'invoices.list': filtered(listOf(invoiceSchema), invoiceListFiltersSchema),
  'orders.list': answer(listOf(orderSchema)),
  'orders.get': answer(orderSchema),

  'customers.create': body(customerCreateSchema, customerSchema, 'Customer'),
  'customers.list': answer(listOf(customerSchema)),

  'transfers.create': body(transferCreateSchema, transferSchema, 'Transfer'),
  'transfers.estimate': body(transferEstimateSchema, transferEstimateResultSchema, 'Transfer estimate'),
  'transfers.get': answer(transferSchema),
  'transfers.list': filtered(listOf(transferSchema), transferListFiltersSchema),

  // The service calls a registered endpoint a "webhook event"; its messages say so too.
  'webhookEvents.list': answer(webhookEndpointListSchema),
  'webhookEvents.create': body(webhookEndpointCreateSchema, webhookEndpointSchema, 'Webhook event'),
  'webhookEvents.get': answer(webhookEndpointSchema),
  'webhookEvents.update': body(webhookEndpointUpdateSchema, webhookEndpointSchema, 'Webhook event'),
  'webhookEvents.delete': answer(noContent),

  'terminals.list': answer(listOf(terminalSchema)),
  'qrCodes.list': answer(listOf(staticQrCodeSchema)),
} as const satisfies { readonly [K in OperationId]: OperationPayload };
