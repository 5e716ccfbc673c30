/**
 * Refuses state-changing requests from other sites (CSRF). Browsers send `Origin` on every cross-origin and
 * same-origin POST made by `fetch`; a request whose `Origin` is not an allowed one is refused.
 *
 * The allowed origins come from configuration (`publicOrigin`, `allowedOrigins`), never from the request's own
 * `Host`: a page on a domain that an attacker points at the shop's address (DNS rebinding) sends a `Host` and an
 * `Origin` that agree. The one exception is development on a loopback host without `publicOrigin`: there the
 * request's own origin counts, since a rebound name is not `localhost` or a loopback address, and the demo and
 * local tests then work without configuration.
 *
 * A request without `Origin` comes from a non-browser client (a server, curl), which CSRF cannot drive, and is
 * let through unless its `Sec-Fetch-Site` says a browser sent it from another site. A route that only a page
 * calls (the OAuth callback) requires `Origin`.
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Cross-Site_Request_Forgery_Prevention_Cheat_Sheet.html
 * @see https://www.w3.org/TR/fetch-metadata/
 */
import { PaykitError } from '@paykit/core';
import type { Exchange, HeaderReader } from './exchange.js';

/** Which origins may call the handler's POST routes. */
export interface OriginPolicy {
  /** Where the shop's pages and this handler are served, when configured. */
  readonly publicOrigin: string | undefined;
  /** Other sites' origins, answered with CORS headers. */
  readonly crossOrigins: ReadonlySet<string>;
}

/**
 * The policy of a handler's options; throws `validation_failed` naming the option when an entry is not an
 * origin (a path or a query would never equal a browser's `Origin`, so the mistake would refuse every call).
 */
export function originPolicy(publicOrigin: string | undefined, allowedOrigins: readonly string[] = []): OriginPolicy {
  return {
    publicOrigin: publicOrigin === undefined ? undefined : parseOrigin(publicOrigin, 'publicOrigin'),
    crossOrigins: new Set(allowedOrigins.map((origin) => parseOrigin(origin, 'allowedOrigins'))),
  };
}

/** What a route asks of the caller's origin. */
export interface OriginRequirement {
  /** Refuse a request without `Origin` (routes only a browser page calls). */
  requireOrigin?: boolean;
}

/** Throws `cross_site_request` (403) unless the request may change state, per the policy. */
export function assertSameSiteOrAllowed(
  request: Pick<Exchange, 'headers' | 'url'>,
  policy: OriginPolicy,
  requirement: OriginRequirement = {},
): void {
  const origin = request.headers.get('origin');
  if (origin === null) {
    const site = request.headers.get('sec-fetch-site')?.trim().toLowerCase();
    // `same-site` is refused too: without Origin nothing tells which sibling site sent it.
    if (site === 'cross-site' || site === 'same-site') {
      throw refused('A request from another site without an Origin header is not allowed');
    }
    if (requirement.requireOrigin) {
      throw refused('This route must be called by a page of the shop: the Origin header is missing');
    }
    return;
  }
  if (isAllowed(origin, request, policy)) return;
  const who = origin === 'null' ? 'an opaque origin' : origin;
  throw refused(
    `Requests from ${who} are not allowed. If this is the shop's own site, set "publicOrigin" to it; ` +
      'if it is another site of yours, add it to "allowedOrigins".',
  );
}

/**
 * Throws `validation_failed` naming `option`, `publicOrigin` and `allowedOrigins` when `url`, a page the shopper or
 * the merchant is sent back to (`returnUrl`, a platform's redirect URI), is on an origin the policy does not
 * serve: that page's calls to the handler would be refused as another site's, and the person learns it only after
 * paying or approving. Without `publicOrigin` (development on a loopback host) there is nothing to hold it against.
 */
export function assertServedOrigin(url: string | undefined, option: string, policy: OriginPolicy): void {
  if (url === undefined || policy.publicOrigin === undefined) return;
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return; // the URL's own check names it
  }
  if (origin === policy.publicOrigin || policy.crossOrigins.has(origin)) return;
  const others = policy.crossOrigins.size === 0 ? 'none' : [...policy.crossOrigins].join(', ');
  throw new PaykitError(
    'validation_failed',
    `"${option}" (${url}) is on ${origin}, which is neither "publicOrigin" (${policy.publicOrigin}) nor one of ` +
      `"allowedOrigins" (${others}): the page there could not call this handler. Put the page on ` +
      `${policy.publicOrigin}, or set publicOrigin to ${origin} if that is where the shop is served.`,
    { errors: [{ path: option, message: `is not on publicOrigin (${policy.publicOrigin}) or allowedOrigins` }] },
  );
}

/** CORS headers for an allowed cross-origin caller (none for the shop's own origin or a refused one). */
export function corsHeaders(headers: HeaderReader, policy: OriginPolicy): Record<string, string> {
  const origin = headers.get('origin');
  if (origin === null || !policy.crossOrigins.has(origin)) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST',
    'access-control-allow-headers': 'content-type, idempotency-key',
    'access-control-max-age': '600',
    vary: 'Origin',
  };
}

function isAllowed(origin: string, request: Pick<Exchange, 'url'>, policy: OriginPolicy): boolean {
  if (origin === policy.publicOrigin || policy.crossOrigins.has(origin)) return true;
  if (policy.publicOrigin !== undefined) return false;
  const own = request.url;
  return isLoopback(own.hostname) && origin === own.origin;
}

/** `localhost`, 127.0.0.0/8 and `[::1]`: names that no DNS answer can move elsewhere (RFC 6761 6.3). */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(hostname);
}

function refused(message: string): PaykitError {
  return new PaykitError('cross_site_request', message);
}

function parseOrigin(origin: string, option: string): string {
  try {
    const url = new URL(origin);
    if (url.origin !== 'null' && (url.pathname === '/' || url.pathname === '') && !url.search) return url.origin;
  } catch {
    // reported below
  }
  throw new PaykitError(
    'validation_failed',
    `"${option}" must hold origins such as https://shop.example, not ${String(origin)}`,
    { errors: [{ path: option, message: 'is not an origin' }] },
  );
}
