/**
 * Runs a web-standard handler on `node:http`: the request becomes a `Request` (streaming body, aborted when
 * the client goes away), and the `Response` is written back (status, every header including repeated
 * `Set-Cookie`, body).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';

/** A request as Express and Connect pass it: `originalUrl` is the URL before any mount path was removed. */
type NodeRequest = IncomingMessage & { originalUrl?: string };

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
  body?: string,
): Promise<void> {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  let response: Response;
  try {
    response = await handler(toRequest(req, controller.signal, body));
  } catch {
    // The handler answers its own failures; this is a bug in the adapter's caller, and no detail leaves it.
    response = new Response('{"message":"Something went wrong.","code":"internal_error"}', {
      status: 500,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  }
  await writeResponse(response, res);
}

function handle(handler: (request: Request) => Promise<Response>, req: IncomingMessage, res: ServerResponse) {
  return handleNodeRequest(handler, req, res).catch(() => res.destroy());
}

function toRequest(req: NodeRequest, signal: AbortSignal, body?: string): Request {
  // The host comes from the socket's own address when the Host header is absent (HTTP/1.0).
  const host = req.headers.host ?? `${req.socket.localAddress ?? '127.0.0.1'}:${req.socket.localPort ?? 80}`;
  const protocol = 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
  const url = new URL(req.originalUrl ?? req.url ?? '/', `${protocol}://${host}`);
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    const value = req.rawHeaders[i + 1];
    // HTTP/2 pseudo-headers (":path") are not headers of a Request.
    if (name !== undefined && value !== undefined && !name.startsWith(':')) headers.append(name, value);
  }
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  return new Request(url, {
    method,
    headers,
    signal,
    ...(hasBody ? { body: body ?? (Readable.toWeb(req) as ReadableStream<Uint8Array>), duplex: 'half' } : {}),
  });
}

async function writeResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  // The handler's answers are small JSON documents: one buffer write is much cheaper than piping a stream.
  const body = response.body ? Buffer.from(await response.arrayBuffer()) : undefined;
  res.writeHead(response.status, headers);
  res.end(body);
}
