/**
 * A pass-through proxy on 127.0.0.1 in front of the sandbox that counts what goes through it, by method and
 * path, and remembers which test instance sent each token request: the fleet tests count token requests here,
 * where the authorization server sees them, not inside the processes that send them.
 */
import { createServer } from 'node:http';
import { listenOnLoopback } from './loopback.js';

/** A running proxy. */
export interface CountingProxy {
  readonly url: string;
  /** Requests seen, by `METHOD /path` (query left out). */
  count(method: string, path: string): number;
  /** Every request seen, whatever its path. */
  total(): number;
  /** The `x-test-instance` header of each token request, in arrival order. */
  readonly tokenRequestsBy: string[];
  close(): Promise<void>;
}

/** Starts a proxy to `target` on a free port. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const counts = new Map<string, number>();
  const tokenRequestsBy: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const key = `${req.method} ${path}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (path === '/v1/open/oauth/token') tokenRequestsBy.push(String(req.headers['x-test-instance'] ?? '?'));
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers.set(name, value);
      }
      fetch(`${target}${req.url ?? '/'}`, {
        method: req.method ?? 'GET',
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : null,
        redirect: 'manual',
      }).then(
        async (answer) => {
          const body = Buffer.from(await answer.arrayBuffer());
          const out: Record<string, string> = {};
          answer.headers.forEach((value, name) => {
            if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(name))
              out[name] = value;
          });
          res.writeHead(answer.status, out).end(body);
        },
        () => res.destroy(),
      );
    });
  });
  const url = await listenOnLoopback(server);
  return {
    url,
    count: (method, path) => counts.get(`${method} ${path}`) ?? 0,
    total: () => [...counts.values()].reduce((sum, n) => sum + n, 0),
    tokenRequestsBy,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
