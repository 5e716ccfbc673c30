/**
 * The operation table: one row per operation of the Payments API, joining its route (`routes.ts`: method,
 * path, scope, retry policy, pagination) and its schemas (`payloads.ts`: request, query, response). The scope
 * map, the sandbox's scope check and both server clients read it, so an operation is written down once.
 *
 * @example
 * ```ts
 * import { operations, type OperationInput } from '@paykit/core';
 * const row = operations['paymentRequests.create']; // { method: 'POST', path: '/v1/payment-requests', ... }
 * const body: OperationInput<'paymentRequests.create'> = { amount: 12.5, currency: 'SGD' };
 * ```
 */
import type * as z from 'zod';
import type { Page } from '../schemas/list.js';
import { OPERATION_PAYLOADS } from './payloads.js';
import { OPERATION_IDS, OPERATION_ROUTES, type OperationId } from './routes.js';

export { OPERATION_PAYLOADS, type OperationPayload } from './payloads.js';
export {
  OAUTH_TOKEN_PATH,
  OPERATION_IDS,
  OPERATION_ROUTES,
  type HttpMethod,
  type OperationId,
  type OperationRoute,
  type OperationScope,
  type ListKind,
  type PaginationKind,
  type RetryPolicy,
} from './routes.js';
export { findOperation } from './find.js';
export { expandPath, matchesTemplate, parameterOf, pathSegmentProblem } from './path-template.js';

/** The row of operation `K`: its id, route and schemas, with their literal types. */
export type OperationRow<K extends OperationId = OperationId> = { readonly id: K } & (typeof OPERATION_ROUTES)[K] &
  (typeof OPERATION_PAYLOADS)[K];

/** Every operation's row, by id. */
// Object.fromEntries types its keys as strings: the mapped type is what the entries are, row by row.
export const operations = Object.fromEntries(
  OPERATION_IDS.map((id) => [id, { id, ...OPERATION_ROUTES[id], ...OPERATION_PAYLOADS[id] }]),
) as { readonly [K in OperationId]: OperationRow<K> };

type RequestOf<K extends OperationId> = (typeof OPERATION_PAYLOADS)[K]['request'];

/** What a caller gives as the body of operation `K` (the request schema's input); `never` when it takes none. */
export type OperationInput<K extends OperationId> = RequestOf<K> extends z.ZodType ? z.input<RequestOf<K>> : never;

/** What a 2xx answer of operation `K` reads as (the response schema's output). */
export type OperationOutput<K extends OperationId> = z.output<(typeof OPERATION_PAYLOADS)[K]['response']>;

/** The filters operation `K` takes (its `query` column's input); nothing for an operation without one. */
export type OperationFilters<K extends OperationId> = (typeof OPERATION_PAYLOADS)[K] extends {
  query: infer Q extends z.ZodType;
}
  ? z.input<Q>
  : Record<never, never>;

/** The item of a list operation `K` (`never` for an operation that does not answer a page). */
export type OperationItem<K extends OperationId> = OperationOutput<K> extends Page<infer T> ? T : never;
