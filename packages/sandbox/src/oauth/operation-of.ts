/**
 * Which scope a `/v1` request needs from a Bearer token, so that one middleware checks every Bearer call
 * (spec 5.2 rule 2). The request is looked up in `@paykit/core`'s operation table by method and path, and the
 * scope is that row's: the sandbox keeps no table of its own. A request the table has no row for, or whose
 * row no scope grants (transfers: API key only), is refused to Bearer tokens (fail closed): a route added
 * without a row cannot be reached with a token of any scope (and `/v1` is mounted from the table's rows only).
 */
import { findOperation, isTokenOperation, type Operation } from '@paykit/core';

/** What a request needs: an operation of core's table, whose scope a token must grant. */
export interface Requirement {
  operation: Operation;
}

/** What `method` on `path` (relative to `/v1`) needs from a token, or undefined when no scope grants it. */
export function requirementOf(method: string, path: string): Requirement | undefined {
  const operation = findOperation(method, `/v1${path}`);
  return operation !== undefined && isTokenOperation(operation) ? { operation } : undefined;
}
