/**
 * OAuth scopes (spec 5.2): the names, the family rule (`payments` grants every `payments:*`), and which scope
 * each operation needs. Plain TypeScript, no zod: the connect button may use it.
 *
 * The spec names `business:read`, `payments`, the four `payments:*` scopes and `commerce:delete`, and says
 * `commerce:*` and `customer:*` families exist. The other members of those two families (`:read`, `:create`)
 * are paykit's choice, made by analogy with `payments:*`.
 *
 * Which scope each operation needs is a column of the operation table (`operations/routes.ts`, also zod-free);
 * this file reads it.
 */
import { OPERATION_IDS, OPERATION_ROUTES, type OperationId, type OperationScope } from './operations/routes.js';
import { SCOPES, type Scope } from './scope-names.js';

export { SCOPES, type Scope } from './scope-names.js';

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
  const scopes: Scope[] = [];
  for (const name of names) {
    if (!isScope(name)) return { ok: false, unknown: name };
    scopes.push(name);
  }
  return { ok: true, scopes: [...new Set(scopes)] };
}

/** True when the granted scopes include `required`, directly or through its family (`payments` covers `payments:read`). */
export function scopeAllows(granted: Iterable<string>, required: Scope): boolean {
  const family = required.split(':')[0];
  for (const scope of granted) if (scope === required || scope === family) return true;
  return false;
}

type Routes = typeof OPERATION_ROUTES;

/** The operations a Bearer token may perform with some scope: every operation that is not API-key only. */
export type Operation = {
  [K in OperationId]: Routes[K]['scope'] extends 'api-key-only' ? never : K;
}[OperationId];

/** The scope operation `K` needs, `null` for any valid token. */
type ScopeOf<K extends Operation> = Routes[K]['scope'] extends 'any-token' ? null : Routes[K]['scope'];

/**
 * The operations a token may perform and the scope each needs (spec 4.10, 5.2); `null` means any valid token
 * will do (`GET /v1/info`). Read from the operation table's `scope` column (`operations/routes.ts`), where the
 * choices the spec leaves open are written; operations no scope grants (transfers) are not here.
 */
// Object.fromEntries types its keys as strings: the mapped type is what the entries are, row by row.
export const OPERATION_SCOPES = Object.fromEntries(
  OPERATION_IDS.flatMap((id) => {
    const scope: OperationScope = OPERATION_ROUTES[id].scope;
    if (scope === 'api-key-only') return [];
    return [[id, scope === 'any-token' ? null : scope]];
  }),
) as { readonly [K in Operation]: ScopeOf<K> };

/** True when a token may perform `operation` with some scope (it is not API-key only). */
export function isTokenOperation(operation: string): operation is Operation {
  return Object.hasOwn(OPERATION_SCOPES, operation);
}

/** True when a token with the granted scopes may perform `operation`. */
export function scopesAllowOperation(granted: Iterable<string>, operation: Operation): boolean {
  const required: Scope | null = OPERATION_SCOPES[operation];
  return required === null || scopeAllows(granted, required);
}
