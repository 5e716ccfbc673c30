/**
 * One call of an operation of `@paykit/core`'s operation table: the row gives the method, the path (its
 * `{id}`s filled in, each segment encoded by the transport), the schema the body must pass before anything is
 * sent, the body's encoding and the schema the answer is read with. Every method of the clients
 * (`operation-methods.ts`) calls through here, so none restates a path or a schema.
 */
import { expandPath, operations, parseOrThrow, type OperationId, type OperationOutput } from '@paykit/core';
import type * as z from 'zod';
import type { ResolvedApiConfig } from '../api/config.js';
import { callApi, type CallOptions } from '../api/transport.js';

/** What a call adds to its row. */
export interface OperationArgs {
  /** Values of the path's `{name}` parameters. */
  params?: Readonly<Record<string, string>>;
  /** The body, checked by the row's request schema (ignored by operations without one). */
  body?: unknown;
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
}

/** The parts of a row a call reads, as plain types (a row's own type is one literal per operation). */
interface CallableRow {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** An object's schema (every request body is a JSON object). */
  request: z.ZodType<Record<string, unknown>> | undefined;
  response: z.ZodType;
  subject?: string;
  encoding?: 'json';
  retry: 'safe' | 'never';
}

/**
 * Calls operation `op` and returns its parsed answer. A body that fails the row's request schema is refused
 * with `validation_failed` naming each field, before any request leaves.
 */
export async function callOperation<K extends OperationId>(
  config: ResolvedApiConfig,
  op: K,
  args: OperationArgs = {},
  options?: CallOptions,
): Promise<OperationOutput<K>> {
  const row: CallableRow = operations[op];
  const body = row.request === undefined ? undefined : parseOrThrow(row.request, args.body, row.subject);
  // The answer is parsed by row K's response schema, which the plain row view cannot say (generic K).
  return callApi(
    config,
    {
      method: row.method,
      path: expandPath(row.path, args.params),
      schema: row.response,
      retry: row.retry,
      ...(body === undefined ? {} : { body }),
      ...(row.encoding ? { encoding: row.encoding } : {}),
      ...(args.query ? { query: args.query } : {}),
    },
    options,
  ) as Promise<OperationOutput<K>>;
}
