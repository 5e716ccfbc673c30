/**
 * The real backend of the element tests: the sandbox and `@paykit/server`'s handler, mounted under `/paykit`
 * on web-test-runner's own server (same origin as the test page), plus test routes:
 * - `POST /__test/pay/{id}` `{ outcome }`: pays or fails a payment request on the sandbox checkout;
 * - `GET /__test/count`: how many payment requests the sandbox holds;
 * - `POST /hostile/{kind}/payment-requests`: a backend that answers badly (`javascript`, `data`, `foreign`,
 *   `relative`, `error`, `html`, `slow`), for the attack tests.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { createPaykitHandler } from '@paykit/server';
import { handleNodeRequest } from '@paykit/server/node';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The catalogue of the tests' shop. */
const PRICES: Record<string, string> = { 'sku-mug': '12.50', 'sku-tee': '30.00' };

/** What the tests need to know about the backend. */
export interface TestBackend {
  sandbox: RunningSandbox;
  /** Koa middleware for web-test-runner. */
  middleware: (ctx: KoaContext, next: () => Promise<unknown>) => Promise<unknown>;
}

interface KoaContext {
  path: string;
  method: string;
  req: IncomingMessage;
  res: ServerResponse;
  respond?: boolean;
  status: number;
  body: unknown;
  set(name: string, value: string): void;
}

const HOSTILE_URLS: Record<string, string | undefined> = {
  javascript: 'javascript:alert(document.domain)',
  data: 'data:text/html,<script>alert(1)</script>',
  foreign: 'https://checkout.evil.example/pay',
  lookalike: 'https://127.0.0.1.evil.example/checkout/x',
  relative: '//evil.example/checkout',
};

/** Starts the sandbox and returns the middleware. */
export async function startTestBackend(): Promise<TestBackend> {
  const sandbox = await startSandbox({ port: 0 });
  const handler = createPaykitHandler({
    api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
    createPaymentRequest: (choice) => ({
      amount: PRICES[choice.reference ?? ''] ?? '1.00',
      currency: 'SGD',
      purpose: 'Element test',
      ...(choice.email ? { email: choice.email } : {}),
    }),
    logger: { warn: () => undefined, error: () => undefined },
  });

  const middleware: TestBackend['middleware'] = async (ctx, next) => {
    if (ctx.path.startsWith('/paykit/')) {
      ctx.respond = false;
      await handleNodeRequest(handler, ctx.req, ctx.res);
      return;
    }
    const pay = /^\/__test\/pay\/([^/]+)\/(succeeded|failed)$/.exec(ctx.path);
    if (pay && ctx.method === 'POST') {
      const answer = await fetch(`${sandbox.url}/_sandbox/payment-requests/${pay[1]}/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ outcome: pay[2] }),
      });
      ctx.status = answer.status;
      ctx.body = await answer.text();
      return;
    }
    if (ctx.path === '/__test/config') {
      ctx.set('content-type', 'application/json');
      ctx.body = JSON.stringify({ checkoutOrigin: sandbox.url, count: sandbox.context.state.paymentRequests.size });
      return;
    }
    const hostile = /^\/hostile\/([a-z]+)\/payment-requests/.exec(ctx.path);
    if (hostile) return answerHostile(ctx, hostile[1]!);
    return next();
  };
  return { sandbox, middleware };
}

async function answerHostile(ctx: KoaContext, kind: string): Promise<void> {
  ctx.set('content-type', 'application/json');
  const url = HOSTILE_URLS[kind];
  if (url) {
    ctx.status = 201;
    ctx.body = JSON.stringify({ id: 'pr_hostile', url, status: 'pending', amount: '1.00', currency: 'SGD' });
  } else if (kind === 'error') {
    ctx.status = 503;
    ctx.body = JSON.stringify({
      message: 'The shop is being updated. Please try again in a minute.',
      code: 'upstream_error',
    });
  } else if (kind === 'html') {
    ctx.set('content-type', 'text/html');
    ctx.status = 200;
    ctx.body = '<html><body>Maintenance</body></html>';
  } else if (kind === 'slow') {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    ctx.status = 201;
    ctx.body = '{}';
  } else {
    ctx.status = 404;
    ctx.body = '{}';
  }
}
