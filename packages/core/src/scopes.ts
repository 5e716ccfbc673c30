/**
 * OAuth scopes (spec 5.2): the names, the family rule (`payments` grants every `payments:*`), and which scope
 * each operation needs. Plain TypeScript, no zod: the connect button may use it.
 *
 * The spec names `business:read`, `payments`, the four `payments:*` scopes and `commerce:delete`, and says
 * `commerce:*` and `customer:*` families exist. The other members of those two families (`:read`, `:create`)
 * are paykit's choice, made by analogy with `payments:*`.
 */

/** Every scope paykit knows. */
export const SCOPES = [
  'business:read',
  'payments',
  'payments:read',
  'payments:create',
  'payments:cancel',
  'payments:refund',
  'commerce',
  'commerce:read',
  'commerce:create',
  'commerce:delete',
  'customer',
  'customer:read',
  'customer:create',
] as const;

/** A scope paykit knows. */
export type Scope = (typeof SCOPES)[number];

/** The scope a new app has, and the only one it has until more are approved (spec 5.2). */
export const DEFAULT_APP_SCOPE: Scope = 'business:read';

const KNOWN = new Set<string>(SCOPES);

/** True when `value` is a scope paykit knows. */
export function isScope(value: string): value is Scope {
  return KNOWN.has(value);
}

/**
 * Reads a space-separated scope list (the `scope` parameter of 4.9). Returns the scopes, de-duplicated in
 * order, or the first name that is not a scope.
 */
export function parseScopeList(text: string): { ok: true; scopes: Scope[] } | { ok: false; unknown: string } {
  const names = text.split(' ').filter((name) => name.length > 0);
  for (const name of names) if (!isScope(name)) return { ok: false, unknown: name };
  return { ok: true, scopes: [...new Set(names as Scope[])] };
}

/** True when the granted scopes include `required`, directly or through its family (`payments` covers `payments:read`). */
export function scopeAllows(granted: Iterable<string>, required: Scope): boolean {
  const family = required.split(':')[0];
  for (const scope of granted) if (scope === required || scope === family) return true;
  return false;
}

/**
 * The operations of the spec and the scope each needs (spec 4.10, 5.2); `null` means any valid token will do
 * (`GET /v1/info`). Payments scopes also cover subscription plans and recurring billing (5.2 rule 1).
 */
export const OPERATION_SCOPES = {
  'info.get': null,
  'payment_requests.create': 'payments:create',
  'payment_requests.list': 'payments:read',
  'payment_requests.get': 'payments:read',
  'payment_requests.update': 'payments:create',
  'payment_requests.cancel': 'payments:cancel',
  'charges.list': 'payments:read',
  'charges.get': 'payments:read',
  'refunds.create': 'payments:refund',
  'refunds.get': 'payments:read',
  'payouts.get': 'payments:read',
  'balance_transactions.list': 'payments:read',
  'recurring_billing.get': 'payments:read',
  'recurring_billing.charge': 'payments:create',
  'recurring_billing.delete': 'payments:cancel',
  'subscription_plans.create': 'payments:create',
  'subscription_plans.list': 'payments:read',
  'beneficiaries.get': 'business:read',
  'staff.get': 'business:read',
  'products.create': 'commerce:create',
  'products.list': 'commerce:read',
  'products.delete': 'commerce:delete',
  'invoices.create': 'commerce:create',
  'invoices.list': 'commerce:read',
  'orders.list': 'commerce:read',
  'customers.create': 'customer:create',
  'customers.list': 'customer:read',
} as const satisfies Record<string, Scope | null>;

/** An operation of {@link OPERATION_SCOPES}. */
export type Operation = keyof typeof OPERATION_SCOPES;

/** True when a token with the granted scopes may perform `operation`. */
export function scopesAllowOperation(granted: Iterable<string>, operation: Operation): boolean {
  const required: Scope | null = OPERATION_SCOPES[operation];
  return required === null || scopeAllows(granted, required);
}
