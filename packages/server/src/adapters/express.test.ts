import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPaykitHandler } from '../handler/create-handler.js';
import { paykitMiddleware } from './express.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());

/** An Express app with the merchant's own routes around paykit's, optionally behind `express.json()`. */
async function startApp(withJsonParser: boolean): Promise<{ url: string; server: Server }> {
  const app = express();
  if (withJsonParser) app.use(express.json());
  app.use(
    paykitMiddleware(
      createPaykitHandler({
        api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
        createPaymentRequest: () => ({ amount: '9.99', currency: 'SGD', purpose: 'Express order' }),
      }),
    ),
  );
  app.get('/shop', (_req, res) => void res.send('the shop'));
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe.each([false, true])('Express middleware (express.json() before it: %s)', (withJsonParser) => {
  it('answers its routes, passes everything else on, and keeps the merchant in charge of the price', async () => {
    const { url, server } = await startApp(withJsonParser);
    try {
      const created = await fetch(`${url}/paykit/payment-requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'express-test-key' },
        body: JSON.stringify({ amount: '9.99', purpose: 'ignored' }),
      });
      expect(created.status).toBe(201);
      const body = (await created.json()) as { id: string; amount: string };
      expect(body.amount).toBe('9.99');
      expect(sandbox.context.state.paymentRequests.get(body.id)?.purpose).toBe('Express order');

      const status = await fetch(`${url}/paykit/payment-requests/${body.id}`);
      expect(await status.json()).toMatchObject({ id: body.id, status: 'pending' });

      const tampered = await fetch(`${url}/paykit/payment-requests`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ amount: '0.99' }),
      });
      expect(tampered.status).toBe(409);

      expect(await (await fetch(`${url}/shop`)).text()).toBe('the shop');
      expect((await fetch(`${url}/paykitten`)).status).toBe(404);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
