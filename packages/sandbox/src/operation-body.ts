/**
 * The body of an API operation as the real service takes it: the fields it documents are checked with the
 * request schema of the operation's row in `@paykit/core`'s table (a 422 names each bad one), and fields nobody
 * documents are ignored, not refused, and named in `X-Sandbox-Warning`. Ignored means dropped here: a typo
 * (`amout`) is neither stored nor echoed, as the service would not keep it either.
 */
import { operations, parseOrThrow, type OperationId } from '@paykit/core';
import type { Context } from 'hono';
import type * as z from 'zod';
import { readBody, type ReadBodyOptions } from './body.js';
import { unknownFields, warnUnknownFields } from './unknown-fields.js';

/** The operations that take a body. */
export type BodyOperationId = {
  [K in OperationId]: (typeof operations)[K]['request'] extends z.ZodType ? K : never;
}[OperationId];

/** What operation `K`'s request schema yields. */
export type OperationBody<K extends BodyOperationId> = z.output<NonNullable<(typeof operations)[K]['request']>>;

/**
 * Reads the body of operation `op` (JSON or form; `options.accept` for others), checks it with the row's request
 * schema, warns about fields the schema does not name, and returns the documented fields only; `{}` for an
 * operation that takes no body.
 */
export async function readOperationBody(c: Context, op: OperationId, options: ReadBodyOptions = {}): Promise<unknown> {
  const row: { request: z.ZodType | undefined; subject?: string } = operations[op];
  if (row.request === undefined) return {};
  const raw = await readBody(c.req.raw, options);
  const parsed: unknown = parseOrThrow(row.request, raw, row.subject);
  const known = documentedFields(row.request);
  const ignored = unknownFields(raw, known);
  warnUnknownFields(c, ignored);
  if (ignored.length === 0 || typeof parsed !== 'object' || parsed === null) return parsed;
  return Object.fromEntries(Object.entries(parsed).filter(([key]) => known.includes(key)));
}

/** The top-level fields an object schema names (its shape, refinements included); none for any other schema. */
function documentedFields(schema: z.ZodType): string[] {
  const shape = 'shape' in schema ? schema.shape : undefined;
  return typeof shape === 'object' && shape !== null ? Object.keys(shape) : [];
}
