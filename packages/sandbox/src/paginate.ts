/**
 * Cursor pagination both ways, as the balance-transactions list of spec 4.6 describes it
 * (`meta: { per_page, next_cursor, prev_cursor }`). A cursor is an opaque token naming the item next to which
 * the page starts, so pages stay put when items are added at the front.
 */
import { SandboxError } from './errors.js';

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
    throw new SandboxError(422, `${name} must be a whole number from 1 to ${max}`, 'validation_failed', [
      { path: name, message: `must be a whole number from 1 to ${max}` },
    ]);
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

function invalidCursor(name: string): SandboxError {
  return new SandboxError(422, `${name} is not a cursor from this list`, 'validation_failed', [
    { path: name, message: 'is not a cursor from this list' },
  ]);
}
