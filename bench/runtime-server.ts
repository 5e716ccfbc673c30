/**
 * The two servers of the runtime bench, run by the runtime being measured (bundled by runtime-throughput.ts):
 * a bare proxy that makes the same API call without paykit, and the paykit handler. Each is served the way that
 * runtime serves one: `Bun.serve` on Bun, `node:http` on Node (the handler through `@paykit/server/node`), so each
 * runtime's handler is compared with its own bare proxy.
 *
 *   <runtime> runtime-server.js <sandbox url> <api key>   # prints "proxy <url>" and "handler <url>"
 */
import { createPaykitHandler } from '@paykit/server';
import { toNodeListener } from '@paykit/server/node';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The part of Bun's global used here (Bun's own types are not a dependency of the repository). */
interface BunGlobal {
  serve(options: { hostname: string; port: number; fetch(request: Request): Promise<Response> }): { port: number };
}

const [sandboxUrl, apiKey] = process.argv.slice(2);
if (!sandboxUrl || !apiKey) throw new Error('usage: runtime-server.js <sandbox url> <api key>');

const form = 'amount=12.50&currency=SGD&purpose=Bench';
const apiHeaders = { 'content-type': 'application/x-www-form-urlencoded', 'x-business-api-key': apiKey };
/** Bun's bare proxy: the request's body read and dropped, the API called, its answer passed on. */
async function proxy(request: Request): Promise<Response> {
  await request.arrayBuffer();
  const answer = await fetch(`${sandboxUrl}/v1/payment-requests`, { method: 'POST', headers: apiHeaders, body: form });
  return new Response(await answer.text(), { status: answer.status, headers: { 'content-type': 'application/json' } });
}
const handler = createPaykitHandler({
  api: { apiBaseUrl: sandboxUrl, apiKey },
  createPaymentRequest: () => ({ amount: '12.50', currency: 'SGD', purpose: 'Bench' }),
  logger: { warn: () => undefined, error: () => undefined },
});

const bun = (globalThis as { Bun?: BunGlobal }).Bun;
if (bun) {
  for (const [name, fetch] of [
    ['proxy', proxy],
    ['handler', handler],
  ] as const) {
    const server = bun.serve({ hostname: '127.0.0.1', port: 0, fetch });
    console.log(`${name} http://127.0.0.1:${server.port}`);
  }
} else {
  // On Node the bare proxy is node:http itself, no Request or Response made: as handler-throughput.ts has it.
  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      fetch(`${sandboxUrl}/v1/payment-requests`, { method: 'POST', headers: apiHeaders, body: form })
        .then(async (answer) =>
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()),
        )
        .catch(() => res.writeHead(502).end());
    });
  });
  const shop = createServer(toNodeListener(handler));
  for (const [name, server] of [
    ['proxy', bare],
    ['handler', shop],
  ] as const) {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    console.log(`${name} http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  }
}
