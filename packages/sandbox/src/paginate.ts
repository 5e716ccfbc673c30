/**
 * The sandbox's three list shapes. {@link paginate} answers the balance-transactions list of spec 4.6 and 2.6
 * (`meta: { per_page, next_cursor, prev_cursor }`, `per_page` a string), the only list the spec shows;
 * {@link cursorList} answers the real service's cursor lists (charges, customers, transfers, static QR codes in
 * its OpenAPI description): the same cursors with `links` and `meta.path`, and `per_page` a number;
 * {@link numberedList} answers its page-numbered lists (products, subscription plans, card readers):
 * `meta.current_page` of `meta.last_page`, `per_page` a number, `total`. A cursor is an opaque token naming the
 * item next to which the page starts, so pages stay put when items are added at the front. The README says
 * which list answers which shape, and why.
 */
import { PaykitError } from '@paykit/core';

/** A page and its cursors. */
export interface Page<T> {
  data: T[];
  meta: { per_page: string; next_cursor: string | null; prev_cursor: string | null };
}

/** Reads a page size from a query value: 1 to `max`, default `fallback`. */
export function readPageSize(value: string | undefined, name: string, fallback = 20, max = 100): number {
  if (value === undefined) return fallback;
  const size = /^\d{1,4}$/.test(value) ? Number(value) : Number.NaN;
  if (!(size >= 1 && size <= max)) {
    throw new PaykitError('validation_failed', `${name} must be a whole number from 1 to ${max}`, {
      errors: [{ path: name, message: `must be a whole number from 1 to ${max}` }],
    });
  }
  return size;
}

/** One page of `items` (already in list order) after or before the item named by `cursor`. */
export function paginate<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  options: { cursor: string | undefined; perPage: number; cursorName: string },
): Page<T> {
  let start = 0;
  let end = Math.min(items.length, options.perPage);
  if (options.cursor !== undefined) {
    const { direction, key } = decodeCursor(options.cursor, options.cursorName);
    const index = items.findIndex((item) => keyOf(item) === key);
    if (index === -1) throw invalidCursor(options.cursorName);
    if (direction === 'next') {
      start = index + 1;
      end = Math.min(items.length, start + options.perPage);
    } else {
      end = index;
      start = Math.max(0, end - options.perPage);
    }
  }
  const data = items.slice(start, end);
  const first = data[0];
  const last = data.at(-1);
  return {
    data,
    meta: {
      per_page: String(options.perPage),
      next_cursor: last !== undefined && end < items.length ? encodeCursor('next', keyOf(last)) : null,
      prev_cursor: first !== undefined && start > 0 ? encodeCursor('prev', keyOf(first)) : null,
    },
  };
}

/** A page as the real service's cursor lists answer it (its OpenAPI: `GET /v1/charges`, `/v1/customers`). */
export interface CursorListPage<T> {
  data: T[];
  /** `first` and `last` are always null on a cursor list; `prev` and `next` are this list's URL with the cursor. */
  links: { first: null; last: null; prev: string | null; next: string | null };
  meta: { path: string; per_page: number; next_cursor: string | null; prev_cursor: string | null };
}

/**
 * One page in the real service's cursor-list shape. `url` is the request's URL: `meta.path` is it without
 * the query, and `links.prev`/`links.next` keep its query with the cursor replaced.
 */
export function cursorList<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  options: { cursor: string | undefined; perPage: number; cursorName: string; url: string },
): CursorListPage<T> {
  const page = paginate(items, keyOf, options);
  const url = new URL(options.url);
  const link = (cursor: string | null) => {
    if (cursor === null) return null;
    const next = new URL(url);
    next.searchParams.set(options.cursorName, cursor);
    return next.href;
  };
  return {
    data: page.data,
    links: { first: null, last: null, prev: link(page.meta.prev_cursor), next: link(page.meta.next_cursor) },
    meta: {
      path: `${url.origin}${url.pathname}`,
      per_page: options.perPage,
      next_cursor: page.meta.next_cursor,
      prev_cursor: page.meta.prev_cursor,
    },
  };
}

/** A page as the real service's page-numbered lists answer it (its OpenAPI: `GET /v1/products`). */
export interface NumberedListPage<T> {
  data: T[];
  /** This list's URL at the first, last, previous and next page (null when there is none). */
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    /** The position of the page's first and last item in the whole list, from 1; null on an empty page. */
    from: number | null;
    last_page: number;
    /** Empty, as the service's products example shows it. */
    links: never[];
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
}

/** Reads a page number from a query value: a whole number from 1, default 1. */
export function readPageNumber(value: string | undefined, name: string): number {
  if (value === undefined) return 1;
  const page = /^\d{1,6}$/.test(value) ? Number(value) : Number.NaN;
  if (!(page >= 1)) {
    throw new PaykitError('validation_failed', `${name} must be a whole number from 1`, {
      errors: [{ path: name, message: 'must be a whole number from 1' }],
    });
  }
  return page;
}

/**
 * Page `page` of `items` (already in list order) in the real service's page-numbered shape. `url` is the
 * request's URL: `meta.path` is it without the query, and the links keep its query with the page replaced. A
 * page past the last is empty (as Laravel's are), with `current_page` the one asked for.
 */
export function numberedList<T>(
  items: readonly T[],
  options: { page: number; perPage: number; pageName: string; url: string },
): NumberedListPage<T> {
  const { page, perPage } = options;
  const lastPage = Math.max(1, Math.ceil(items.length / perPage));
  const start = (page - 1) * perPage;
  const data = items.slice(start, start + perPage);
  const url = new URL(options.url);
  const link = (at: number) => {
    const next = new URL(url);
    next.searchParams.set(options.pageName, String(at));
    return next.href;
  };
  return {
    data,
    links: {
      first: link(1),
      last: link(lastPage),
      prev: page > 1 && page <= lastPage + 1 ? link(page - 1) : null,
      next: page < lastPage ? link(page + 1) : null,
    },
    meta: {
      current_page: page,
      from: data.length ? start + 1 : null,
      last_page: lastPage,
      links: [],
      path: `${url.origin}${url.pathname}`,
      per_page: perPage,
      to: data.length ? start + data.length : null,
      total: items.length,
    },
  };
}

function encodeCursor(direction: 'next' | 'prev', key: string): string {
  return Buffer.from(JSON.stringify([direction, key])).toString('base64url');
}

function decodeCursor(cursor: string, name: string): { direction: 'next' | 'prev'; key: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString());
    if (Array.isArray(value) && (value[0] === 'next' || value[0] === 'prev') && typeof value[1] === 'string') {
      return { direction: value[0], key: value[1] };
    }
  } catch {
    // fall through to the error below
  }
  throw invalidCursor(name);
}

function invalidCursor(name: string): PaykitError {
  return new PaykitError('validation_failed', `${name} is not a cursor from this list`, {
    errors: [{ path: name, message: 'is not a cursor from this list' }],
  });
}
