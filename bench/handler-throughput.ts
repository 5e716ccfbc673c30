/**
 * Requests per second and p99 latency of `POST /paykit/payment-requests` through the node adapter, beside the
 * sandbox's own `POST /v1/payment-requests` in the same run: the handler's overhead as a ratio. 127.0.0.1 only.
 */
import { startSandbox } from '@paykit/sandbox';
import { createPaykitHandler } from '@paykit/server';
import { toNodeListener } from '@paykit/server/node';
import autocannon from 'autocannon';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One autocannon run. */
export interface LoadFigures {
  requestsPerSecond: number;
  p99Ms: number;
  non2xx: number;
}

async function load(url: string, headers: Record<string, string>, body: string, seconds: number): Promise<LoadFigures> {
  const result = await autocannon({ url, method: 'POST', headers, body, connections: 10, duration: seconds });
  return { requestsPerSecond: result.requests.average, p99Ms: result.latency.p99, non2xx: result.non2xx };
}

/**
 * Runs three loads for `seconds` each: the sandbox alone; a bare proxy (node:http receiving, global `fetch`
 * forwarding, no paykit: the floor of any backend that calls the API once per request); and the handler.
 */
export async function measureHandlerThroughput(
  seconds = 5,
): Promise<{ sandbox: LoadFigures; proxy: LoadFigures; handler: LoadFigures }> {
  const sandbox = await startSandbox({ port: 0 });
  const handler = createPaykitHandler({
    api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
    createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD', purpose: 'Bench' }),
    // Requests still in flight when the sandbox stops are not news.
    logger: { warn: () => undefined, error: () => undefined },
  });
  const proxy = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      fetch(`${sandbox.url}/v1/payment-requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-business-api-key': sandbox.seed.apiKey },
        body: 'amount=12.50&currency=SGD&purpose=Bench',
      })
        .then(async (answer) =>
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()),
        )
        .catch(() => res.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  const server = createServer(toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const shop = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const direct = await load(
      `${sandbox.url}/v1/payment-requests`,
      { 'content-type': 'application/x-www-form-urlencoded', 'x-business-api-key': sandbox.seed.apiKey },
      'amount=12.50&currency=SGD&purpose=Bench',
      seconds,
    );
    const bare = await load(`${proxyUrl}/`, { 'content-type': 'application/json' }, '{}', seconds);
    const through = await load(
      `${shop}/paykit/payment-requests`,
      { 'content-type': 'application/json' },
      JSON.stringify({ amount: '12.50', currency: 'SGD' }),
      seconds,
    );
    return { sandbox: direct, proxy: bare, handler: through };
  } finally {
    for (const s of [server, proxy]) {
      s.closeAllConnections();
      s.close();
    }
    await sandbox.close();
  }
}
