/**
 * The methods a client is made of, each one row of `@paykit/core`'s operation table bound to one configuration:
 * a read by id, a call with a body, an update, and a list (one page, or every item by `.all()`) whose filters
 * are checked with the row's `query` schema and whose page number goes in the row's `pageParam`. The typed
 * client (`createPaymentsClient`) and the merchant's payment methods (`createMerchantApi`) are both built of
 * these, so neither restates a path, a filter or a page parameter.
 */
import {
  listOf,
  operations,
  parseOrThrow,
  resourceId,
  type OperationFilters,
  type OperationId,
  type OperationInput,
  type OperationItem,
  type OperationOutput,
} from '@paykit/core';
import * as z from 'zod';
import type { ResolvedApiConfig } from '../api/config.js';
import type { CallOptions } from '../api/transport.js';
import { callOperation, type OperationArgs } from './call-operation.js';
import { followPages } from './paginate.js';

/** A page request: a cursor (cursor lists) or a page number from 1 (numbered lists), and the page size. */
export type PageQuery = {
  /** A `next_cursor` or `prev_cursor` from the previous page. */
  cursor?: string;
  /** A page number from 1, sent as the row's page parameter (`page`, or `current_page` for payment requests). */
  page?: number;
  /** Items per page, at most 100. */
  perPage?: number;
};

/** Operations that take a body. */
export type BodyOperationId = { [K in OperationId]: [OperationInput<K>] extends [never] ? never : K }[OperationId];

/** Operations that answer a page. */
export type ListOperationId = {
  [K in OperationId]: (typeof operations)[K]['pagination'] extends 'none' ? never : K;
}[OperationId];

/** A list operation: one page, or every item by `for await`. */
export interface ListOperation<K extends ListOperationId> {
  (query?: OperationFilters<K> & PageQuery, options?: CallOptions): Promise<OperationOutput<K>>;
  /**
   * Every item of every page, following `next_cursor` or the page numbers up to `last_page`, whichever the
   * answer carries; `perPage` sets the size of each page fetched.
   */
  all(query?: OperationFilters<K> & { perPage?: number }, options?: CallOptions): AsyncGenerator<OperationItem<K>>;
}

type Query = Record<string, string | number | undefined>;

/** The methods over `config`. */
export function operationMethods(config: ResolvedApiConfig) {
  const id = (value: string) => parseOrThrow(resourceId, value, 'The id');
  const call = <K extends OperationId>(op: K, args: OperationArgs, options: CallOptions | undefined) =>
    callOperation(config, op, args, options);

  return {
    /** An operation without a body or a path parameter (`GET /v1/info`). */
    read:
      <K extends OperationId>(op: K) =>
      async (options?: CallOptions) =>
        call(op, {}, options),

    /** A read (or delete) of one resource by its id. */
    byId:
      <K extends OperationId>(op: K) =>
      async (itemId: string, options?: CallOptions) =>
        call(op, { params: { id: id(itemId) } }, options),

    /** An operation that takes a body and no path parameter. */
    create:
      <K extends BodyOperationId>(op: K) =>
      async (input: OperationInput<K>, options?: CallOptions) =>
        call(op, { body: input }, options),

    /** An operation on one resource by its id, with a body. */
    update:
      <K extends BodyOperationId>(op: K) =>
      async (itemId: string, input: OperationInput<K>, options?: CallOptions) =>
        call(op, { params: { id: id(itemId) }, body: input }, options),

    /** A list: one page by cursor or page number, or every item by `.all()`; `params` fills its path. */
    list: <K extends ListOperationId>(op: K, params: Readonly<Record<string, string>> = {}) =>
      // The row's schemas check the filters and read the answer, so the loose list is operation K's: what
      // TypeScript cannot follow from a generic K to the row's data (callOperation says the same of its answer).
      looseList(config, op, params) as ListOperation<K>,
  };
}

/** A list's page and `.all()` over loose types; {@link operationMethods} gives them operation K's. */
function looseList(config: ResolvedApiConfig, op: ListOperationId, params: Readonly<Record<string, string>>) {
  // `path` only makes the plain view share a property with every row (TypeScript refuses a view of options alone).
  const row: { path: string; query?: z.ZodType; pageParam?: string } = operations[op];
  const page = async (query: PageQuery & Record<string, unknown> = {}, options?: CallOptions): Promise<unknown> => {
    const { cursor, perPage, page: pageNumber, ...filters } = query;
    const q: Query = {
      ...queryValues(row.query ? parseOrThrow(row.query, filters, 'The query') : filters),
      [config.pagination.cursorParam]: cursor,
      [config.pagination.pageSizeParam]: perPage,
    };
    if (pageNumber !== undefined) q[row.pageParam ?? 'page'] = pageNumber;
    return callOperation(config, op, { params, query: q }, options);
  };
  return Object.assign(page, {
    // Cursors or page numbers, whichever the answer carries (core's listOf reads both shapes).
    all: (query: PageQuery & Record<string, unknown> = {}, options?: CallOptions) =>
      followPages(async (at) => anyPage.parse(await page({ ...query, ...at }, options))),
  });
}

/** The filters that go into a query string: text and numbers (the filter schemas yield nothing else). */
function queryValues(filters: unknown): Query {
  const query: Query = {};
  if (typeof filters !== 'object' || filters === null) return query;
  for (const [name, value] of Object.entries(filters)) {
    if (typeof value === 'string' || typeof value === 'number') query[name] = value;
  }
  return query;
}

/** A list's answer as a page, to follow: its row's schema has read it already (core's `listOf`, or the ledger's). */
const anyPage = listOf(z.unknown());
