/**
 * Runs a web-standard handler on `node:http`: the request becomes a `Request` (streaming body, its `signal`
 * aborted when the client goes away), and the `Response` is written back (status, every header including
 * repeated `Set-Cookie`, body). paykit's own handler answers a plain exchange instead (`PaykitHandler.answer`):
 * it gets one read straight off `req` ({@link NodeExchange}), and its answer is written to `res` as it is; the
 * `Request` a merchant's hook reads is made only then, with the same signal.
 *
 * A body the handler stops reading (cancelled: too large, or too slow for its read deadline) is not read
 * further, the answer is still written, with `Connection: close`, and the connection ends after it: the rest of
 * a refused body is never waited for.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Answer, BodyReader, Exchange, HeaderReader } from '../handler/exchange.js';

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
 * What the adapters run: any web-standard handler; one that also answers a plain exchange (paykit's own, whose
 * `answer` is `PaykitHandler.answer`) is given the request as an {@link Exchange} read straight off `node:http`,
 * and its {@link Answer} is written as it is, without a web `Request` or `Response` made for either.
 */
export type NodeHandler = ((request: Request) => Promise<Response>) & {
  readonly answer?: ((exchange: Exchange) => Promise<Answer>) | undefined;
};

/**
 * A `node:http` request listener that answers every request with `handler`.
 *
 * @example
 * ```ts
 * http.createServer(toNodeListener(createPaykitHandler(options))).listen(3000, '127.0.0.1');
 * ```
 */
export function toNodeListener(handler: NodeHandler): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    void handle(handler, req, res);
  };
}

/** The answer when the handler itself throws: a bug in the adapter's caller, and no detail leaves it. */
const FAILED_BODY = '{"message":"Something went wrong.","code":"internal_error"}';

/** Answers one request; used by the listener and by the Express middleware. */
export async function handleNodeRequest(
  handler: NodeHandler,
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
  if (handler.answer) {
    const exchange = new NodeExchange(req, signal, body);
    let answer: Answer;
    try {
      answer = await handler.answer(exchange);
    } catch {
      answer = { status: 500, headers: { 'content-type': 'application/json; charset=utf-8' }, body: FAILED_BODY };
    }
    if (exchange.cancelled() && !req.complete) {
      // The client may still be sending: say the connection ends, and drop what arrives until it does, so that
      // unread bytes do not turn the close into a reset that could lose the answer on the client's side.
      answer.headers.connection = 'close';
      req.resume();
    }
    writeAnswer(answer, res);
    return;
  }
  // Any other handler gets a real Request.
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const stream = body === undefined && hasBody ? bodyStream(req) : undefined;
  let response: Response;
  try {
    response = await handler(toRequest(req, signal, body?.bytes ?? stream?.body));
  } catch {
    response = new Response(FAILED_BODY, {
      status: 500,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  }
  if (stream?.cancelled() && !req.complete) {
    // As above.
    response.headers.set('connection', 'close');
    req.resume();
  }
  return writeResponse(response, res);
}

/** Writes the handler's own answer: its status and headers as they are, its text at once, with its length. */
function writeAnswer(answer: Answer, res: ServerResponse): void {
  const { headers, body } = answer;
  if (body !== null) headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(answer.status, headers);
  res.end(body ?? undefined);
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
 * while no read is waiting. Cancelling pauses `req` (as {@link bodyStream}'s cancel does). A class, not a set of
 * closures: one object per request instead of seven functions.
 */
class NodeBodyReader implements BodyReader {
  readonly #req: IncomingMessage;
  readonly #chunks: Buffer[] = [];
  #ended = false;
  #failure: Error | undefined;
  #cancelled = false;
  #listening = false;
  #waiting: { resolve(chunk: Buffer | undefined): void; reject(error: Error): void } | undefined;

  constructor(req: IncomingMessage) {
    this.#req = req;
  }

  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }> {
    if (!this.#listening) this.#listen();
    return new Promise<Buffer | undefined>((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.#wake();
      if (this.#waiting && !this.#cancelled) this.#req.resume();
    }).then((chunk) => (chunk === undefined ? { done: true } : { done: false, value: chunk }));
  }

  cancel(): Promise<void> {
    this.#cancelled = true;
    this.#req.pause();
    this.#wake();
    return Promise.resolve();
  }

  /** True once the handler stopped reading (see {@link handleNodeRequest}). */
  cancelled(): boolean {
    return this.#cancelled;
  }

  #wake(): void {
    const waiter = this.#waiting;
    if (!waiter) return;
    if (this.#chunks.length > 0) {
      this.#waiting = undefined;
      waiter.resolve(this.#chunks.shift());
    } else if (this.#failure) {
      this.#waiting = undefined;
      waiter.reject(this.#failure);
    } else if (this.#ended || this.#cancelled) {
      this.#waiting = undefined;
      waiter.resolve(undefined);
    }
  }

  #listen(): void {
    this.#listening = true;
    const req = this.#req;
    req.on('data', (chunk: Buffer) => {
      if (this.#cancelled) return;
      this.#chunks.push(chunk);
      req.pause();
      this.#wake();
    });
    req.once('end', () => {
      this.#ended = true;
      this.#wake();
    });
    req.once('error', (error: Error) => this.#fail(error));
    // A client that goes away mid-body: the read fails instead of waiting forever.
    req.once('close', () => {
      if (!req.complete) this.#fail(new Error('The client went away before the body was complete'));
    });
  }

  #fail(error: Error): void {
    if (this.#ended) return;
    this.#failure ??= error;
    this.#wake();
  }
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

/**
 * A request of `node:http` as paykit's handler reads it: `method`, `url` and `headers` come from `req`, and the
 * body is read off `req` itself, without the web `Request` and its body stream that {@link toRequest} builds.
 * The `Request` is made only when a hook of the merchant's asks for it ({@link NodeExchange.request}).
 */
class NodeExchange implements Exchange {
  readonly method: string;
  readonly receivedAt = Date.now();
  readonly bodyRebuilt: boolean;
  readonly #req: NodeRequest;
  readonly #signal: () => AbortSignal;
  readonly #consumed: ConsumedBody | undefined;
  readonly #hasBody: boolean;
  #url: URL | undefined;
  #headers: HeaderReader | undefined;
  #reader: (BodyReader & { cancelled?(): boolean }) | null | undefined;
  #request: Request | undefined;
  #stream: ReturnType<typeof bodyStream> | undefined;

  constructor(req: NodeRequest, signal: () => AbortSignal, consumed: ConsumedBody | undefined) {
    this.#req = req;
    this.#signal = signal;
    this.#consumed = consumed;
    this.method = req.method ?? 'GET';
    this.#hasBody = this.method !== 'GET' && this.method !== 'HEAD';
    this.bodyRebuilt = consumed?.rebuilt ?? false;
  }

  get url(): URL {
    this.#url ??= urlOf(this.#req);
    return this.#url;
  }

  get headers(): HeaderReader {
    this.#headers ??= rawHeaderReader(this.#req.rawHeaders);
    return this.#headers;
  }

  /** True when the handler stopped reading the body (too large, too slow): see {@link handleNodeRequest}. */
  cancelled(): boolean {
    return (this.#reader?.cancelled?.() ?? false) || (this.#stream?.cancelled() ?? false);
  }

  body(): BodyReader | null {
    if (this.#reader === undefined) {
      if (!this.#hasBody) this.#reader = null;
      // A hook made the Request first: the body is its body's.
      else if (this.#request) this.#reader = this.#request.body?.getReader() ?? null;
      else if (this.#consumed) this.#reader = consumedBodyReader(this.#consumed.bytes);
      else this.#reader = new NodeBodyReader(this.#req);
    }
    return this.#reader;
  }

  request(): Request {
    if (this.#request) return this.#request;
    let body: string | Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | undefined;
    if (this.#reader) {
      body = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
    } else if (this.#consumed) body = this.#consumed.bytes;
    else if (this.#hasBody) {
      this.#stream = bodyStream(this.#req);
      body = this.#stream.body;
    }
    this.#request = toRequest(this.#req, this.#signal, body);
    // The handler has read (or is reading) the body off `req`: the Request's body is a used one, as it would be.
    if (this.#reader) void this.#request.body?.getReader().read();
    return this.#request;
  }
}

/**
 * The headers of `rawHeaders` as Node's `Headers.get` reads them (names in any case, repeated ones joined by
 * `, `, repeated `Cookie` by `; `), in
 * a plain map made on first use: a `Headers` validates and sorts every entry, which paykit's few reads do not need.
 */
function rawHeaderReader(rawHeaders: readonly string[]): HeaderReader {
  let map: Map<string, string> | undefined;
  return {
    get(name) {
      if (!map) {
        map = new Map();
        for (let i = 0; i < rawHeaders.length; i += 2) {
          const key = rawHeaders[i];
          const value = rawHeaders[i + 1];
          // HTTP/2 pseudo-headers (":path") are not headers of a Request.
          if (key === undefined || value === undefined || key.startsWith(':')) continue;
          const lower = key.toLowerCase();
          const before = map.get(lower);
          // Node's Headers (undici) joins Cookie with "; ", as a client would have sent one header.
          map.set(lower, before === undefined ? value : `${before}${lower === 'cookie' ? '; ' : ', '}${value}`);
        }
      }
      return map.get(name.toLowerCase()) ?? null;
    },
  };
}

function handle(handler: NodeHandler, req: IncomingMessage, res: ServerResponse) {
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
): Request {
  // The Request parses the URL itself.
  const url = urlText(req);
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers: headersOf(req) };
  if (method !== 'GET' && method !== 'HEAD') {
    init.body = body ?? null;
    init.duplex = 'half';
  }
  return new IncomingRequest(url, init, signal);
}

/**
 * Writes a web `Response` back (any handler but paykit's, whose answers {@link writeAnswer} writes). Its body is
 * read into one buffer first and written at once with its length: the answers are small, and one write is much
 * cheaper than piping a stream.
 */
function writeResponse(response: Response, res: ServerResponse): Promise<void> | undefined {
  if (!response.body) {
    send(response, res, undefined);
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
