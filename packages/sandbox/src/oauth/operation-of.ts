/**
 * Which scope a `/v1` request needs from a Bearer token, so that one middleware checks every Bearer call
 * (spec 5.2 rule 2). Operations named by `@paykit/core`'s scope table use it; a few routes the sandbox serves
 * and core does not name get their scope here. Anything else is refused to Bearer tokens (fail closed): a
 * route added without a row in this file cannot be reached with a token of any scope.
 */
import type { Operation, Scope } from '@paykit/core';

/** What a request needs: an operation of core's table, or (for a route core does not name) a scope. */
export type Requirement = { operation: Operation } | { scope: Scope };

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

/**
 * Routes core's table does not name, with the sandbox's choice of scope. Account status is "account info"
 * (`business:read`, spec 5.2); terminals and static QR codes are the in-person side of payments (spec 5.4.8).
 * Transfers move money out of the business and no scope of spec 5.2 grants them: they stay API-key only.
 */
const SANDBOX_ROUTES: readonly [method: string, pattern: RegExp, scope: Scope][] = [
  ['GET', /^\/account-status$/, 'business:read'],
  ['GET', /^\/terminals$/, 'payments:read'],
  ['GET', /^\/static-qr-codes$/, 'payments:read'],
];

/** What `method` on `path` (relative to `/v1`) needs from a token, or undefined when no scope grants it. */
export function requirementOf(method: string, path: string): Requirement | undefined {
  // HEAD is answered by the GET handler, so it needs what GET needs.
  const verb = method === 'HEAD' ? 'GET' : method;
  for (const [m, pattern, operation] of ROUTES) if (m === verb && pattern.test(path)) return { operation };
  for (const [m, pattern, scope] of SANDBOX_ROUTES) if (m === verb && pattern.test(path)) return { scope };
  return undefined;
}
