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

describe('webhooks through Express', () => {
  /** A signed payment notification of a real paid request, as the sandbox sent it to nobody. */
  async function paidNotification(): Promise<{ headers: Record<string, string>; body: string }> {
    const created = await fetch(`${sandbox.url}/v1/payment-requests`, {
      method: 'POST',
      headers: { 'x-business-api-key': sandbox.seed.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: '4.00', currency: 'SGD', webhook: 'http://127.0.0.1:9/unused' }),
    });
    const { id } = (await created.json()) as { id: string };
    await fetch(`${sandbox.url}/_sandbox/payment-requests/${id}/pay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ outcome: 'succeeded' }),
    });
    const delivery = sandbox.context.webhooks.deliveries.find(
      (d) => d.format === 'notification' && d.request.body.includes(id),
    );
    return delivery!.request;
  }

  async function appWith(parsers: (app: express.Express) => void, onEvent: () => void) {
    const app = express();
    parsers(app);
    app.use(
      paykitMiddleware(
        createPaykitHandler({
          api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
          createPaymentRequest: () => ({ amount: '4.00', currency: 'SGD' }),
          webhookSalt: sandbox.seed.salt,
          onEvent,
        }),
      ),
    );
    const server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
  }

  it('says what to move when a body parser mounted first took the exact bytes, and does nothing', async () => {
    let hooks = 0;
    const { url, server } = await appWith(
      (app) => app.use(express.urlencoded({ extended: false })),
      () => void (hooks += 1),
    );
    try {
      const notification = await paidNotification();
      const answer = await fetch(`${url}/paykit/webhooks`, { method: 'POST', ...notification });
      expect(answer.status).toBe(500);
      const body = (await answer.json()) as { code: string; message: string };
      expect(body.code).toBe('raw_body_unavailable');
      expect(body.message).toMatch(/mount paykitMiddleware before any body parser/i);
      expect(hooks).toBe(0);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('checks the signature over the bytes express.raw() kept', async () => {
    let hooks = 0;
    const { url, server } = await appWith(
      (app) => app.use('/paykit/webhooks', express.raw({ type: '*/*' })),
      () => void (hooks += 1),
    );
    try {
      const notification = await paidNotification();
      const answer = await fetch(`${url}/paykit/webhooks`, { method: 'POST', ...notification });
      expect(answer.status).toBe(200);
      expect(hooks).toBe(1);
      const tampered = notification.body.replace('amount=4.00', 'amount=0.40');
      const refused = await fetch(`${url}/paykit/webhooks`, {
        method: 'POST',
        headers: notification.headers,
        body: tampered,
      });
      expect(refused.status).toBe(401);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
