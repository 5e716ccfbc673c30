/**
 * Fault injection: the control API arms a fault on a route, and the next matching requests get it instead of
 * (or before) the real answer. What the network and a struggling API do: 5xx, slow answers, no answer at all,
 * dropped connections, truncated or non-JSON bodies, 429, and a redirect (a moved host or a proxy sending http to
 * https, which a client must not follow with its credentials).
 */
import type { MiddlewareHandler } from 'hono';

/** The kinds of fault. */
export const FAULT_KINDS = [
  'status',
  'slow',
  'timeout',
  'drop',
  'truncated',
  'html',
  'rate_limit',
  'redirect',
] as const;

/** An armed fault. */
export interface Fault {
  id: string;
  /** Matches this method only, when given. */
  method: string | undefined;
  /** Matches paths starting with this (`/v1/payment-requests`). */
  path: string;
  kind: (typeof FAULT_KINDS)[number];
  /** For `status`: the status to answer (default 503). */
  status: number;
  /** For `slow`: the delay before the real answer; for `timeout`: how long to hold the request (default 60 s). */
  delayMs: number;
  /** For `rate_limit`: the `Retry-After` seconds. */
  retryAfter: number;
  /** How many requests it still affects. */
  remaining: number;
}

/** The armed faults of one sandbox. */
export class Faults {
  readonly armed: Fault[] = [];

  /** Takes the first fault matching this request, counting it down. */
  take(method: string, path: string): Fault | undefined {
    const fault = this.armed.find(
      (f) => f.remaining > 0 && path.startsWith(f.path) && (!f.method || f.method === method),
    );
    if (fault) fault.remaining -= 1;
    return fault;
  }

  reset(): void {
    this.armed.length = 0;
  }
}

/** The middleware that applies armed faults to every route but the control API. */
export function faultMiddleware(faults: Faults): MiddlewareHandler {
  return async (c, next) => {
    const path = new URL(c.req.url).pathname;
    if (path.startsWith('/_sandbox')) return next();
    const fault = faults.take(c.req.method, path);
    if (!fault) return next();
    switch (fault.kind) {
      case 'status':
        // 400 to 599, as the control route's schema allows; Hono types a status as its literal list.
        return c.json({ message: `Injected fault: ${fault.status}`, code: 'injected_fault' }, fault.status as 503);
      case 'slow':
        await sleep(fault.delayMs);
        return next();
      case 'timeout':
        await sleep(fault.delayMs || 60_000);
        return c.json({ message: 'Injected fault: too late' }, 504);
      case 'drop': {
        // @hono/node-server passes the Node request as `incoming` (untyped here: the app runs on any adapter):
        // destroying its socket drops the connection.
        const incoming = (c.env as { incoming?: { socket?: { destroy(): void } } } | undefined)?.incoming;
        incoming?.socket?.destroy();
        return c.body(null, 500);
      }
      case 'truncated':
        return c.body('{"id":"8c2d","status":"pend', 200, { 'content-type': 'application/json' });
      case 'html':
        return c.html('<html><body><h1>Down for maintenance</h1></body></html>', 200);
      case 'rate_limit':
        return c.json({ message: 'Too many requests' }, 429, { 'retry-after': String(fault.retryAfter) });
      case 'redirect':
        // Somewhere that can never answer (`.invalid`), with a query a client must not repeat in its logs.
        return c.body(null, 301, { location: `https://moved.sandbox.invalid${path}?moved=secret` });
    }
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
