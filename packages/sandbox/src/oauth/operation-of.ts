/**
 * Which operation of `@paykit/core`'s scope table a `/v1` request is, so that one middleware checks every
 * Bearer call's scope (spec 5.2 rule 2).
 */
import type { Operation } from '@paykit/core';

const ROUTES: readonly [method: string, pattern: RegExp, operation: Operation][] = [
  ['GET', /^\/info$/, 'info.get'],
  ['POST', /^\/payment-requests$/, 'payment_requests.create'],
  ['GET', /^\/payment-requests$/, 'payment_requests.list'],
  ['GET', /^\/payment-requests\/[^/]+$/, 'payment_requests.get'],
  ['PUT', /^\/payment-requests\/[^/]+$/, 'payment_requests.update'],
  ['DELETE', /^\/payment-requests\/[^/]+$/, 'payment_requests.cancel'],
  ['GET', /^\/charges$/, 'charges.list'],
  ['GET', /^\/charges\/[^/]+$/, 'charges.get'],
  ['POST', /^\/refunds?$/, 'refunds.create'],
  ['GET', /^\/refunds\/[^/]+$/, 'refunds.get'],
  ['GET', /^\/payouts\/[^/]+$/, 'payouts.get'],
  ['GET', /^\/balances\/[^/]+\/transactions$/, 'balance_transactions.list'],
  ['GET', /^\/recurring-billing\/[^/]+$/, 'recurring_billing.get'],
  ['DELETE', /^\/recurring-billing\/[^/]+$/, 'recurring_billing.delete'],
  ['POST', /^\/charge\/recurring-billing\/[^/]+$/, 'recurring_billing.charge'],
  ['POST', /^\/subscription-plan$/, 'subscription_plans.create'],
  ['GET', /^\/subscription-plan$/, 'subscription_plans.list'],
  ['GET', /^\/beneficiaries\/[^/]+$/, 'beneficiaries.get'],
  ['GET', /^\/staffs\/[^/]+$/, 'staff.get'],
  ['POST', /^\/products$/, 'products.create'],
  ['GET', /^\/products$/, 'products.list'],
  ['DELETE', /^\/products\/[^/]+$/, 'products.delete'],
  ['POST', /^\/invoices$/, 'invoices.create'],
  ['GET', /^\/invoices$/, 'invoices.list'],
  ['GET', /^\/orders$/, 'orders.list'],
  ['POST', /^\/customers$/, 'customers.create'],
  ['GET', /^\/customers$/, 'customers.list'],
];

/** The operation of `method` on `path` (relative to `/v1`), or undefined for a route paykit does not know. */
export function operationOf(method: string, path: string): Operation | undefined {
  for (const [m, pattern, operation] of ROUTES) if (m === method && pattern.test(path)) return operation;
  return undefined;
}
