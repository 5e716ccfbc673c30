/**
 * Following pages: every list operation is also an async iterator over all its items, page after page,
 * so that a caller never handles cursors or page numbers (and never skips or repeats an item between pages).
 * Lists come in two shapes (core's `listOf`): cursors (`meta.next_cursor`, spec 2.6 and the real service's
 * cursor lists) and page numbers (`meta.current_page` of `meta.last_page`, the real service's numbered lists).
 */
import type { Page } from '@paykit/core';

/** Where the next page starts: after a cursor, at a page number, or (undefined) at the beginning. */
export type PagePosition = { cursor: string } | { page: number } | undefined;

/**
 * Yields every item of every page, starting at `first` (a page request without position) and following
 * `meta.next_cursor`, or else `meta.current_page` up to `meta.last_page`, until there is no next page. A cursor
 * that repeats, or a numbered page that is not the one asked for, stops the walk with an error rather than loop.
 */
export async function* followPages<T>(fetchPage: (position: PagePosition) => Promise<Page<T>>): AsyncGenerator<T> {
  const seen = new Set<string>();
  let position: PagePosition;
  for (;;) {
    const page = await fetchPage(position);
    const asked = position !== undefined && 'page' in position ? position.page : undefined;
    if (asked !== undefined && page.meta?.current_page !== asked) {
      throw new Error(
        `The API answered page ${String(page.meta?.current_page)} when asked for page ${asked}; stopping`,
      );
    }
    yield* page.data;
    if (page.data.length === 0) return;
    const next = page.meta?.next_cursor ?? undefined;
    if (next !== undefined && next !== '') {
      if (seen.has(next)) throw new Error(`The API returned the cursor ${next} twice; stopping to avoid a loop`);
      seen.add(next);
      position = { cursor: next };
      continue;
    }
    const current = page.meta?.current_page;
    const last = page.meta?.last_page;
    if (current === undefined || last === undefined || current >= last) return;
    position = { page: current + 1 };
  }
}

/**
 * Yields every item of every page by cursors only (see {@link followPages}, which also follows page numbers).
 * A cursor that repeats stops the walk with an error rather than loop.
 */
export async function* followCursors<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): AsyncGenerator<T> {
  yield* followPages((position) => {
    if (position !== undefined && 'page' in position) {
      throw new Error('This list answers page numbers; iterate it with followPages');
    }
    return fetchPage(position?.cursor);
  });
}
