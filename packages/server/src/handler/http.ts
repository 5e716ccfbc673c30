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

/**
 * An answer made by {@link json}: its status, headers and text, and the web `Response` made of them on first use.
 * The handler gives a real `Response` to every caller but the node adapter ({@link webResponse}), which writes
 * the answer from these fields: building a `Response` (its headers, its body stream) costs more than the rest of
 * writing the answer.
 */
class JsonAnswer {
  readonly status: number;
  readonly text: string;
  /** The headers while no `Response` was made; after that, the Response's own. */
  fields: Record<string, string> | undefined;
  #response: Response | undefined;

  constructor(status: number, text: string, fields: Record<string, string>) {
    this.status = status;
    this.text = text;
    this.fields = fields;
  }

  get headers(): Headers {
    return this.response().headers;
  }

  /** The web `Response` of this answer (the same one each time). */
  response(): Response {
    if (!this.#response) {
      this.#response = new Response(this.text, { status: this.status, headers: this.fields });
      this.fields = undefined;
    }
    return this.#response;
  }

  static {
    // Everything else of Response.prototype is the real Response's, so that code inside the handler may treat
    // an answer as the Response it is typed as.
    for (const key of Reflect.ownKeys(Response.prototype)) {
      if (key === 'constructor' || key === 'status' || key === 'headers' || key === Symbol.toStringTag) continue;
      const descriptor = Object.getOwnPropertyDescriptor(Response.prototype, key)!;
      if (descriptor.get) {
        Object.defineProperty(JsonAnswer.prototype, key, {
          configurable: true,
          get(this: JsonAnswer) {
            return Reflect.get(Response.prototype, key, this.response());
          },
        });
      } else if (typeof descriptor.value === 'function') {
        // typeof checked just above; the descriptor types its value `any`.
        const method = descriptor.value as (...args: unknown[]) => unknown;
        Object.defineProperty(JsonAnswer.prototype, key, {
          configurable: true,
          writable: true,
          value(this: JsonAnswer, ...args: unknown[]) {
            return method.apply(this.response(), args);
          },
        });
      }
    }
    Object.setPrototypeOf(JsonAnswer.prototype, Response.prototype);
  }
}

/** A JSON answer. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  const fields: Record<string, string> = { ...BASE_HEADERS };
  for (const name in headers) fields[name.toLowerCase()] = headers[name]!;
  // A JsonAnswer is a Response by its prototype (set above) and makes the real one only when read.
  return new JsonAnswer(status, JSON.stringify(body), fields) as unknown as Response;
}

/**
 * The body of an answer made by {@link json}, as text; `undefined` for any other `Response`. The node adapter
 * writes it as it is, instead of reading the answer's body stream back into a buffer.
 */
export function jsonText(response: Response): string | undefined {
  return response instanceof JsonAnswer ? response.text : undefined;
}

/**
 * The headers of an answer made by {@link json} while it is not a `Response` yet (names in lower case); undefined
 * otherwise (then read `response.headers`).
 */
export function jsonFields(response: Response): Readonly<Record<string, string>> | undefined {
  return response instanceof JsonAnswer ? response.fields : undefined;
}

/** Sets headers on an answer, without making a `Response` of one made by {@link json}. */
export function setHeaders(response: Response, headers: Record<string, string>): void {
  const fields = response instanceof JsonAnswer ? response.fields : undefined;
  for (const name in headers) {
    if (fields) fields[name.toLowerCase()] = headers[name]!;
    else response.headers.set(name, headers[name]!);
  }
}

/** The answer as a web `Response` (an answer made by {@link json} becomes one). */
export function webResponse(response: Response): Response {
  return response instanceof JsonAnswer ? response.response() : response;
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

/** Reads a body chunk by chunk: the part of a web stream's reader that {@link readBody} uses. */
export interface BodyReader {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
  cancel(): Promise<void>;
}

/**
 * What an adapter's request may offer instead of a web `Request` built for it (see `adapters/node.ts`): the body
 * read from the server's own stream, and the `Request` itself, made when a hook of the merchant's asks for it.
 * Every route reads through {@link readBody}, {@link hasBody} and {@link webRequest}, so both kinds are alike to it.
 */
export interface DeferredRequest {
  /**
   * The reader of the body off the server's own stream (the same one each time): null when there is no body,
   * undefined once the `Request`'s own body stream was taken instead.
   */
  [BODY_READER](): BodyReader | null | undefined;
  /** The `Request` this one stands for, made on first use (the same one each time). */
  [WEB_REQUEST](): Request;
}

/** The key of {@link DeferredRequest}'s body reader. */
export const BODY_READER = Symbol('paykit.bodyReader');
/** The key of {@link DeferredRequest}'s `Request`. */
export const WEB_REQUEST = Symbol('paykit.webRequest');

/** Handlers that take a {@link DeferredRequest} (the handler's own): an adapter may skip building a `Request`. */
const deferring = new WeakSet<object>();

/** Says that `handler` reads its requests only through this module's functions: see {@link DeferredRequest}. */
export function acceptDeferredRequests(handler: object): void {
  deferring.add(handler);
}

/** True when `handler` takes a {@link DeferredRequest}. */
export function acceptsDeferredRequests(handler: object): boolean {
  return deferring.has(handler);
}

/** True when `request` is a {@link DeferredRequest}: an adapter's, which takes any answer of {@link json} as it is. */
export function isDeferred(request: Request): boolean {
  return WEB_REQUEST in request;
}

/** True when the request has a body (without making a deferred request's `Request`). */
export function hasBody(request: Request): boolean {
  const direct = directBody(request);
  return direct === undefined ? request.body !== null : direct !== null;
}

function directBody(request: Request): BodyReader | null | undefined {
  // Only a deferred request (the Node adapter's NodeIncoming) carries BODY_READER.
  return BODY_READER in request ? (request as unknown as DeferredRequest)[BODY_READER]() : undefined;
}

/**
 * The web `Request` to hand to the merchant's code (a hook may pass it to `fetch`, or read its `signal`): the
 * request itself, or the one a deferred request stands for.
 */
export function webRequest(request: Request): Request {
  // Likewise: only a deferred request carries WEB_REQUEST.
  return WEB_REQUEST in request ? (request as unknown as DeferredRequest)[WEB_REQUEST]() : request;
}

/** `{ request }` for a hook, its `Request` made only when the hook reads it. */
export function hookContext(request: Request): { readonly request: Request } {
  return {
    get request() {
      return webRequest(request);
    },
  };
}

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const direct = directBody(request);
  if (direct === null || (direct === undefined && !request.body)) return new Uint8Array();
  const reader: BodyReader = direct ?? request.body!.getReader();
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
  return new PaykitError('payload_too_large', `The body is larger than ${maxBytes} bytes`, { status: 413 });
}
