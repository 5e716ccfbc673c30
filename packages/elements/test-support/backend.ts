/**
 * The real backend of the element tests: the sandbox and `@paykit/server`'s handler, mounted under `/paykit`
 * on web-test-runner's own server (same origin as the test page), plus test routes:
 * - `POST /__test/pay/{id}` `{ outcome }`: pays or fails a payment request on the sandbox checkout;
 * - `POST /__test/expire/{id}`: gives a pending payment request an expiry a minute ago (the sandbox then answers it
 *   `expired`, the service's status for a link whose time ran out);
 * - `GET /__test/config`: the checkout origin, how many payment requests and OAuth callbacks there were, and
 *   `attempts`: how many requests to any path ending in `/payment-requests` reached this server at all (a
 *   misconfigured button must make none, not even to the page's own origin);
 * - `POST /__test/fault`: arms a fault on the sandbox (`POST /_sandbox/faults`), for the fault tests;
 * - `POST /__test/lose-answers` `{ on }`: while on, each `POST /paykit/payment-requests` is handled in full (the
 *   payment request is created) and its connection then destroyed before the answer: the network failure that
 *   leaves the browser with `network_error` after the backend acted; `GET /__test/config`'s `keys` lists the
 *   `Idempotency-Key` of every such POST, in order;
 * - `POST /__test/approve` `{ redirect_uri, state, code_challenge }`: the merchant's approval on the sandbox
 *   dashboard, answering `{ redirect }` (the callback URL with `code` and `state`);
 * - `/strict/*`: the shop's handler with `publicOrigin: 'https://shop.example'`, which refuses this page (403);
 * - `/no-api/*`: the shop's handler with an `apiBaseUrl` where nothing listens (502 `api_unreachable`), and
 *   `/wrong-key/*`: with an API key the sandbox refuses (502 `api_key_refused`);
 * - `/platform/*`: a platform's paykit handler (OAuth callback), whose app is registered on first approval;
 * - `GET /detailed/payment-requests/{id}`: the real handler's status answer with the `purpose` and `reference`
 *   the return page shows when a backend sends them (the handler's status route does not send them yet);
 * - `POST /hostile/{kind}/payment-requests`: a backend that answers badly (`javascript`, `data`, `foreign`,
 *   `relative`, `error`, `html`, `slow`), for the attack tests;
 * - `GET /return`: the platform's callback page (the redirect URI the tests register), `<paykit-return
 *   endpoint="/platform">` as a platform serves it: where a connect popup comes back; `GET /return-coop`: the same
 *   page served with `Cross-Origin-Opener-Policy: same-origin`, which cuts the popup from its opener (the callback
 *   page's path is not part of the exchange: the tests send a callback there by changing the path);
 *   `GET /return-coop-late`: that page on a slow machine, whose `<paykit-return>` starts 2.5 s after it loaded;
 * - `GET /__test/storage-report[?coop]`: a page of this origin that says on the `BroadcastChannel`
 *   `paykit-test:storage-report` what its window holds: its sessionStorage, `window.name`, whether it has an opener
 *   (`?coop`: served under `Cross-Origin-Opener-Policy: same-origin`), and closes itself;
 * - `GET /__test/eavesdropper?state=…[&inject]`: another page of this origin gone bad (a compromised widget on
 *   another page of the site), for the connect popup's tests: it listens on the connect popups' channel and
 *   reports what it heard on `paykit-test:eavesdropper` (as text, bytes as Latin-1, so that a code in any form
 *   shows); for each message it hears it sends the message back and posts forgeries, in the attempt's `state` (the
 *   worst case: it knows it): the callback page's `ack` and `go`, and a `done` that says "Evil Corp (spoofed)" is
 *   connected, in both the shapes the protocol had and has. `&inject`: from the start and every 100 ms, the
 *   callback with a code of its own, and the same forgeries;
 * - `GET /__test/lying-drop-in.js`: a drop-in script (the service's `window.HitPay` surface) whose `toggle` calls
 *   `onSuccess` at once, with no payment made: the claim a hostile or broken script (or page) can make;
 * - `/mv/merchants/{merchant}/…`: the merchant-view routes of `@paykit/core`'s contract, answered by the tests' own
 *   backend (merchant-view-backend.ts), and its controls under `/__test/merchant-view`;
 * - authorization server metadata for issuers `{origin}/idp/{name}` (RFC 8414 places the document at
 *   `/.well-known/oauth-authorization-server/idp/{name}`, OpenID at `/idp/{name}/.well-known/openid-configuration`):
 *   `plain` (RFC 8414, an endpoint with its own query), `oidc` (OpenID only: the RFC 8414 place is 404),
 *   `mismatch` (names another issuer), `insecure` (an http endpoint on another host), for the discovery tests.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { createPaykitHandler, createPlatform, type PaykitHandler } from '@paykit/server';
import { handleNodeRequest } from '@paykit/server/node';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { merchantViewRoutes } from './merchant-view-backend.js';

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
  querystring: string;
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

/** See `GET /return` above: the element's source, served and compiled by web-test-runner as the tests' own. */
const CALLBACK_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Connecting</title>
<script type="module" src="/src/return/define.ts"></script></head>
<body><paykit-return endpoint="/platform"></paykit-return></body></html>`;

/** `GET /return-coop-late`: the callback page, whose element is defined (and speaks) 2.5 s after the page loaded. */
const LATE_CALLBACK_PAGE = CALLBACK_PAGE.replace(
  '<script type="module" src="/src/return/define.ts"></script>',
  `<script type="module">setTimeout(() => import('/src/return/define.ts'), 2500);</script>`,
);

/** See `GET /__test/storage-report` above. */
const STORAGE_REPORT = `<!doctype html><title>Storage report</title><script>
const stored = {};
for (let i = 0; i < sessionStorage.length; i += 1) stored[sessionStorage.key(i)] = sessionStorage.getItem(sessionStorage.key(i));
new BroadcastChannel('paykit-test:storage-report').postMessage({ stored, name: window.name, opener: window.opener !== null });
// Under COOP the test has no handle to this window any more: it closes itself (left open, it would keep the focus).
window.close();
</script>`;

/** See `GET /__test/eavesdropper` above. */
const EAVESDROPPER = `<!doctype html><title>Another page of the site</title><script>
const query = new URL(location.href).searchParams;
const state = query.get('state');
const channel = new BroadcastChannel('paykit:connect-popup');
const report = new BroadcastChannel('paykit-test:eavesdropper');
const text = (value) =>
  typeof value === 'string' ? value
  : value instanceof ArrayBuffer ? String.fromCharCode(...new Uint8Array(value))
  : ArrayBuffer.isView(value) ? String.fromCharCode(...new Uint8Array(value.buffer, value.byteOffset, value.byteLength))
  : value && typeof value === 'object' ? Object.entries(value).map(([name, item]) => name + '=' + text(item)).join(' ')
  : String(value);
const search = '?code=injected-by-another-tab&state=' + state;
const business = { name: 'Evil Corp (spoofed)' };
const forge = (inject) => {
  if (inject) for (const type of ['paykit:connect-callback', 'callback']) channel.postMessage({ type, state, search });
  for (const type of ['paykit:connect-ack', 'ack', 'paykit:connect-go', 'go']) channel.postMessage({ type, state, search });
  for (const type of ['paykit:connect-done', 'done']) channel.postMessage({ type, state, business });
};
channel.onmessage = (event) => {
  report.postMessage({ heard: text(event.data) });
  channel.postMessage(event.data);
  forge(false);
};
if (query.has('inject')) {
  forge(true);
  setInterval(() => forge(true), 100);
}
report.postMessage({ ready: true });
</script>`;

/** See `GET /__test/lying-drop-in.js` above. */
const LYING_DROP_IN = `window.HitPay = {
  inited: false,
  init(url, options, callbacks) { this.inited = true; this.callbacks = callbacks; },
  toggle(params) {
    if (params.open === false) return;
    setTimeout(() => this.callbacks.onSuccess({ payment_request_id: params.paymentRequest, status: 'completed' }));
  },
};`;

/** Starts the sandbox and returns the middleware. */
export async function startTestBackend(): Promise<TestBackend> {
  const sandbox = await startSandbox({ port: 0 });
  const handler = createPaykitHandler({
    // 3 s rather than the default 10 s, so that the "timeout" fault test runs in seconds.
    api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey, timeoutMs: 3_000 },
    createPaymentRequest: (choice) => ({
      amount: PRICES[choice.reference ?? ''] ?? '1.00',
      currency: 'SGD',
      purpose: 'Element test',
      ...(choice.email ? { email: choice.email } : {}),
    }),
    logger: { warn: () => undefined, error: () => undefined },
  });

  const control = async (path: string, body: unknown) =>
    (await (
      await fetch(`${sandbox.url}/_sandbox${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    ).json()) as Record<string, string>;
  const merchant = await control('/businesses', { name: 'Harbour Cafe', country: 'SG', currency: 'SGD' });
  const owner = await control('/users', {
    email: 'owner@harbour.test',
    name: 'Hana',
    memberships: [{ business_id: merchant.id, role: 'owner' }],
  });
  // The same shop, configured for its public site only: this test page's origin is refused (403).
  const strict = createPaykitHandler({
    prefix: '/strict',
    publicOrigin: 'https://shop.example',
    api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
    createPaymentRequest: () => ({ amount: '1.00', currency: 'SGD' }),
    logger: { warn: () => undefined, error: () => undefined },
  });
  // The same shop misconfigured: nothing listens on port 9 (discard), and a key the sandbox does not know.
  const misconfigured = new Map<string, PaykitHandler>(
    (
      [
        ['/no-api', { apiBaseUrl: 'http://127.0.0.1:9', apiKey: sandbox.seed.apiKey }],
        ['/wrong-key', { apiBaseUrl: sandbox.url, apiKey: 'sandbox_api_key_of_nobody' }],
      ] as const
    ).map(([prefix, api]) => [
      prefix,
      createPaykitHandler({
        prefix,
        api: { ...api, retry: { attempts: 1 } },
        createPaymentRequest: () => ({ amount: '1.00', currency: 'SGD' }),
        logger: { warn: () => undefined, error: () => undefined },
      }),
    ]),
  );
  // A price the shop cannot charge: its hook's currency typo (SDG for the SGD its pages show).
  misconfigured.set(
    '/typo',
    createPaykitHandler({
      prefix: '/typo',
      api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
      createPaymentRequest: () => ({ amount: '1.00', currency: 'SDG' }),
      logger: { warn: () => undefined, error: () => undefined },
    }),
  );
  let platform: { clientId: string; handler: PaykitHandler } | undefined;
  let callbacks = 0;
  let attempts = 0;
  let loseAnswers = false;
  const keys: string[] = [];

  const middleware: TestBackend['middleware'] = async (ctx, next) => {
    // The merchant views' routes (`/mv/…`) and their controls: see merchant-view-backend.ts.
    if (await merchantViewRoutes(ctx)) return;
    if (ctx.path.endsWith('/payment-requests')) attempts += 1;
    const detailed = /^\/detailed\/payment-requests\/([^/]+)$/.exec(ctx.path);
    if (detailed) {
      const answer = await handler(new Request(`http://127.0.0.1/paykit/payment-requests/${detailed[1]}`));
      ctx.status = answer.status;
      ctx.set('content-type', 'application/json');
      const body = (await answer.json()) as Record<string, unknown>;
      ctx.body = JSON.stringify(answer.ok ? { ...body, purpose: 'Element test', reference: 'order-1042' } : body);
      return;
    }
    if (ctx.path.startsWith('/paykit/')) {
      ctx.respond = false;
      if (ctx.path === '/paykit/payment-requests' && ctx.method === 'POST') {
        keys.push(String(ctx.req.headers['idempotency-key']));
        if (loseAnswers) {
          // The handler does all its work (creates, stores the key's outcome); the answer never reaches the page.
          ctx.res.on('error', () => undefined);
          await handleNodeRequest(
            async (request) => {
              const answer = await handler(request);
              ctx.req.socket.destroy();
              return answer;
            },
            ctx.req,
            ctx.res,
          ).catch(() => undefined);
          return;
        }
      }
      await handleNodeRequest(handler, ctx.req, ctx.res);
      return;
    }
    const wrong = misconfigured.get(`/${ctx.path.split('/')[1]}`);
    if (wrong) {
      ctx.respond = false;
      await handleNodeRequest(wrong, ctx.req, ctx.res);
      return;
    }
    if (ctx.path.startsWith('/strict/')) {
      ctx.respond = false;
      await handleNodeRequest(strict, ctx.req, ctx.res);
      return;
    }
    if (ctx.path.startsWith('/platform/') && platform) {
      if (ctx.path === '/platform/oauth/callback') callbacks += 1;
      ctx.respond = false;
      await handleNodeRequest(platform.handler, ctx.req, ctx.res);
      return;
    }
    if (ctx.path === '/__test/approve' && ctx.method === 'POST') {
      const input = JSON.parse(await readText(ctx.req)) as Record<string, string>;
      if (!platform) {
        const app = await control('/apps', {
          business_id: sandbox.seed.businessId,
          name: 'Acme Platform',
          redirect_uris: [input.redirect_uri],
          scopes: ['business:read', 'payments'],
        });
        platform = {
          clientId: app.client_id!,
          handler: createPaykitHandler({
            prefix: '/platform',
            platform: createPlatform({
              apiBaseUrl: sandbox.url,
              platformKey: sandbox.seed.platformKey,
              oauth: { clientId: app.client_id!, clientSecret: app.client_secret! },
            }),
            createPaymentRequest: () => ({ amount: '1.00', currency: 'SGD' }),
            logger: { warn: () => undefined, error: () => undefined },
          }),
        };
      }
      const approved = await control('/oauth/approve', {
        user_id: owner.id,
        client_id: platform.clientId,
        redirect_uri: input.redirect_uri,
        scope: 'payments business:read',
        state: input.state,
        business_id: merchant.id,
        code_challenge: input.code_challenge,
        code_challenge_method: 'S256',
      });
      ctx.set('content-type', 'application/json');
      ctx.body = JSON.stringify({ ...approved, client_id: platform.clientId });
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
    const expire = /^\/__test\/expire\/([^/]+)$/.exec(ctx.path);
    if (expire && ctx.method === 'POST') {
      const request = sandbox.context.state.paymentRequests.get(expire[1]!);
      if (!request) {
        ctx.status = 404;
        return;
      }
      // `expiry_date` is Singapore time, as the service writes it.
      request.extras.expiry_date = new Date(Date.now() - 60_000 + 8 * 3_600_000).toISOString().slice(0, 19);
      ctx.status = 204;
      return;
    }
    if (ctx.path === '/__test/fault' && ctx.method === 'POST') {
      const armed = await fetch(`${sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: await readText(ctx.req),
      });
      ctx.status = armed.status;
      ctx.body = await armed.text();
      return;
    }
    if (ctx.path === '/__test/lose-answers' && ctx.method === 'POST') {
      loseAnswers = (JSON.parse(await readText(ctx.req)) as { on: boolean }).on;
      ctx.status = 204;
      return;
    }
    if (ctx.path === '/return' && ctx.method === 'GET') {
      ctx.set('content-type', 'text/html');
      ctx.body = CALLBACK_PAGE;
      return;
    }
    if (ctx.path.startsWith('/return-coop') && ctx.method === 'GET') {
      ctx.set('content-type', 'text/html');
      ctx.set('cross-origin-opener-policy', 'same-origin');
      ctx.body = ctx.path === '/return-coop-late' ? LATE_CALLBACK_PAGE : CALLBACK_PAGE;
      return;
    }
    if (ctx.path === '/__test/storage-report' && ctx.method === 'GET') {
      ctx.set('content-type', 'text/html');
      if (new URL(ctx.req.url!, 'http://test').searchParams.has('coop'))
        ctx.set('cross-origin-opener-policy', 'same-origin');
      ctx.body = STORAGE_REPORT;
      return;
    }
    if (ctx.path === '/__test/eavesdropper' && ctx.method === 'GET') {
      ctx.set('content-type', 'text/html');
      ctx.body = EAVESDROPPER;
      return;
    }
    if (ctx.path === '/__test/lying-drop-in.js') {
      ctx.set('content-type', 'text/javascript');
      ctx.body = LYING_DROP_IN;
      return;
    }
    if (ctx.path === '/__test/config') {
      ctx.set('content-type', 'application/json');
      ctx.body = JSON.stringify({
        checkoutOrigin: sandbox.url,
        count: sandbox.context.state.paymentRequests.size,
        callbacks,
        attempts,
        keys,
      });
      return;
    }
    const metadata = metadataDocument(ctx.path, `http://${ctx.req.headers.host}`);
    if (metadata !== undefined) {
      ctx.set('content-type', 'application/json');
      // As a real authorization server does: the document is public, and read by a page of any origin.
      ctx.set('access-control-allow-origin', '*');
      ctx.status = metadata === null ? 404 : 200;
      ctx.body = JSON.stringify(metadata ?? { error: 'not_found' });
      return;
    }
    const hostile = /^\/hostile\/([a-z]+)\/payment-requests/.exec(ctx.path);
    if (hostile) return answerHostile(ctx, hostile[1]!);
    return next();
  };
  return { sandbox, middleware };
}

/**
 * The metadata document at `path` for the test issuers under `origin`: the document, `null` for a 404, or
 * `undefined` when `path` is not a metadata path.
 */
function metadataDocument(path: string, origin: string): Record<string, string> | null | undefined {
  const rfc8414 = /^\/\.well-known\/oauth-authorization-server\/idp\/([a-z]+)$/.exec(path)?.[1];
  const openid = /^\/idp\/([a-z]+)\/\.well-known\/openid-configuration$/.exec(path)?.[1];
  const issuer = `${origin}/idp/${rfc8414 ?? openid}`;
  if (rfc8414 === 'plain') return { issuer, authorization_endpoint: 'https://login.idp.example/authorize?tenant=shop' };
  if (rfc8414 === 'mismatch')
    return { issuer: 'https://idp.evil.example', authorization_endpoint: 'https://idp.evil.example/a' };
  if (rfc8414 === 'insecure') return { issuer, authorization_endpoint: 'http://login.idp.example/authorize' };
  if (openid === 'oidc') return { issuer, authorization_endpoint: 'https://oidc.idp.example/auth' };
  return rfc8414 === undefined && openid === undefined ? undefined : null;
}

function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
    req.on('error', reject);
  });
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
