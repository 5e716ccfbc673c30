/**
 * A list's answer from its row of the operation table: the shape (`cursor`, `numbered` or spec 2.6's
 * `spec-cursor`), the page size when none is asked (`perPage`) and the page-number parameter (`pageParam`). The
 * handler gives the items in list order; this reads `cursor`, `per_page` and the page number from the query.
 */
import type { ListKind } from '@paykit/core';
import { cursorList, numberedList, paginate, readPageNumber, readPageSize } from '../paginate.js';
import { ListItems } from '../operation-call.js';

/** What a list's row says of its pages. */
export interface ListRow {
  readonly pagination: ListKind;
  /** The page size when none is asked; 20 when the row names none. */
  readonly perPage?: number | undefined;
  readonly pageParam?: string | undefined;
}

/** One page of `items` as `row` answers it, at the position the request's query asks. */
export function listPage(
  row: ListRow,
  items: readonly { readonly id: string }[] | ListItems,
  request: { readonly url: string; query(): Record<string, string> },
): unknown {
  const entries =
    items instanceof ListItems ? items.entries : items.map((item) => ({ key: item.id, json: () => item }));
  const keyOf = (entry: (typeof entries)[number]) => entry.key;
  const query = request.query();
  const answer = <P extends { data: readonly (typeof entries)[number][] }>(page: P) => ({
    ...page,
    data: page.data.map((entry) => entry.json()),
  });
  if (row.pagination === 'numbered') {
    const pageName = row.pageParam ?? 'page';
    return answer(
      numberedList(entries, {
        page: readPageNumber(query[pageName], pageName),
        perPage: readPageSize(query.per_page, 'per_page', row.perPage),
        pageName,
        url: request.url,
      }),
    );
  }
  const position = { cursor: query.cursor, perPage: readPageSize(query.per_page, 'per_page', row.perPage) };
  if (row.pagination === 'spec-cursor') return answer(paginate(entries, keyOf, { ...position, cursorName: 'cursor' }));
  return answer(cursorList(entries, keyOf, { ...position, cursorName: 'cursor', url: request.url }));
}
