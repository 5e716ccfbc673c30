/**
 * The sandbox's `/v1` API, mounted from `@paykit/core`'s operation table: for each row, its method on its path and
 * aliases (`POST /v1/refund` beside `/v1/refunds`), the handler of its id, the body parsed with its request schema,
 * the filters with its `query` schema, and a list paged as its row says. No `/v1` path is written here or in a
 * handler, so the routes the sandbox serves are the rows the clients call.
 */
import { OPERATION_IDS, operations, parseOrThrow, type OperationId, type PaginationKind } from '@paykit/core';
import type { Hono } from 'hono';
import type * as z from 'zod';
import type { ReadBodyOptions } from '../body.js';
import type { SandboxEnv } from '../env.js';
import { readOperationBody } from '../operation-body.js';
import { listPage } from './list-page.js';
import { ListItems, type OperationCall, type OperationHandlers } from '../operation-call.js';

/** What the mount reads of a row, as plain types (a row's own type is one literal per operation). */
interface MountedRow {
  readonly method: string;
  readonly path: string;
  readonly aliases?: readonly string[];
  readonly pagination: PaginationKind;
  readonly perPage?: number;
  readonly pageParam?: string;
  readonly query?: z.ZodType;
}

/** A template's path in Hono's words: `/v1/payment-requests/{id}` is `/payment-requests/:id` under `/v1`. */
const honoPath = (template: string) => template.replace(/^\/v1/, '').replace(/\{(\w+)\}/g, ':$1');

/** Registers every operation of the table on `v1` (the app mounted at `/v1`, behind its authentication). */
export function mountOperations(v1: Hono<SandboxEnv>, handlers: OperationHandlers): void {
  for (const id of OPERATION_IDS) mountOperation(v1, id, handlers);
}

function mountOperation<K extends OperationId>(v1: Hono<SandboxEnv>, id: K, handlers: OperationHandlers): void {
  const row: MountedRow = operations[id];
  const handler = handlers[id];
  for (const template of [row.path, ...(row.aliases ?? [])]) {
    v1.on(row.method, honoPath(template), async (c) => {
      const caller = c.get('caller');
      // The row's schemas read the body and the filters and its template names the parameters: what
      // OperationCall<K> types them as, which TypeScript cannot follow from a generic K to the row's data.
      const call = {
        c,
        caller,
        businessId: caller.business.id,
        params: c.req.param(),
        body: (options: ReadBodyOptions = {}) => readOperationBody(c, id, options),
        filters: () => (row.query ? parseOrThrow(row.query, c.req.query(), 'The query') : {}),
      } as OperationCall<K>;
      const answer: unknown = await handler(call);
      if (row.pagination === 'none') return answer instanceof Response ? answer : c.json(answer);
      if (!isListAnswer(answer)) throw new Error(`The handler of ${id} answered no list`);
      return c.json(
        listPage({ pagination: row.pagination, perPage: row.perPage, pageParam: row.pageParam }, answer, c.req),
      );
    });
  }
}

/** True when a list's handler answered items: records with an `id` each, or {@link ListItems}. */
function isListAnswer(answer: unknown): answer is readonly { readonly id: string }[] | ListItems {
  if (answer instanceof ListItems) return true;
  return (
    Array.isArray(answer) &&
    answer.every(
      (item: unknown) => typeof item === 'object' && item !== null && 'id' in item && typeof item.id === 'string',
    )
  );
}
