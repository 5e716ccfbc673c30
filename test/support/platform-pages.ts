/**
 * A platform's web server for end-to-end tests on 127.0.0.1: HTML pages the test writes (the page with the
 * connect button, the return page), the BUILT all-in-one bundle of `@paykit/elements` at `/paykit.js` (what a
 * site loads with a script tag; `pnpm build` makes it), and a paykit handler mounted under a prefix. It listens
 * before it has pages or a handler, because the authorization server must know its redirect URI first.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeListener } from '@paykit/server/node';

/** The built files (`pnpm --filter @paykit/elements build`): `paykit.js` and the lazy chunk it imports beside it. */
const DIST = new URL('../../packages/elements/dist/', import.meta.url);
const BUNDLE = new URL('paykit.js', DIST);
/** `paykit.js` and its chunks (`paykit.handle-connect-return-<hash>.js`), as a site serves the dist folder. */
const SCRIPT = /^\/paykit(\.[\w-]+)?\.js$/;

/** A request the page server answered. */
export interface ServedRequest {
  method: string;
  /** The path and query. */
  url: string;
  /** The request's headers (`referer`: the page that asked). */
  headers: IncomingHttpHeaders;
  /** The answer's status, and its headers as set (a page's own: its type, a COOP). */
  status: number;
  sent: OutgoingHttpHeaders;
}

/** A running page server. */
export interface PlatformPages {
  /** Its origin, such as `http://127.0.0.1:41234`. */
  readonly url: string;
  /**
   * Every request answered so far, in the order the answers finished: what the browsers asked, seen the same
   * way in every engine (WebKit's WebDriver observes no requests).
   */
  readonly requests: readonly ServedRequest[];
  /** Serves `html` (a whole document) at `path`, with `headers` (a Content-Security-Policy, a COOP) if given. */
  page(path: string, html: string, headers?: Record<string, string>): void;
  /** Serves `code` as JavaScript at `path`: a page's own script, under a policy without inline script. */
  script(path: string, code: string): void;
  /** Answers every request under `prefix` (such as `/paykit`) with `handler`. */
  mount(prefix: string, handler: (request: Request) => Promise<Response>): void;
  close(): Promise<void>;
}

/** A document that loads the bundle as a module and holds `body`. */
export function pageWith(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${title}</title>
    <script type="module" src="/paykit.js"></script>
  </head>
  <body>
    <main>${body}</main>
  </body>
</html>`;
}

/** Starts the server on a free port. Fails when the bundle was not built: the test would prove nothing. */
export async function startPlatformPages(): Promise<PlatformPages> {
  const bundle = await readFile(BUNDLE).catch((error: unknown) => {
    throw new Error(`${BUNDLE.pathname} is missing: run \`pnpm --filter @paykit/elements build\` first`, {
      cause: error,
    });
  });
  const pages = new Map<string, { body: string; type: string; headers: Record<string, string> }>();
  const mounts: { prefix: string; listener: ReturnType<typeof toNodeListener> }[] = [];
  const requests: ServedRequest[] = [];
  const server = createServer((req, res) => {
    res.once('finish', () =>
      requests.push({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: req.headers,
        status: res.statusCode,
        sent: res.getHeaders(),
      }),
    );
    const path = (req.url ?? '/').split('?')[0]!;
    const mounted = mounts.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));
    if (mounted) return mounted.listener(req, res);
    if (req.method === 'GET' && path === '/paykit.js') {
      return res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    }
    if (req.method === 'GET' && SCRIPT.test(path)) {
      readFile(new URL(path.slice(1), DIST)).then(
        (chunk) => res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(chunk),
        () => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found'),
      );
      return;
    }
    // Browsers ask for it on every page; a 404 there would be a console error in every test.
    if (path === '/favicon.ico') return res.writeHead(204).end();
    const served = req.method === 'GET' ? pages.get(path) : undefined;
    if (served === undefined) return res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    // Set one by one, so that the request log reads them back (`writeHead`'s own headers are not kept).
    for (const [name, value] of Object.entries({ 'content-type': `${served.type}; charset=utf-8`, ...served.headers }))
      res.setHeader(name, value);
    res.writeHead(200).end(served.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    page: (path, html, headers = {}) => pages.set(path, { body: html, type: 'text/html', headers }),
    script: (path, code) => pages.set(path, { body: code, type: 'text/javascript', headers: {} }),
    mount: (prefix, handler) => mounts.push({ prefix, listener: toNodeListener(handler) }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
