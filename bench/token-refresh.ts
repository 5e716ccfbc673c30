/**
 * 1,000 concurrent callers on an expired OAuth token: how many refreshes reach the token endpoint (the goal
 * is exactly one) and how long until every caller has its answer.
 */
import { OAUTH_TOKEN_PATH } from '@paykit/core';
import { createPlatform, MemoryConnectionStore } from '@paykit/server';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The figures of one run. */
export interface RefreshFigures {
  callers: number;
  tokenRequests: number;
  apiRequests: number;
  elapsedMs: number;
}

/** Runs the measurement against a minimal token endpoint and API on 127.0.0.1. */
export async function measureTokenRefresh(callers = 1000): Promise<RefreshFigures> {
  let tokenRequests = 0;
  let apiRequests = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === OAUTH_TOKEN_PATH) {
        tokenRequests += 1;
        setTimeout(() => {
          res.end(
            JSON.stringify({ token_type: 'Bearer', expires_in: 31536000, access_token: 'fresh', refresh_token: 'r2' }),
          );
        }, 20);
        return;
      }
      apiRequests += 1;
      const ok = req.headers.authorization === 'Bearer fresh';
      res.statusCode = ok ? 200 : 401;
      res.end(
        JSON.stringify(
          ok ? { name: 'Bench', country: 'sg', currency: 'sgd', payments_enabled: true } : { message: 'Unauthorized' },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const store = new MemoryConnectionStore();
  await store.set('biz', { kind: 'oauth', accessToken: 'expired', refreshToken: 'r1', expiresAt: 0 });
  const platform = createPlatform({
    apiBaseUrl: url,
    oauth: { clientId: 'bench', clientSecret: 'bench-secret' },
    store,
  });
  const started = performance.now();
  try {
    await Promise.all(Array.from({ length: callers }, () => platform.merchant('biz').getBusinessInfo()));
    return { callers, tokenRequests, apiRequests, elapsedMs: performance.now() - started };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
