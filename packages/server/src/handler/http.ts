/**
 * Small pieces of HTTP shared by the handler's routes: JSON answers and size- and time-limited bodies.
 */
import { isJsonObject, PaykitError } from '@paykit/core';

/** Headers on every answer of the handler: JSON, never cached, never sniffed. */
const BASE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** The text of each answer made by {@link json}: the body as it was given, for {@link jsonText}. */
const texts = new WeakMap<Response, string>();

/** A JSON answer. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const text = JSON.stringify(body);
  const response = new Response(text, { status, headers: { ...BASE_HEADERS, ...headers } });
  texts.set(response, text);
  return response;
}

/**
 * The body of an answer made by {@link json}, as text; `undefined` for any other `Response`. The node adapter
 * writes it as it is, instead of reading the answer's body stream back into a buffer.
 */
export function jsonText(response: Response): string | undefined {
  return texts.get(response);
}

/** When each request's body must have arrived whole (ms since the epoch); see {@link setBodyDeadline}. */
const deadlines = new WeakMap<Request, number>();

/**
 * Sets when the body of `request` must have fully arrived, as a time in milliseconds since the epoch. The
 * handler sets it when a request comes in, so that every route's {@link readJsonObject} keeps it, however late
 * the route starts reading: a client that trickles its body cannot hold a request open for long.
 */
export function setBodyDeadline(request: Request, at: number): void {
  deadlines.set(request, at);
}

/** A body read whole, with the media type it was sent as (lower case, without parameters). */
export interface ReadBody {
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * Reads a body of at most `maxBytes` whose media type is one of `types`, refusing before reading on: 415 when
 * it is another type, 413 when it is too large (by `Content-Length` or by what actually arrives), 408
 * `request_timeout` when it has not fully arrived by its deadline ({@link setBodyDeadline}; the stream is then
 * cancelled). A body an adapter had to rebuild from a parsed value ({@link markBodyRebuilt}) is still read.
 */
export async function readBody(request: Request, maxBytes: number, types: readonly string[]): Promise<ReadBody> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!types.includes(type)) {
    throw new PaykitError('unsupported_media_type', `Send the body as ${types.join(' or ')}`, { status: 415 });
  }
  const declared = Number(request.headers.get('content-length') ?? 0);
  if (declared > maxBytes) throw tooLarge(maxBytes);
  return { type, bytes: await readLimited(request, maxBytes) };
}

/**
 * Reads a JSON object body of at most `maxBytes` ({@link readBody}'s refusals), then 400 when it is not
 * well-formed JSON or not an object.
 */
export async function readJsonObject(request: Request, maxBytes: number): Promise<Record<string, unknown>> {
  const { bytes } = await readBody(request, maxBytes, ['application/json']);
  return parseJsonObject(bytes);
}

/** The bytes as a JSON object: 400 `invalid_json` when they are not well-formed UTF-8 JSON, or not an object. */
export function parseJsonObject(bytes: Uint8Array): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (error) {
    throw new PaykitError('invalid_json', 'The body is not well-formed JSON', { status: 400, cause: error });
  }
  if (!isJsonObject(value)) {
    throw new PaykitError('invalid_json', 'The body must be a JSON object', { status: 400 });
  }
  return value;
}

/** Requests whose body is not the bytes the client sent but a rebuilt copy: see {@link markBodyRebuilt}. */
const rebuilt = new WeakSet<Request>();

/**
 * Marks a request whose body an adapter rebuilt from a value a body parser had already made of it (Express with
 * `express.json()` mounted first): the same data, but not the same bytes, so a signature over the bytes cannot
 * be checked on it.
 */
export function markBodyRebuilt(request: Request): void {
  rebuilt.add(request);
}

/** True when the request's body is a rebuilt copy ({@link markBodyRebuilt}). */
export function isBodyRebuilt(request: Request): boolean {
  return rebuilt.has(request);
}

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const deadline = deadlines.get(request);
  let timer: ReturnType<typeof setTimeout> | undefined;
  // One timer for the whole body (not one per chunk): it settles as 'expired' and each read races it.
  const expired =
    deadline === undefined
      ? undefined
      : new Promise<'expired'>((resolve) => {
          timer = setTimeout(() => resolve('expired'), Math.max(0, deadline - Date.now()));
        });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = expired ? await Promise.race([reader.read(), expired]) : await reader.read();
      if (next === 'expired') {
        // Not awaited: a source that never answers must not hold the 408 back.
        reader.cancel().catch(() => undefined);
        throw new PaykitError('request_timeout', 'The body did not arrive in time', { status: 408 });
      }
      if (next.done) break;
      size += next.value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge(maxBytes);
      }
      chunks.push(next.value);
    }
  } finally {
    clearTimeout(timer);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

function tooLarge(maxBytes: number): PaykitError {
  return new PaykitError('payload_too_large', `The body is larger than ${maxBytes} bytes`, { status: 413 });
}
