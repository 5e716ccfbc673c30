/**
 * The one reader of request bodies: JSON, form-urlencoded and multipart/form-data, size-limited before parsing,
 * never a crash on bad input. Every route that takes a body reads it here and says which encodings it takes;
 * each encoding gives the same fields (a form's `payment_methods[]` is a list, `address[line1]` an object), so
 * that a field reads the same however it was sent. Refusals are `PaykitError`s: 400 `invalid_json` or
 * `invalid_body`, 400 `duplicate_parameter`, 413 `payload_too_large`, 415 `unsupported_media_type`.
 */
import { decodeForm, isJsonObject, parseOrThrow, PaykitError } from '@paykit/core';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type * as z from 'zod';

/** The largest body the sandbox reads: 64 KiB. */
export const MAX_BODY_BYTES = 64 * 1024;

/** An encoding a route may take. */
export type BodyEncoding = 'json' | 'form' | 'multipart';

/** The media type of each encoding, as `Content-Type` names it. */
const MEDIA_TYPES: Readonly<Record<BodyEncoding, string>> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
};

/**
 * What most `/v1` routes take: JSON, and forms because the real service's own examples send forms. Multipart
 * only where the service documents it (creating products).
 */
const DEFAULT_ENCODINGS: readonly BodyEncoding[] = ['json', 'form'];

/** Options of {@link readBody}. */
export interface ReadBodyOptions {
  /** The encodings the route takes; any other `Content-Type` is 415. Default JSON and form-urlencoded. */
  accept?: readonly BodyEncoding[];
}

/**
 * The app-wide limit: every route that reads a body (the pages' forms too) stops at {@link MAX_BODY_BYTES}, also
 * when the body comes in chunks of unknown total length, so nothing reads an endless upload into memory.
 * A declared length is checked from the header alone (Node's parser never reads past it); only a chunked body
 * goes through `hono/body-limit`, because touching `request.body` halves the sandbox's throughput.
 */
export function bodyLimitMiddleware(): MiddlewareHandler {
  const chunked = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: () => Promise.reject(tooLarge()) });
  return (c, next) => {
    if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    const declared = c.req.header('content-length');
    if (declared === undefined) return chunked(c, next);
    if (Number(declared) > MAX_BODY_BYTES) throw tooLarge();
    return next();
  };
}

/**
 * Reads the body's fields. A JSON body must be an object; a form or multipart body becomes what the same fields
 * would be as JSON, without its empty values (see {@link sentValues}). A multipart body's file parts are left
 * out: the sandbox stores no files. A request with no body and no `Content-Type` has no fields (`{}`), whatever
 * the route accepts.
 */
export async function readBody(request: Request, options: ReadBodyOptions = {}): Promise<Record<string, unknown>> {
  const accept = options.accept ?? DEFAULT_ENCODINGS;
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  const encoding = accept.find((candidate) => MEDIA_TYPES[candidate] === type);
  // Multipart is parsed from the stream (its boundary is in the header); the others from the text.
  if (encoding === 'multipart') return nestBrackets(decodeForm(sentValues(await multipartParams(request))));
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw tooLarge();
  if (encoding === 'form') return nestBrackets(decodeForm(sentValues(new URLSearchParams(text))));
  if (encoding === 'json') return jsonObject(text);
  if (type === '' && text === '') return {};
  throw new PaykitError(
    'unsupported_media_type',
    `Send the body as ${accept.map((name) => MEDIA_TYPES[name]).join(' or ')}`,
  );
}

/**
 * The fields of a form that one of the sandbox's own HTML pages posted (checkout, consent, dashboard, terminal),
 * as the browser sent them. The pages answer in HTML, so they judge the fields themselves (a missing or
 * repeated one is their error page, not a JSON 4xx); only the size limit is shared with {@link readBody}.
 */
export async function readPageForm(request: Request): Promise<URLSearchParams> {
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw tooLarge();
  return new URLSearchParams(text);
}

/** Options of {@link parseBody}. */
export interface ParseBodyOptions extends ReadBodyOptions {
  /** What the body is, for the 422's message ("Refund is invalid: amount: ..."). Default `Request`. */
  what?: string;
}

/**
 * Reads the body ({@link readBody}) and parses it with `schema`, or throws core's 422 `validation_failed` naming
 * each bad field (`parseOrThrow`). Routes that also need the raw fields (to warn about unknown ones) call
 * `readBody` and `parseOrThrow` themselves.
 */
export async function parseBody<S extends z.ZodType>(
  schema: S,
  request: Request,
  options: ParseBodyOptions = {},
): Promise<z.output<S>> {
  return parseOrThrow(schema, await readBody(request, options), options.what);
}

/** A JSON text that must be an object. */
function jsonObject(text: string): Record<string, unknown> {
  if (text === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new PaykitError('invalid_json', 'The body is not well-formed JSON');
  }
  if (!isJsonObject(value)) throw new PaykitError('invalid_json', 'The body must be a JSON object');
  return value;
}

/**
 * The form fields that carry a value. A form has no null, so a client that leaves a field blank (`quantity=`,
 * `address[line2]=`, `payment_methods[]=`) sends it empty, and the service reads that as not sent: a product
 * with an empty `quantity` is created (201), not refused. OAuth's token form is read the same way, as RFC 6749
 * section 3.1 asks. JSON keeps `""`: there, a client that means "not sent" leaves the field out or sends null.
 */
function sentValues(params: URLSearchParams): URLSearchParams {
  const sent = new URLSearchParams();
  for (const [key, value] of params) if (value !== '') sent.append(key, value);
  return sent;
}

/** A multipart/form-data body's text parts as form parameters (`category_ids[]` repeated, as in a form). */
async function multipartParams(request: Request): Promise<URLSearchParams> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new PaykitError('invalid_body', 'The body is not well-formed multipart/form-data');
  }
  const params = new URLSearchParams();
  // forEach, not for..of: FormData's iterator is missing from the DOM lib the elements' typecheck compiles this with.
  form.forEach((value, key) => {
    if (typeof value === 'string') params.append(key, value);
  });
  return params;
}

/** `name[key]`: one level of nesting, the form encoding the real service takes for `address` and `metadata`. */
const BRACKETED = /^([^[\]]+)\[([^[\]]+)\]$/;
const FORBIDDEN = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * Turns `address[line1]=...&address[city]=...` into `{ address: { line1, city } }`, as a JSON body would send
 * it, so that a field reads the same either way. A name used both plain and bracketed is a duplicate (400), and
 * `__proto__`-like keys are refused as `decodeForm` refuses them at the top level.
 */
export function nestBrackets(fields: Record<string, unknown>): Record<string, unknown> {
  const out = bare();
  for (const [key, value] of Object.entries(fields)) {
    if (!BRACKETED.test(key)) {
      if (key in out) throw duplicate(key);
      out[key] = value;
      continue;
    }
    const open = key.indexOf('[');
    const name = key.slice(0, open);
    const inner = key.slice(open + 1, -1);
    if (FORBIDDEN.has(name) || FORBIDDEN.has(inner)) {
      throw new PaykitError('validation_failed', `Form field "${key}" is not allowed`, {
        errors: [{ path: key, message: 'is not allowed' }],
      });
    }
    const group = out[name] ?? (out[name] = bare());
    if (!isJsonObject(group) || inner in group) throw duplicate(name);
    group[inner] = value;
  }
  // Plain objects again (zod and JSON handle prototype-less ones, but callers may spread or compare them).
  return Object.fromEntries(
    Object.entries(out).map(([key, value]) => (isJsonObject(value) ? [key, { ...value }] : [key, value])),
  );
}

/** An object without a prototype, so that `__proto__`-like keys are plain keys (Object.create is typed `any`). */
function bare(): Record<string, unknown> {
  return Object.create(null);
}

function duplicate(name: string): PaykitError {
  return new PaykitError('duplicate_parameter', `Form field "${name}" appears more than once`, {
    errors: [{ path: name, message: 'appears more than once' }],
  });
}

function tooLarge(): PaykitError {
  return new PaykitError('payload_too_large', `The body is larger than ${MAX_BODY_BYTES} bytes`);
}
