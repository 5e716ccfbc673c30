/**
 * A real HTTP server on 127.0.0.1 whose every answer is scripted by the test: status, headers, body, delay,
 * or a dropped connection. It stands in for a misbehaving Payments API in fault tests.
 */
import { createServer, type IncomingMessage } from 'node:http';
import { listenOnLoopback } from './loopback.js';

/** One scripted answer. */
export interface ScriptedAnswer {
  status?: number;
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON. */
  body?: unknown;
  /** Waits this long before answering. */
  delayMs?: number;
  /** Destroys the connection instead of answering. */
  drop?: boolean;
}

/** A request the server received. */
export interface ScriptedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A running scripted server. */
export interface ScriptedServer {
  readonly url: string;
  readonly requests: ScriptedRequest[];
  close(): Promise<void>;
}

/** Starts a server that answers the n-th request (0-based) with `script(request, n)`. */
export async function startScriptedServer(
  script: (request: ScriptedRequest, index: number) => ScriptedAnswer,
): Promise<ScriptedServer> {
  const requests: ScriptedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      requests.push(request);
      const answer = script(request, requests.length - 1);
      setTimeout(() => {
        if (answer.drop) {
          req.socket.destroy();
          return;
        }
        const body = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body ?? {});
        const type = typeof answer.body === 'string' ? 'text/html' : 'application/json';
        res.writeHead(answer.status ?? 200, { 'content-type': type, ...answer.headers }).end(body);
      }, answer.delayMs ?? 0);
    });
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
