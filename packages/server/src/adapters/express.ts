/**
 * Mounts a paykit handler in Express or Connect. Requests outside the handler's prefix go on to the next
 * middleware; requests inside it are answered by the handler, whether or not a body parser ran first.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleNodeRequest } from './node.js';

/** The handler as the middleware needs it. */
export interface PrefixedHandler {
  (request: Request): Promise<Response>;
  readonly prefix: string;
}

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
 * When `express.json()` (or another parser) already read the stream, the bytes are gone: hand the handler
 * the parsed value again as JSON, so that its own size and shape checks still run on it.
 */
function consumedBody(req: ConnectRequest): string | undefined {
  if (!req._body && !req.readableEnded) return undefined;
  return req.body === undefined ? '' : JSON.stringify(req.body);
}
