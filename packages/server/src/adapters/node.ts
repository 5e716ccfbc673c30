/**
 * Runs a web-standard handler on `node:http`: the request becomes a `Request` (streaming body, its `signal`
 * aborted when the client goes away), and the `Response` is written back (status, every header including
 * repeated `Set-Cookie`, body).
 *
 * A body the handler stops reading (cancelled: too large, or too slow for its read deadline) is not read
 * further, the answer is still written, with `Connection: close`, and the connection ends after it: the rest of
 * a refused body is never waited for.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  acceptsDeferredRequests,
  BODY_READER,
  jsonFields,
  jsonText,
  markBodyRebuilt,
  setHeaders,
  WEB_REQUEST,
  type BodyReader,
  type DeferredRequest,
} from '../handler/http.js';

/** A request as Express and Connect pass it: `originalUrl` is the URL before any mount path was removed. */
type NodeRequest = IncomingMessage & { originalUrl?: string };

/**
 * A body another middleware already read off the stream: its bytes (a raw or text parser kept them), or a copy
 * `rebuilt` from the value a parser made of them (`express.json()`), which is the same data but not the bytes.
 */
export interface ConsumedBody {
  bytes: string | Uint8Array<ArrayBuffer>;
  rebuilt: boolean;
}

/**
 * A `node:http` request listener that answers every request with `handler`.
 *
 * @example
 * ```ts
 * http.createServer(toNodeListener(createPaykitHandler(options))).listen(3000, '127.0.0.1');
 * ```
 */
export function toNodeListener(
  handler: (request: Request) => Promise<Response>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(handler, req, res);
  };
}

/** Answers one request; used by the listener and by the Express middleware. */
export async function handleNodeRequest(
  handler: (request: Request) => Promise<Response>,
  req: NodeRequest,
  res: ServerResponse,
  body?: ConsumedBody,
): Promise<void> {
  // The signal is made when something first reads `request.signal`: on Node 20 a signal that a Request
  // follows costs about as much as the Request itself, and the handler's own routes never read it.
  let controller: AbortController | undefined;
  let gone = false;
  res.once('close', () => {
    if (res.writableFinished) return;
    gone = true;
    controller?.abort();
  });
  const signal = (): AbortSignal => {
    if (!controller) {
      controller = new AbortController();
      if (gone) controller.abort();
    }
    return controller.signal;
  };
  // paykit's own handler reads its request through handler/http.ts, which takes a NodeIncoming as it is: no web
  // Request, no body stream. Any other handler gets a real Request.
  let incoming: NodeIncoming | undefined;
  let stream: ReturnType<typeof bodyStream> | undefined;
  let response: Response;
  try {
    let request: Request;
    if (acceptsDeferredRequests(handler)) {
      incoming = new NodeIncoming(req, signal, body);
      // Duck-typed: a handler that accepts deferred requests reads only what NodeIncoming has (see above).
      request = incoming as unknown as Request;
    } else {
      const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
      stream = body === undefined && hasBody ? bodyStream(req) : undefined;
      request = toRequest(req, signal, body?.bytes ?? stream?.body);
    }
    if (body?.rebuilt) markBodyRebuilt(request);
    response = await handler(request);
  } catch {
    // The handler answers its own failures; this is a bug in the adapter's caller, and no detail leaves it.
    response = new Response('{"message":"Something went wrong.","code":"internal_error"}', {
      status: 500,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  }
  if ((incoming?.cancelled() ?? stream?.cancelled()) && !req.complete) {
    // The client may still be sending: say the connection ends, and drop what arrives until it does, so that
    // unread bytes do not turn the close into a reset that could lose the answer on the client's side.
    setHeaders(response, { connection: 'close' });
    req.resume();
  }
  return writeResponse(response, res);
}

/**
 * The body of `req` as a web stream, read as the handler pulls. Cancelling it pauses `req` instead of
 * destroying it (which would destroy the socket before the refusal could be written).
 */
function bodyStream(req: IncomingMessage): { body: ReadableStream<Uint8Array>; cancelled(): boolean } {
  let cancelled = false;
  let settled = false;
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        req.pause();
        req.on('data', (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 1) <= 0) req.pause();
        });
        req.once('end', () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        const fail = (error: unknown) => {
          if (settled) return;
          settled = true;
          controller.error(error);
        };
        req.once('error', fail);
        // A client that goes away mid-body: the read fails instead of waiting forever.
        req.once('close', () => {
          if (!req.complete) fail(new Error('The client went away before the body was complete'));
        });
      },
      pull() {
        req.resume();
      },
      cancel() {
        cancelled = true;
        settled = true;
        req.pause();
      },
    },
    { highWaterMark: 64 * 1024, size: (chunk) => chunk.byteLength },
  );
  return { body, cancelled: () => cancelled };
}

/**
 * The body of `req` as {@link BodyReader} reads it, straight off the stream: a chunk at a time, `req` paused
 * while no read is waiting. Cancelling pauses `req` (as {@link bodyStream}'s cancel does).
 */
function nodeBodyReader(req: IncomingMessage): BodyReader & { cancelled(): boolean } {
  const chunks: Buffer[] = [];
  let ended = false;
  let failure: Error | undefined;
  let cancelled = false;
  let listening = false;
  let waiting: { resolve(chunk: Buffer | undefined): void; reject(error: Error): void } | undefined;
  const wake = (): void => {
    const waiter = waiting;
    if (!waiter) return;
    if (chunks.length > 0) {
      waiting = undefined;
      waiter.resolve(chunks.shift());
    } else if (failure) {
      waiting = undefined;
      waiter.reject(failure);
    } else if (ended || cancelled) {
      waiting = undefined;
      waiter.resolve(undefined);
    }
  };
  const listen = (): void => {
    listening = true;
    req.on('data', (chunk: Buffer) => {
      if (cancelled) return;
      chunks.push(chunk);
      req.pause();
      wake();
    });
    req.once('end', () => {
      ended = true;
      wake();
    });
    const fail = (error: Error): void => {
      if (ended) return;
      failure ??= error;
      wake();
    };
    req.once('error', fail);
    // A client that goes away mid-body: the read fails instead of waiting forever.
    req.once('close', () => {
      if (!req.complete) fail(new Error('The client went away before the body was complete'));
    });
  };
  return {
    read() {
      if (!listening) listen();
      return new Promise<Buffer | undefined>((resolve, reject) => {
        waiting = { resolve, reject };
        wake();
        if (waiting && !cancelled) req.resume();
      }).then((chunk) => (chunk === undefined ? { done: true as const } : { done: false as const, value: chunk }));
    },
    cancel() {
      cancelled = true;
      req.pause();
      wake();
      return Promise.resolve();
    },
    cancelled: () => cancelled,
  };
}

/** A body another middleware already read, as {@link BodyReader} reads it: one chunk. */
function consumedBodyReader(bytes: string | Uint8Array): BodyReader {
  let given = false;
  return {
    read() {
      if (given) return Promise.resolve({ done: true as const });
      given = true;
      return Promise.resolve({ done: false as const, value: typeof bytes === 'string' ? Buffer.from(bytes) : bytes });
    },
    cancel() {
      given = true;
      return Promise.resolve();
    },
  };
}

/** The members of `Request.prototype` that a {@link NodeIncoming} answers itself, without a Request. */
const OWN = new Set<PropertyKey>(['constructor', 'method', 'url', 'headers', 'signal', 'body', Symbol.toStringTag]);

/**
 * A request of `node:http` as paykit's handler reads it (a {@link DeferredRequest}): `method`, `url`, `headers`
 * and `signal` come from `req`, and the body is read off `req` itself, without the web `Request` and its body
 * stream that {@link toRequest} builds. Anything else of a `Request` (`clone()`, `text()`, `cache`, ...), and
 * `body` unless the handler read it directly, is the real `Request`'s, made on first use: that Request is what a
 * hook of the merchant's gets ({@link WEB_REQUEST}). It passes `instanceof Request`; only the handler sees it.
 */
class NodeIncoming implements DeferredRequest {
  readonly #req: NodeRequest;
  readonly #signal: () => AbortSignal;
  readonly #consumed: ConsumedBody | undefined;
  readonly #hasBody: boolean;
  #url: string | undefined;
  #headers: Headers | undefined;
  #reader: (BodyReader & { cancelled?(): boolean }) | null | undefined;
  #request: Request | undefined;
  #stream: ReturnType<typeof bodyStream> | undefined;

  constructor(req: NodeRequest, signal: () => AbortSignal, consumed: ConsumedBody | undefined) {
    this.#req = req;
    this.#signal = signal;
    this.#consumed = consumed;
    this.#hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  }

  get method(): string {
    return this.#req.method ?? 'GET';
  }

  get url(): string {
    this.#url ??= urlOf(this.#req).href;
    return this.#url;
  }

  get headers(): Headers {
    this.#headers ??= headersOf(this.#req);
    return this.#headers;
  }

  get signal(): AbortSignal {
    return this.#signal();
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#hasBody ? this[WEB_REQUEST]().body : null;
  }

  /** True when the handler stopped reading the body (too large, too slow): see {@link handleNodeRequest}. */
  cancelled(): boolean {
    return (this.#reader?.cancelled?.() ?? false) || (this.#stream?.cancelled() ?? false);
  }

  [BODY_READER](): BodyReader | null | undefined {
    if (this.#reader === undefined && this.#request === undefined) {
      if (!this.#hasBody) this.#reader = null;
      else if (this.#consumed) this.#reader = consumedBodyReader(this.#consumed.bytes);
      else this.#reader = nodeBodyReader(this.#req);
    }
    return this.#reader;
  }

  [WEB_REQUEST](): Request {
    if (this.#request) return this.#request;
    let body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | undefined;
    if (this.#reader) {
      body = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
    } else if (this.#consumed) body = this.#consumed.bytes;
    else if (this.#hasBody) {
      this.#stream = bodyStream(this.#req);
      body = this.#stream.body;
    }
    this.#request = toRequest(this.#req, this.#signal, body, this.#headers);
    // The handler has read (or is reading) the body off `req`: the Request's body is a used one, as it would be.
    if (this.#reader) void this.#request.body?.getReader().read();
    return this.#request;
  }

  static {
    // Everything else of Request.prototype is the real Request's: its accessors read on it, its methods called
    // on it.
    for (const key of Reflect.ownKeys(Request.prototype)) {
      if (OWN.has(key)) continue;
      const descriptor = Object.getOwnPropertyDescriptor(Request.prototype, key)!;
      // Looked up on the Request each time: an IncomingRequest's own `clone` keeps the signal that aborts.
      if (descriptor.get) {
        Object.defineProperty(NodeIncoming.prototype, key, {
          configurable: true,
          get(this: NodeIncoming) {
            return Reflect.get(this[WEB_REQUEST](), key);
          },
        });
      } else if (typeof descriptor.value === 'function') {
        Object.defineProperty(NodeIncoming.prototype, key, {
          configurable: true,
          writable: true,
          value(this: NodeIncoming, ...args: unknown[]) {
            const request = this[WEB_REQUEST]();
            // The key names a method of Request.prototype (checked above), so the property is a function.
            return (Reflect.get(request, key) as (...args: unknown[]) => unknown).apply(request, args);
          },
        });
      }
    }
    Object.setPrototypeOf(NodeIncoming.prototype, Request.prototype);
  }
}

function handle(handler: (request: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse) {
  return handleNodeRequest(handler, req, res).catch(() => res.destroy());
}

/**
 * A `Request` whose `signal` is made on first use (see {@link handleNodeRequest}); so is the signal of its
 * clones. A Request made from it with `new Request(request)` or `fetch(request)` takes the base signal instead,
 * which never aborts.
 */
class IncomingRequest extends Request {
  readonly #signal: () => AbortSignal;

  constructor(input: string | URL | Request, init: RequestInit, signal: () => AbortSignal) {
    super(input, init);
    this.#signal = signal;
  }

  static {
    // On Request.prototype `signal` is an accessor and `clone` a method; some type libraries declare them as
    // properties, which a class may not override with an accessor or a method, so they are defined here.
    Object.defineProperties(IncomingRequest.prototype, {
      signal: {
        configurable: true,
        get(this: IncomingRequest): AbortSignal {
          return this.#signal();
        },
      },
      clone: {
        configurable: true,
        writable: true,
        value(this: IncomingRequest): Request {
          return new IncomingRequest(Request.prototype.clone.call(this), {}, this.#signal);
        },
      },
    });
  }
}

/** A host name, IPv4 or bracketed IPv6 address, with an optional port. */
const PLAIN_HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
/**
 * A request target that is a path: one slash, not followed by another, a backslash or a tab or newline (which
 * the URL parser drops, so that a slash after it would still make "//" and name a host).
 */
const PATH = /^\/(?:$|[^/\\\t\n\r])/;

/**
 * The URL of the request: its target resolved against the origin it came to. A plain host and a target that is
 * a path (the usual case) make it by concatenation; anything else (an absolute or "//" target, an unusual
 * Host) is resolved against the origin.
 */
function urlText(req: NodeRequest): string | URL {
  // The host comes from the socket's own address when the Host header is absent (HTTP/1.0).
  const host = req.headers.host ?? `${req.socket.localAddress ?? '127.0.0.1'}:${req.socket.localPort ?? 80}`;
  const protocol = 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
  const origin = `${protocol}://${host}`;
  const target = req.originalUrl ?? req.url ?? '/';
  return PLAIN_HOST.test(host) && PATH.test(target) ? origin + target : new URL(target, origin);
}

/** The request's URL as a `Request` would have it (parsed: normalised, percent-encoded). */
function urlOf(req: NodeRequest): URL {
  const url = urlText(req);
  return typeof url === 'string' ? new URL(url) : url;
}

/** The request's headers, as sent (repeated ones appended). */
function headersOf(req: NodeRequest): Headers {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    const value = req.rawHeaders[i + 1];
    // HTTP/2 pseudo-headers (":path") are not headers of a Request.
    if (name !== undefined && value !== undefined && !name.startsWith(':')) headers.append(name, value);
  }
  return headers;
}

function toRequest(
  req: NodeRequest,
  signal: () => AbortSignal,
  body?: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array>,
  headers: Headers = headersOf(req),
): Request {
  // The Request parses the URL itself.
  const url = urlText(req);
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = body ?? null;
    init.duplex = 'half';
  }
  return new IncomingRequest(url, init, signal);
}

/**
 * Writes the answer back. The handler's answers are small JSON documents: one write of the whole body, with
 * its length, is much cheaper than piping a stream. An answer made by `json` is written from its text at once,
 * without reading its body stream back (reading `response.body` would also make a lazily built Response, such
 * as @hono/node-server's, build its stream); any other body is read into one buffer first.
 */
function writeResponse(response: Response, res: ServerResponse): Promise<void> | undefined {
  const fields = jsonFields(response);
  if (fields) {
    // An answer of the handler's that is no Response yet: its fields as they are.
    const text = jsonText(response)!;
    res.writeHead(response.status, { ...fields, 'content-length': String(Buffer.byteLength(text)) });
    res.end(text);
    return undefined;
  }
  const text = jsonText(response);
  if (text !== undefined || !response.body) {
    send(response, res, text);
    return undefined;
  }
  return response.arrayBuffer().then((bytes) => send(response, res, Buffer.from(bytes)));
}

function send(response: Response, res: ServerResponse, body: string | Buffer | undefined): void {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  if (body !== undefined && !('content-length' in headers)) headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(response.status, headers);
  res.end(body);
}
