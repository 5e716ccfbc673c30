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
 *
 * The proxy and the handler are measured warm and side by side. Both run unmeasured for 3 s first: they share
 * Node's `fetch`, whose code takes about 4 s of load to be optimised, so whichever ran first used to pay for
 * that warm-up alone (the proxy did, which flattered the handler). Then they take turns in one-second rounds
 * (the proxy first in the first round, the handler first in the next, and so on): on a machine shared with
 * other work, a burst of load slows both alike instead of one of them. Their p99 is the worst round's.
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
    const bare = (duration = 1) => load(`${proxyUrl}/`, { 'content-type': 'application/json' }, '{}', duration);
    const through = (duration = 1) =>
      load(
        `${shop}/paykit/payment-requests`,
        { 'content-type': 'application/json' },
        JSON.stringify({ amount: '12.50', currency: 'SGD' }),
        duration,
      );
    await bare(3);
    await through(3);
    const proxyRounds: LoadFigures[] = [];
    const handlerRounds: LoadFigures[] = [];
    for (let round = 0; round < Math.max(1, Math.round(seconds)); round += 1) {
      if (round % 2 === 0) proxyRounds.push(await bare());
      handlerRounds.push(await through());
      if (round % 2 === 1) proxyRounds.push(await bare());
    }
    return { sandbox: direct, proxy: combine(proxyRounds), handler: combine(handlerRounds) };
  } finally {
    for (const s of [server, proxy]) {
      s.closeAllConnections();
      s.close();
    }
    await sandbox.close();
  }
}

/** One-second rounds as one load: requests per second over all of them, the worst p99, every non-2xx. */
function combine(rounds: readonly LoadFigures[]): LoadFigures {
  return {
    requestsPerSecond: rounds.reduce((sum, round) => sum + round.requestsPerSecond, 0) / rounds.length,
    p99Ms: Math.max(...rounds.map((round) => round.p99Ms)),
    non2xx: rounds.reduce((sum, round) => sum + round.non2xx, 0),
  };
}
