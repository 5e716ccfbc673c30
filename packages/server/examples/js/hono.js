/**
 * A Hono app that mounts the paykit handler under /paykit beside its own routes, served on Node with
 * `@hono/node-server` (the same app runs on Bun, Deno and Workers with their own `serve`). The shop itself (prices,
 * hooks, settings) is the `shop` module beside this file, which every runtime example shares. The runtime matrix
 * runs this file on Node 24, which runs TypeScript as it is.
 *
 *   npm install @paykit/server hono @hono/node-server
 *   PAYMENTS_API_URL=http://127.0.0.1:4010 PAYMENTS_API_KEY=sandbox_api_key_demo_store \
 *   PAYMENTS_SALT=sandbox_salt_demo_store PUBLIC_ORIGIN=http://127.0.0.1:3000 node hono.ts
 */
import { serve } from '@hono/node-server';
import { createPaykitHandler } from '@paykit/server';
import { Hono } from 'hono';
import { shopOptions } from './shop.js';

// PUBLIC_ORIGIN: locally http://127.0.0.1:3000 (this server's address), in production your https origin.
const paykit = createPaykitHandler(shopOptions((name) => process.env[name]));

const app = new Hono();
// The raw Request, body unread: the handler reads it itself (webhook signatures are over the exact bytes).
app.all('/paykit/*', (c) => paykit(c.req.raw));
app.get('/', (c) => c.text('The shop'));

serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 3000) }, (info) =>
  console.log(`listening on http://127.0.0.1:${info.port}`),
);
