/**
 * The handler's plain {@link Exchange} and {@link Answer} made of and into the Fetch API's `Request` and
 * `Response`: what `createPaykitHandler`'s `(Request) => Promise<Response>` does on every runtime (Deno, Bun,
 * workers, Node through any Fetch-API server, a test calling it).
 */
import type { Answer, BodyReader, Exchange } from './exchange.js';

/** The exchange of a web `Request`, received now: its headers are the Request's, its hooks get the Request itself. */
export function webExchange(request: Request): Exchange {
  let reader: BodyReader | null | undefined;
  return {
    method: request.method,
    url: new URL(request.url),
    headers: request.headers,
    receivedAt: Date.now(),
    bodyRebuilt: false,
    body() {
      reader ??= request.body ? request.body.getReader() : null;
      return reader;
    },
    request: () => request,
  };
}

/** The answer as a web `Response`. */
export function webResponse(answer: Answer): Response {
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
