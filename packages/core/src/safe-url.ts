/**
 * Where paykit may send a person or data. Every URL from the network or from configuration is parsed with
 * `new URL` and judged by its parsed parts, never by string tests, so look-alikes such as
 * `https://checkout.example.com.evil.test` or `https:\\evil.test` cannot pass.
 *
 * @see https://cheatsheetseries.owasp.org/cheatsheets/Unvalidated_Redirects_and_Forwards_Cheat_Sheet.html
 */

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** True for `localhost`, `127.0.0.1` and `[::1]`: the only hosts that may be reached over plain `http:`. */
export function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_HOSTS.has(hostname.toLowerCase());
}

/**
 * Parses an absolute web URL that is `https:`, or `http:` on a loopback host (the local sandbox).
 * Returns `undefined` for anything else: relative or protocol-relative URLs, `javascript:`, `data:`,
 * `blob:`, URLs with credentials, and plain `http:` to a remote host.
 */
export function parseWebUrl(value: unknown): URL | undefined {
  if (typeof value !== 'string' || value.length > 2048) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.username || url.password) return undefined;
  if (url.protocol === 'https:') return url;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return url;
  return undefined;
}

/**
 * Parses `value` as a web URL (see {@link parseWebUrl}) whose origin is exactly one of `allowedOrigins`.
 * Origins are compared after parsing, so `https://Checkout.Example` matches `https://checkout.example:443`.
 */
export function parseAllowedUrl(value: unknown, allowedOrigins: Iterable<string>): URL | undefined {
  const url = parseWebUrl(value);
  if (!url) return undefined;
  for (const origin of allowedOrigins) {
    if (parseWebUrl(origin)?.origin === url.origin) return url;
  }
  return undefined;
}
