/**
 * The authorization endpoint of a standard OAuth server, read from its metadata: RFC 8414's document first,
 * and, when the server has none (404), OpenID Connect Discovery's. Checked as the server side checks it: the
 * document must name exactly the issuer it was fetched for (RFC 8414 section 3.3, the mix-up defence), and the
 * endpoint, once returned, is checked like any other: a URL paykit may send a merchant to (`https:`, or `http:`
 * on this machine).
 *
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-3
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html#ProviderConfig
 */
import { PaykitError, parseWebUrl } from '@paykit/core/browser';
import { text } from '../messages.js';
import { callBackend } from '../http.js';

/**
 * Reads the metadata of `issuer` and returns its `authorization_endpoint`, as written: the caller checks it as
 * it checks an endpoint given outright.
 */
export async function discoverAuthorizationEndpoint(issuer: string, fetchImpl?: typeof fetch): Promise<unknown> {
  const url = parseWebUrl(issuer);
  if (!url) throw new PaykitError('unsafe_url', text().misconfigured);
  const path = url.pathname.replace(/\/$/, '');
  const read = (place: string) => callBackend(`${url.origin}${place}`, { fetch: fetchImpl });
  let metadata: Record<string, unknown>;
  try {
    // RFC 8414 puts its well-known segment between the host and the issuer's path. A plain GET without
    // credentials or custom headers: no CORS preflight, no cookies to the server.
    metadata = await read(`/.well-known/oauth-authorization-server${path}`);
  } catch (error) {
    // callBackend rejects with PaykitErrors only (no signal is passed here).
    if ((error as PaykitError).status !== 404) throw error;
    // OpenID Connect Discovery appends its own to the issuer.
    metadata = await read(`${path}/.well-known/openid-configuration`);
  }
  // Not `issuer_mismatch`, which is a callback's `iss` (RFC 9207): here the button refuses to go anywhere.
  if (metadata.issuer !== issuer) throw new PaykitError('unsafe_url', text().misconfigured);
  return metadata.authorization_endpoint;
}
