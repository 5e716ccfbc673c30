/**
 * The bare proxy the handler benches measure paykit against: node:http and `fetch`, no paykit, the same call to
 * the sandbox's `POST /v1/payment-requests` that the handler makes for a click. One definition, so that the
 * handler bench (`handler-throughput.ts`) and the CPU bench (`cpu-server.ts`) compare against the same thing.
 * (`runtime-server.ts` writes its own: it also runs on Bun and Deno.)
 */
import type { RequestListener } from 'node:http';

/** The payment request body every bench path sends the sandbox. */
export const BENCH_FORM = 'amount=12.50&currency=SGD&purpose=Bench';

/** The headers of that call, with the business's API key. */
export function benchApiHeaders(apiKey: string): Record<string, string> {
  return { 'content-type': 'application/x-www-form-urlencoded', 'x-business-api-key': apiKey };
}

/** A listener that reads and drops the request, makes the sandbox call and answers with its status and body. */
export function bareProxy(sandboxUrl: string, apiKey: string): RequestListener {
  const headers = benchApiHeaders(apiKey);
  return (req, res) => {
    req.resume();
    req.on('end', () => {
      fetch(`${sandboxUrl}/v1/payment-requests`, { method: 'POST', headers, body: BENCH_FORM })
        .then(async (answer) =>
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()),
        )
        .catch(() => res.writeHead(502).end());
    });
  };
}
