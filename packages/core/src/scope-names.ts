/**
 * The names of the OAuth scopes paykit knows (spec 5.2), apart from their rules (`scopes.ts`): the operation table
 * (`operations/routes.ts`) types its scope column with them, and `scopes.ts` reads that table, so the names sit in
 * a leaf both import.
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
