/**
 * Lists. The spec shows one list shape, the balance transactions' `{ data, meta: { per_page, next_cursor,
 * prev_cursor } }` (2.6, `per_page` a string). The real service's other lists come in two shapes (its OpenAPI
 * description): cursor lists (charges, customers, transfers) `{ data, links, meta: { path, per_page,
 * next_cursor, prev_cursor } }` with `per_page` a number, and page-numbered lists (beneficiaries, products)
 * `{ data, links, meta: { current_page, last_page, per_page, total, ... } }`. paykit reads all of them, and
 * also a bare array (one page, nothing to follow). `per_page` is kept as the API wrote it.
 */
import * as z from 'zod';

/** A whole page number (1 or more), as a number or its text. */
const pageNumber = z
  .union([
    z.number(),
    z
      .string()
      .regex(/^\d{1,9}$/)
      .transform(Number),
  ])
  .pipe(z.int().min(1));

/** The cursors, or the page numbers, of a page. */
export const listMetaSchema = z.looseObject({
  per_page: z.union([z.string(), z.number()]).optional(),
  next_cursor: z.string().nullish(),
  prev_cursor: z.string().nullish(),
  current_page: pageNumber.optional(),
  last_page: pageNumber.optional(),
  total: z.number().optional(),
});

/** A page of `item`s: `{ data, meta?, links? }`, or a bare array read as one page without cursors. */
export function listOf<T extends z.ZodType>(item: T) {
  return z.union([
    z.looseObject({ data: z.array(item), meta: listMetaSchema.optional() }),
    z.array(item).transform((data) => ({ data, meta: undefined })),
  ]);
}

/** A page of items. */
export interface Page<T> {
  data: T[];
  meta?:
    | {
        per_page?: string | number | undefined;
        next_cursor?: string | null | undefined;
        prev_cursor?: string | null | undefined;
        /** Page-numbered lists: this page's number and the last one's. */
        current_page?: number | undefined;
        last_page?: number | undefined;
        total?: number | undefined;
      }
    | undefined;
}
