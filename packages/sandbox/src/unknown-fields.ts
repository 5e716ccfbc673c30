/**
 * Fields nobody documents: the real service ignores them, so the sandbox does too (code that works here must
 * work there), but it names them in an `X-Sandbox-Warning` response header so that a typo (`amout`) is seen
 * without breaking anything. Any route that reads a body can use it.
 */
import type { Context } from 'hono';

/** The response header that names ignored fields. */
export const SANDBOX_WARNING_HEADER = 'X-Sandbox-Warning';

/** The keys of `body` that are not in `known`, in the order they came. */
export function unknownFields(body: Readonly<Record<string, unknown>>, known: readonly string[]): string[] {
  return Object.keys(body).filter((key) => !known.includes(key));
}

/**
 * Sets `X-Sandbox-Warning: ignored unknown field "amout"` (or `fields "a", "b"`) when `fields` is not empty.
 * Names are quoted, anything outside printable ASCII escaped, and the list kept short: a header must stay a
 * valid header whatever the client sent.
 */
export function warnUnknownFields(c: Context, fields: readonly string[]): void {
  if (fields.length === 0) return;
  const shown = fields.slice(0, 10).map(quote);
  const more = fields.length > shown.length ? ` and ${fields.length - shown.length} more` : '';
  const noun = fields.length === 1 ? 'field' : 'fields';
  c.header(SANDBOX_WARNING_HEADER, `ignored unknown ${noun} ${shown.join(', ')}${more}`);
}

function quote(name: string): string {
  const short = name.length > 64 ? `${name.slice(0, 64)}...` : name;
  return JSON.stringify(short).replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
