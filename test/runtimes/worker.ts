/**
 * The suite as a Cloudflare Worker (bundled by the matrix as wrangler bundles one, run by workerd through
 * Miniflare: `run-workerd.ts`). A Worker serves itself: `GET /__suite` runs the suite, whose `serve` makes
 * the handler under test this Worker's answer to every other request, so the sandbox's webhooks and the suite's
 * own calls reach it through workerd's HTTP socket.
 */
import { runSuite } from './suite.js';

/** The Worker's bindings (Miniflare's `bindings`). */
interface Env {
  SANDBOX_URL: string;
  DATABASE_URL: string;
  WORKERD_VERSION: string;
}

let served: ((request: Request) => Promise<Response>) | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/__suite') {
      const outcomes = await runSuite(
        {
          runtime: `workerd ${env.WORKERD_VERSION}`,
          sandboxUrl: env.SANDBOX_URL,
          memoryStoresInProduction: 'refused',
          databaseUrl: env.DATABASE_URL,
          postgresStores: 'per-request',
          async serve(handler) {
            served = handler;
            return {
              origin: url.origin,
              close: async () => {
                if (served === handler) served = undefined;
              },
            };
          },
        },
        url.searchParams.get('only') ?? undefined,
      );
      return Response.json(outcomes);
    }
    if (served === undefined) return new Response('no handler is served now', { status: 503 });
    return served(request);
  },
};
