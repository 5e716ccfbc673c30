/**
 * A shop's paykit handler on Deno: `Deno.serve` hands every request to it (the routes are under /paykit; a real
 * shop serves its pages beside them). The shop itself (prices, hooks, settings) is the `shop` module beside this
 * file, which every runtime example shares. The runtime matrix runs this file on Deno against the sandbox.
 *
 *   npm install @paykit/server   # or import from "npm:@paykit/server"
 *   PAYMENTS_API_URL=http://127.0.0.1:4010 PAYMENTS_API_KEY=sandbox_api_key_demo_store \
 *   PAYMENTS_SALT=sandbox_salt_demo_store PUBLIC_ORIGIN=http://127.0.0.1:8000 \
 *   deno run --allow-net --allow-env deno.ts
 */
import { createPaykitHandler } from '@paykit/server';
import { shopOptions } from './shop.ts';

// PUBLIC_ORIGIN: locally http://127.0.0.1:8000 (this server's address), in production your https origin.
const paykit = createPaykitHandler(shopOptions((name) => Deno.env.get(name)));

Deno.serve(
  {
    hostname: '127.0.0.1',
    port: Number(Deno.env.get('PORT') ?? 8000),
    onListen: ({ hostname, port }) => console.log(`listening on http://${hostname}:${port}`),
  },
  paykit,
);
