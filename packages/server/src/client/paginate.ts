/**
 * Following cursors: every list operation is also an async iterator over all its items, page after page,
 * so that a caller never handles cursors (and never skips or repeats an item between pages).
 */
import type { Page } from '@paykit/core';

/**
 * Yields every item of every page, starting at `first` (a page request without cursor) and following
 * `meta.next_cursor` until there is none. A cursor that repeats stops the walk with an error rather than loop.
 */
export async function* followCursors<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): AsyncGenerator<T> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await fetchPage(cursor);
    yield* page.data;
    const next = page.meta?.next_cursor ?? undefined;
    if (next === undefined || next === '' || page.data.length === 0) return;
    if (seen.has(next)) throw new Error(`The API returned the cursor ${next} twice; stopping to avoid a loop`);
    seen.add(next);
    cursor = next;
  }
}
