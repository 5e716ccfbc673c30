/**
 * A shop's paykit handler on Bun: `Bun.serve` hands every request to it (the routes are under /paykit; a real
 * shop serves its pages beside them). The shop itself (prices, hooks, settings) is the `shop` module beside this
 * file, which every runtime example shares. The runtime matrix runs this file on Bun against the sandbox.
 *
 *   bun add @paykit/server
 *   PAYMENTS_API_URL=http://127.0.0.1:4010 PAYMENTS_API_KEY=sandbox_api_key_demo_store \
 *   PAYMENTS_SALT=sandbox_salt_demo_store PUBLIC_ORIGIN=http://127.0.0.1:3000 bun bun.ts
 */
import { createPaykitHandler } from '@paykit/server';
import { shopOptions } from './shop.js';

// PUBLIC_ORIGIN: locally http://127.0.0.1:3000 (this server's address), in production your https origin.
const paykit = createPaykitHandler(shopOptions((name) => Bun.env[name]));

const server = Bun.serve({ hostname: '127.0.0.1', port: Number(Bun.env.PORT ?? 3000), fetch: paykit });
console.log(`listening on http://127.0.0.1:${server.port}`);
