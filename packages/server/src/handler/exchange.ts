/**
 * One request and its answer as the handler's routes see them, in plain values: an {@link Exchange} in, an
 * {@link Answer} out. The handler never needs a web `Request` or `Response` of its own: `createPaykitHandler`
 * converts them for every Fetch-API runtime, and the node adapter builds the exchange from `IncomingMessage` and
 * writes the answer to `ServerResponse` itself, without making either (on Node both cost more than the rest of
 * reading a small JSON request and writing its answer). A leaf module: it imports nothing.
 */

/**
 * Reads request headers by name, case-insensitively, repeated ones joined as the runtime's `Headers.get` joins
 * them (a `Headers` is one).
 */
export interface HeaderReader {
  /** The header's value, or `null` when the request does not carry it. */
  get(name: string): string | null;
}

/** Reads a body chunk by chunk: the part of a web stream's reader that the handler uses. */
export interface BodyReader {
  /** The next chunk, or `done` at the end (a web stream reader's `read`). */
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
  /** Stops reading (the body is refused): the rest is not waited for. */
  cancel(): Promise<void>;
}

/**
 * One request as an adapter hands it to the handler (`PaykitHandler.answer`). Each adapter builds it from
 * its own request type; nothing in it is a web `Request` unless a hook asks for one ({@link Exchange.request}).
 */
export interface Exchange {
  /** The method, in upper case as sent (`POST`). */
  readonly method: string;
  /** The absolute URL the request was sent to, parsed once (read it, do not change it). */
  readonly url: URL;
  /** The request's headers. */
  readonly headers: HeaderReader;
  /**
   * When the request arrived, in milliseconds since the epoch: its body must have arrived whole within the
   * handler's `bodyTimeoutMs` of it, however late a route starts reading, so that a client that trickles its
   * body cannot hold a request open for long.
   */
  readonly receivedAt: number;
  /**
   * True when the body is not the bytes the client sent but a copy rebuilt from a value a body parser had
   * already made of them (Express with `express.json()` mounted first): the same data, but a signature over the
   * bytes cannot be checked on it.
   */
  readonly bodyRebuilt: boolean;
  /**
   * The reader of the body (the same one each time), or `null` when the request has none. The handler reads it
   * with its size and time limits; once it is taken, the body of {@link Exchange.request}'s `Request` is a used one.
   */
  body(): BodyReader | null;
  /**
   * The web `Request` of this exchange, made on first call (the same one each time): what a hook of the merchant's
   * gets (`context.request`), to read its cookies, pass it on to `fetch` or watch its `signal`.
   */
  request(): Request;
}

/**
 * The handler's answer to an {@link Exchange}: a status, headers (names in lower case) and a body, which is JSON
 * text for every answer but the 204 to a CORS preflight. An adapter writes it as it is.
 */
export interface Answer {
  /** The HTTP status. */
  readonly status: number;
  /** Header names in lower case; an adapter may add its own before writing (`connection: close`). */
  readonly headers: Record<string, string>;
  /** The body's text (UTF-8), or `null` for none. */
  readonly body: string | null;
}
