/**
 * Small pieces of HTTP shared by the handler's routes: JSON answers, and bodies read within a size and a time
 * limit off an {@link Exchange}.
 */
import { PaykitError } from '@paykit/core';
import { parseJsonObject } from '../body-text.js';
import type { Answer, BodyReader, Exchange } from './exchange.js';

/** Headers on every answer of the handler: JSON, never cached, never sniffed. */
const BASE_HEADERS = {
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

/** A JSON answer: `body` as JSON text, with the handler's base headers and `headers` (names put in lower case). */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Answer {
  const fields: Record<string, string> = { ...BASE_HEADERS };
  for (const name in headers) fields[name.toLowerCase()] = headers[name]!;
  return { status, headers: fields, body: JSON.stringify(body) };
}

/** How much of a body a route takes, and for how long after the request arrived. */
export interface BodyLimits {
  /** At most this many bytes, by `Content-Length` or by what actually arrives. */
  readonly maxBytes: number;
  /** Whole within this many milliseconds of {@link Exchange.receivedAt}. */
  readonly timeoutMs: number;
}

/** A body read whole, with the media type it was sent as (lower case, without parameters). */
export interface ReadBody {
  type: string;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * Reads a body within `limits` whose media type is one of `types`, refusing before reading on: 415 when it is
 * another type, 413 when it is too large (by `Content-Length` or by what actually arrives), 408
 * `request_timeout` when it has not fully arrived by its deadline (the reader is then cancelled). A body an
 * adapter had to rebuild from a parsed value ({@link Exchange.bodyRebuilt}) is still read.
 */
export async function readBody(exchange: Exchange, limits: BodyLimits, types: readonly string[]): Promise<ReadBody> {
  const type = (exchange.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!types.includes(type)) {
    throw new PaykitError('unsupported_media_type', `Send the body as ${types.join(' or ')}`);
  }
  const declared = Number(exchange.headers.get('content-length') ?? 0);
  if (declared > limits.maxBytes) throw tooLarge(limits.maxBytes);
  const reader = exchange.body();
  if (!reader) return { type, bytes: new Uint8Array() };
  return { type, bytes: await readLimited(reader, limits.maxBytes, exchange.receivedAt + limits.timeoutMs) };
}

/**
 * Reads a JSON object body within `limits` ({@link readBody}'s refusals), then 400 when it is not well-formed
 * JSON or not an object.
 */
export async function readJsonObject(exchange: Exchange, limits: BodyLimits): Promise<Record<string, unknown>> {
  const { bytes } = await readBody(exchange, limits, ['application/json']);
  return parseJsonObject(bytes);
}

/** `{ request }` for a hook, its `Request` made only when the hook reads it. */
export function hookContext(exchange: Exchange): { readonly request: Request } {
  return {
    get request() {
      return exchange.request();
    },
  };
}

/**
 * Reads `reader` to its end into one buffer: 413 past `maxBytes` (the reader cancelled), 408 `request_timeout`
 * when the end has not come by `deadline` (ms since the epoch; the reader cancelled, not awaited).
 */
async function readLimited(reader: BodyReader, maxBytes: number, deadline: number): Promise<Uint8Array<ArrayBuffer>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // One timer for the whole body (not one per chunk): it settles as 'expired' and each read races it.
  const expired = new Promise<'expired'>((resolve) => {
    timer = setTimeout(() => resolve('expired'), Math.max(0, deadline - Date.now()));
  });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const next = await Promise.race([reader.read(), expired]);
      if (next === 'expired') {
        // Not awaited: a source that never answers must not hold the 408 back.
        reader.cancel().catch(() => undefined);
        throw new PaykitError('request_timeout', 'The body did not arrive in time');
      }
      if (next.done || next.value === undefined) break;
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
  return new PaykitError('payload_too_large', `The body is larger than ${maxBytes} bytes`);
}
