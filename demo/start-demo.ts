/**
 * The demo merchant: the sandbox, a shop backend built on `@paykit/server`, and the store and return pages
 * that load paykit with a `<script>` tag. `pnpm demo` runs it; the end-to-end tests drive the same thing.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { createPaykitHandler } from '@paykit/server';
import { FileConnectionStore, FileEventStore } from '@paykit/server/files';
import { toNodeListener } from '@paykit/server/node';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PRODUCTS, productOf } from './catalogue.js';
import { page, POLICIES, receiveCspReport, send } from './http-answers.js';
import { makeDataDir, readOrCreateKey } from './data-file.js';
import { ordersPage, wantsJson } from './orders-page.js';
import { OrderBook } from './orders.js';
import {
  DROP_IN_SKU,
  EMBED_SANDBOXES,
  embedPage,
  frameworkPage,
  productPage,
  productPath,
  returnPage,
  siteBuilderPage,
  storePage,
  themesPage,
  type Framework,
} from './pages.js';
import { startPlatformDemo, type PlatformDemo } from './platform.js';

/** Options of {@link startDemo}. */
export interface DemoOptions {
  /** The shop's port; `0` picks a free one. Default 3000. */
  port?: number;
  /** The sandbox's port; `0` picks a free one. Default 4010. */
  sandboxPort?: number;
  /**
   * A folder that keeps the demo across restarts (created if missing): the sandbox's state in `sandbox.json`,
   * the platform's app, merchant and connected merchants in `platform.json`, the shop's orders in
   * `orders.json`. Without it everything is in memory and starts afresh (the tests).
   */
  dataDir?: string;
  /**
   * For the tests: awaited before the shop's backend handles a request under `/paykit/` (a slow backend, and a
   * count of what the pages asked). Browsers without request interception (Firefox, WebKit) get it here.
   */
  beforeBackend?: (req: IncomingMessage) => Promise<void> | void;
  /**
   * For the tests: told of every request the shop receives, before it is handled (the navigations and calls the
   * pages made, seen the same way in every browser: WebKit's WebDriver observes no requests).
   */
  onRequest?: (req: IncomingMessage) => void;
}

/** A running demo. */
export interface RunningDemo {
  /** The shop's origin: open it in a browser. */
  readonly url: string;
  readonly sandbox: RunningSandbox;
  /** What the webhooks confirmed. */
  readonly orders: OrderBook;
  /** The demo platform (`/platform`). */
  readonly platform: PlatformDemo;
  /**
   * Content-Security-Policy violations browsers reported for the shop's pages (`report-uri /csp-reports`), each
   * report's JSON body as sent, the latest 100; each is also printed. The end-to-end tests expect none.
   */
  readonly cspReports: readonly unknown[];
  close(): Promise<void>;
}

/**
 * Files the pages load. The script is the all-in-one build of `@paykit/elements` (`pnpm build`): an ES module,
 * and the classic script for pages without modules.
 */
const ASSETS: Record<string, { file: URL; type: string }> = {
  '/assets/paykit.js': {
    file: new URL('../packages/elements/dist/paykit.js', import.meta.url),
    type: 'text/javascript',
  },
  '/assets/paykit.iife.js': {
    file: new URL('../packages/elements/dist/paykit.iife.js', import.meta.url),
    type: 'text/javascript',
  },
  '/assets/store.css': { file: new URL('./public/store.css', import.meta.url), type: 'text/css' },
};
/** The built `@paykit/elements` files, for the chunk that `paykit.js` imports (`pnpm build`). */
const ELEMENTS_DIST = new URL('../packages/elements/dist/', import.meta.url);
/** The framework examples' bundles (`pnpm --filter @paykit/demo build`), under `/assets/examples/`. */
const EXAMPLES_DIR = new URL('./dist/examples/', import.meta.url);

/** Starts the sandbox and the shop. */
export async function startDemo(options: DemoOptions = {}): Promise<RunningDemo> {
  const { dataDir } = options;
  if (dataDir !== undefined) await makeDataDir(dataDir);
  // Read before anything listens: a file the demo cannot use stops it with nothing to clean up.
  const orders = dataDir === undefined ? new OrderBook() : await OrderBook.open(join(dataDir, 'orders.json'));
  // With a data folder, the server's state lasts too: the platform's merchant credentials (encrypted) and the
  // webhook facts already acted on, so that a redelivery after a restart is not recorded twice.
  const durable =
    dataDir === undefined
      ? undefined
      : {
          connections: new FileConnectionStore({
            path: join(dataDir, 'connections.json'),
            key: await readOrCreateKey(join(dataDir, 'connections.key')),
          }),
          events: new FileEventStore({ path: join(dataDir, 'webhook-events.jsonl') }),
        };
  const sandbox = await startSandbox({
    port: options.sandboxPort ?? 4010,
    ...(dataDir === undefined ? {} : { dataFile: join(dataDir, 'sandbox.json') }),
  });
  let paykit: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  let platform: { demo: PlatformDemo; listener: (req: IncomingMessage, res: ServerResponse) => void } | undefined;
  const cspReports: unknown[] = [];
  const server = createServer((req, res) => {
    options.onRequest?.(req);
    const path = new URL(req.url ?? '/', 'http://demo').pathname;
    if (path === '/paykit' || path.startsWith('/paykit/')) {
      if (!options.beforeBackend) return paykit?.(req, res);
      return void Promise.resolve(options.beforeBackend(req)).then(() => paykit?.(req, res));
    }
    if (path.startsWith('/platform/paykit/')) return platform?.listener(req, res);
    if (path === '/csp-reports' && req.method === 'POST') return receiveCspReport(req, res, cspReports);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'Method not allowed');
    if (path === '/') return page(res, storePage(PRODUCTS, sandbox.url), sandbox.url);
    if (path === '/themes') return page(res, themesPage(sandbox.url), sandbox.url);
    // Someone else's page framing the shop's embed code (on localhost: another site), and that embed code.
    if (path === '/site-builder') {
      const query = new URL(req.url ?? '/', 'http://demo').searchParams;
      const sandboxed = query.get('sandbox') ?? 'none';
      if (!Object.hasOwn(EMBED_SANDBOXES, sandboxed)) return send(res, 404, 'text/plain', 'Not found');
      const html = siteBuilderPage(url, PRODUCTS[0]!, sandboxed, query.get('embed') === 'connect');
      return page(res, html, sandbox.url, undefined, undefined, false, { frameSrc: url });
    }
    if (path === '/platform/embed' && platform)
      return page(res, platform.demo.embedPage(), sandbox.url, undefined, undefined, false, {
        frameAncestors: `${url} ${url.replace('127.0.0.1', 'localhost')}`,
      });
    const embedded = PRODUCTS.find((p) => `/embed/${encodeURIComponent(p.sku)}` === path);
    if (embedded)
      return page(res, embedPage(embedded, sandbox.url), sandbox.url, undefined, undefined, false, {
        frameAncestors: `${url} ${url.replace('127.0.0.1', 'localhost')}`,
      });
    if (path === '/return') return page(res, returnPage(), sandbox.url, 'no-referrer');
    if (path === '/react' || path === '/vue') {
      const framework: Framework = path === '/react' ? 'react' : 'vue';
      const policies = framework === 'vue' ? POLICIES.vue : POLICIES.default;
      return page(res, frameworkPage(framework, PRODUCTS, sandbox.url), sandbox.url, undefined, policies);
    }
    if (path === '/platform' && platform) {
      platform.demo.page().then(
        (html) => page(res, html, sandbox.url),
        () => send(res, 500, 'text/plain', 'The platform page failed'),
      );
      return;
    }
    if (path === '/platform/onboarding' && platform) return page(res, platform.demo.onboardingPage(), sandbox.url);
    if (path === '/platform/return' && platform)
      return page(res, platform.demo.returnPage(), sandbox.url, 'no-referrer');
    // `/orders` is a page for people and data for a script that asks for JSON: caches keep the two apart.
    if (path === '/orders') res.setHeader('vary', 'accept');
    if (path === '/orders.json' || (path === '/orders' && wantsJson(req.headers.accept)))
      return send(res, 200, 'application/json', JSON.stringify(orders.list(), null, 2));
    if (path === '/orders') return page(res, ordersPage(orders.list()), sandbox.url);
    const product = PRODUCTS.find((p) => productPath(p) === path);
    if (product)
      return page(
        res,
        productPage(product, sandbox.url),
        sandbox.url,
        undefined,
        undefined,
        product.sku === DROP_IN_SKU,
      );
    const example = /^\/assets\/examples\/([\w-]+\.js)$/.exec(path)?.[1];
    if (example) {
      readFile(new URL(example, EXAMPLES_DIR)).then(
        (body) => send(res, 200, 'text/javascript', body),
        () => send(res, 404, 'text/plain', 'Not built yet: run `pnpm --filter @paykit/demo build` first'),
      );
      return;
    }
    // The lazy chunk `paykit.js` imports beside itself on a platform's OAuth callback page.
    const chunk = /^\/assets\/(paykit\.[\w-]+-[\w-]+\.js)$/.exec(path)?.[1];
    if (chunk) {
      readFile(new URL(chunk, ELEMENTS_DIST)).then(
        (body) => send(res, 200, 'text/javascript', body),
        () => send(res, 404, 'text/plain', 'Not found'),
      );
      return;
    }
    const asset = ASSETS[path];
    if (asset) {
      readFile(asset.file).then(
        (body) => send(res, 200, asset.type, body),
        () => send(res, 404, 'text/plain', 'Not built yet: run `pnpm build` first'),
      );
      return;
    }
    send(res, 404, 'text/plain', 'Not found');
  });
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await sandbox.close();
    await orders.flush();
    await platform?.demo.flush();
  };
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 3000, '127.0.0.1', resolve);
    });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  // A listening TCP server's address is an AddressInfo (a string only for a pipe).
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // Made once the port is known: the checkout returns to this origin and the sandbox posts events to it.
  paykit = toNodeListener(
    createPaykitHandler({
      api: { apiBaseUrl: sandbox.url, apiKey: sandbox.seed.apiKey },
      createPaymentRequest: (choice) => {
        const product = productOf(choice.reference);
        return {
          amount: product.amount,
          currency: product.currency,
          purpose: product.name,
          payment_methods: ['paynow_online', 'card'],
          ...(choice.email ? { email: choice.email } : {}),
        };
      },
      returnUrl: `${url}/return`,
      webhookUrl: `${url}/paykit/webhooks`,
      // Both formats come signed with the Demo Store's salt: its payment notifications to `webhookUrl`, and its
      // event webhooks to the endpoint registered below. One fact in both formats is one order event.
      webhookSalt: sandbox.seed.salt,
      onEvent: (event) => orders.record(event),
      ...(durable ? { eventStore: durable.events } : {}),
    }),
  );
  listenForShopEvents(sandbox, `${url}/paykit/webhooks`);
  const platformDemo = await startPlatformDemo(
    sandbox,
    url,
    dataDir === undefined ? {} : { dataFile: join(dataDir, 'platform.json'), store: durable!.connections },
  ).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  platform = { demo: platformDemo, listener: toNodeListener(platformDemo.handler) };
  return {
    url,
    sandbox,
    orders,
    platform: platformDemo,
    cspReports,
    close,
  };
}

/**
 * Registers the shop's webhook route on the Demo Store for the events of its payment requests, as a merchant does
 * in the service's dashboard: once, since the sandbox keeps its endpoints in the data folder across restarts.
 */
function listenForShopEvents(sandbox: RunningSandbox, url: string): void {
  const { state } = sandbox.context;
  if (state.endpointsOf(sandbox.seed.businessId).some((endpoint) => endpoint.url === url)) return;
  state.addEndpoint(
    {
      businessId: sandbox.seed.businessId,
      name: 'Demo shop',
      url,
      eventTypes: ['payment_request.completed', 'payment_request.failed', 'charge.created', 'charge.updated'],
    },
    sandbox.context.clocks.now(sandbox.seed.businessId),
  );
}
