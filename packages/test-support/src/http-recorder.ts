/**
 * A real HTTP server on 127.0.0.1 that records what it receives and answers with a status the test chooses:
 * the far end of webhook deliveries in tests.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback } from './loopback.js';

/** One request the recorder received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A running recorder. */
export interface HttpRecorder {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** The statuses of the next answers, in order; after they run out, 200. */
  respondWith(...statuses: number[]): void;
  /** Resolves when at least `count` requests have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

/** Starts a recorder on a free port of 127.0.0.1. */
export async function startHttpRecorder(): Promise<HttpRecorder> {
  const requests: RecordedRequest[] = [];
  const statuses: number[] = [];
  const waiters = new Set<() => void>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      res.writeHead(statuses.shift() ?? 200, { 'content-type': 'application/json' }).end('{}');
      for (const wake of waiters) wake();
    });
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    requests,
    respondWith: (...next) => void statuses.push(...next),
    waitFor: (count, timeoutMs = 5_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(requests);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`expected ${count} requests, got ${requests.length}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
