/**
 * Lists. The spec shows one list shape, the balance transactions' `{ data, meta: { per_page, next_cursor,
 * prev_cursor } }` (2.6); paykit reads every list that way, and also a bare array (no cursors).
 */
import * as z from 'zod';

/** The cursors of a page. */
export const listMetaSchema = z.looseObject({
  per_page: z.union([z.string(), z.number()]).transform(String).optional(),
  next_cursor: z.string().nullish(),
  prev_cursor: z.string().nullish(),
});

/** A page of `item`s: `{ data, meta? }`, or a bare array read as one page without cursors. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.union([
    z.looseObject({ data: z.array(item), meta: listMetaSchema.optional() }),
    z.array(item).transform((data) => ({ data, meta: undefined })),
  ]);
}

/** A page of items. */
export interface Page<T> {
  data: T[];
  meta?: { per_page?: string; next_cursor?: string | null; prev_cursor?: string | null } | undefined;
}
