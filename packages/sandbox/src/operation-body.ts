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
 * schema, warns about fields the schema does not name, and returns the documented fields only.
 */
export async function parseOperationBody<K extends BodyOperationId>(
  c: Context,
  op: K,
  options: ReadBodyOptions = {},
): Promise<OperationBody<K>> {
  const row = operations[op];
  const schema = row.request as z.ZodType;
  const raw = await readBody(c.req.raw, options);
  const parsed = parseOrThrow(schema, raw, (row as { subject?: string }).subject) as OperationBody<K>;
  const known = documentedFields(schema);
  const ignored = unknownFields(raw, known);
  warnUnknownFields(c, ignored);
  if (ignored.length === 0) return parsed;
  return Object.fromEntries(
    Object.entries(parsed as Record<string, unknown>).filter(([key]) => known.includes(key)),
  ) as OperationBody<K>;
}

/** The top-level fields an object schema names (its shape, refinements included); none for any other schema. */
function documentedFields(schema: z.ZodType): string[] {
  const shape = (schema as { shape?: unknown }).shape;
  return typeof shape === 'object' && shape !== null ? Object.keys(shape) : [];
}
