/**
 * Mounts a paykit handler in Express or Connect. Requests outside the handler's prefix go on to the next
 * middleware; requests inside it are answered by the handler, whether or not a body parser ran first.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleNodeRequest, type ConsumedBody, type NodeHandler } from './node.js';

/** The handler as the middleware needs it: a {@link NodeHandler} (paykit's answers exchanges) with its prefix. */
export type PrefixedHandler = NodeHandler & { readonly prefix: string };

type ConnectRequest = IncomingMessage & { originalUrl?: string; body?: unknown; _body?: boolean };

/**
 * Express/Connect middleware for a handler made by `createPaykitHandler`. Mount it at the root
 * (`app.use(paykitMiddleware(handler))`): the handler matches its own prefix against the original URL.
 *
 * @example
 * ```ts
 * const app = express();
 * app.use(paykitMiddleware(createPaykitHandler(options)));
 * ```
 */
export function paykitMiddleware(
  handler: PrefixedHandler,
): (req: ConnectRequest, res: ServerResponse, next: (error?: unknown) => void) => void {
  return (req, res, next) => {
    const path = (req.originalUrl ?? req.url ?? '/').split('?')[0] ?? '/';
    if (path !== handler.prefix && !path.startsWith(`${handler.prefix}/`)) {
      next();
      return;
    }
    handleNodeRequest(handler, req, res, consumedBody(req)).catch(next);
  };
}

/**
 * When another middleware already read the stream: `express.raw()` and `express.text()` kept the bytes, which
 * the handler gets as they were; `express.json()` (or another parser) kept only a value, which the handler gets
 * again as JSON, marked as rebuilt, so that its size and shape checks still run on it while the webhook route,
 * whose signature covers the exact bytes, says what to move instead of failing the signature.
 */
function consumedBody(req: ConnectRequest): ConsumedBody | undefined {
  if (!req._body && !req.readableEnded) return undefined;
  if (typeof req.body === 'string') return { bytes: req.body, rebuilt: false };
  // Copied out of the Buffer (whose memory Node pools) into bytes of their own.
  if (req.body instanceof Uint8Array) return { bytes: new Uint8Array(req.body), rebuilt: false };
  return { bytes: req.body === undefined ? '' : JSON.stringify(req.body), rebuilt: true };
}
