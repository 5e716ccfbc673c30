/**
 * A shop's paykit handler as a Cloudflare Worker, its state in PostgreSQL through `pg` over Workers' TCP
 * sockets. The stores are opened for each request and closed after it: a Worker's connections cannot outlive
 * the request that opened them. Needs `compatibility_flags = ["nodejs_compat"]` (for pg). The runtime matrix
 * bundles this file as wrangler does and runs it in workerd (Miniflare) against the sandbox and a PostgreSQL. The
 * shop itself (prices, hooks, settings) is the `shop` module beside this file, which every runtime example shares.
 *
 *   npm install @paykit/server pg
 *   wrangler dev worker.ts   # with PAYMENTS_API_URL, PAYMENTS_API_KEY, PAYMENTS_SALT, PUBLIC_ORIGIN, DATABASE_URL,
 *                            # CONNECTIONS_KEY as vars and secrets
 */
import { createPaykitHandler } from '@paykit/server';
import { createPostgresStores } from '@paykit/server/postgres';
import { shopOptions } from './shop.ts';

/** The Worker's vars and secrets, all strings: the shop's (./shop.ts reads them by name) and its database's. */
interface Env {
  readonly [name: string]: string | undefined;
  PAYMENTS_API_URL: string;
  PAYMENTS_API_KEY: string;
  PAYMENTS_SALT: string;
  /** The shop's address as shoppers' browsers show it: http://localhost:8787 under wrangler dev. */
  PUBLIC_ORIGIN: string;
  /** `postgres://...`, or a Hyperdrive binding's `connectionString`. */
  DATABASE_URL: string;
  /** 64 hex characters: encrypts merchants' credentials at rest (a platform's; a shop stores none). */
  CONNECTIONS_KEY: string;
}

/** What a Worker's `fetch` is given beside the request (the part used here). */
interface WorkerContext {
  waitUntil(promise: Promise<unknown>): void;
}

export default {
  async fetch(request: Request, env: Env, ctx: WorkerContext): Promise<Response> {
    const stores = await createPostgresStores({
      connectionString: env.DATABASE_URL,
      encryptionKey: env.CONNECTIONS_KEY,
    });
    try {
      const paykit = createPaykitHandler({
        ...shopOptions((name) => env[name]),
        eventStore: stores.events,
        idempotencyStore: stores.idempotency,
      });
      return await paykit(request);
    } finally {
      ctx.waitUntil(stores.close());
    }
  },
};
