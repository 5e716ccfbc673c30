/**
 * `client_secret_basic` (RFC 6749 section 2.3.1): the client id and secret, each form-urlencoded, joined by a
 * colon and sent base64-encoded in `Authorization: Basic`. The form-encoding step is the part clients and
 * servers get wrong: a secret with `:`, `+`, `%` or a space must come back exactly, so it is decoded as a form
 * value (`+` is a space), not as a bare percent-encoded string.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749#section-2.3.1
 */

/** What an `Authorization` header says about the client, or why it says nothing usable. */
export type BasicCredentials = { ok: true; clientId: string; clientSecret: string } | { ok: false; reason: string };

/** Reads the header; `undefined` when there is none (the client may authenticate in the body instead). */
export function readBasicCredentials(header: string | undefined): BasicCredentials | undefined {
  if (header === undefined) return undefined;
  const match = /^Basic +([A-Za-z0-9+/]+={0,2}) *$/i.exec(header);
  if (!match) return { ok: false, reason: 'The Authorization header must be Basic base64(client_id:client_secret)' };
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const clientId = colon > 0 ? formDecode(decoded.slice(0, colon)) : undefined;
  const clientSecret = colon > 0 ? formDecode(decoded.slice(colon + 1)) : undefined;
  if (!clientId || !clientSecret) {
    return { ok: false, reason: 'The Authorization header must be Basic base64(client_id:client_secret)' };
  }
  return { ok: true, clientId, clientSecret };
}

/** One application/x-www-form-urlencoded value, or `undefined` when its percent-encoding is broken. */
function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
