/**
 * Refuses state-changing requests from other sites (CSRF). Browsers send `Origin` on every cross-origin
 * and same-origin POST; a request whose `Origin` is neither the handler's own origin nor an allowed one is
 * refused. Requests without `Origin` come from non-browser clients, which CSRF cannot drive.
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html
 */
import { PaykitError } from '@paykit/core';

/** Throws `cross_site_request` unless the request's `Origin` is allowed. */
export function assertSameSiteOrAllowed(request: Request, allowedOrigins: ReadonlySet<string>): void {
  const origin = request.headers.get('origin');
  if (origin === null) return;
  if (origin === new URL(request.url).origin || allowedOrigins.has(origin)) return;
  throw new PaykitError(
    'cross_site_request',
    `Requests from ${origin === 'null' ? 'an opaque origin' : origin} are not allowed`,
    {
      status: 403,
    },
  );
}

/** CORS headers for an allowed cross-origin caller (none for the same origin or a refused one). */
export function corsHeaders(request: Request, allowedOrigins: ReadonlySet<string>): Record<string, string> {
  const origin = request.headers.get('origin');
  if (origin === null || !allowedOrigins.has(origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST',
    'access-control-allow-headers': 'content-type, idempotency-key',
    'access-control-max-age': '600',
    vary: 'Origin',
  };
}
