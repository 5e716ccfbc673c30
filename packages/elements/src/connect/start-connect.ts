/**
 * The headless connect flow: a fresh `state` and PKCE verifier (256 bits each), kept for this attempt only (in
 * this tab's sessionStorage, or with `storage: 'local'` the origin's localStorage), and the URL of the
 * authorization request. The authorization endpoint is found as the server side finds its token endpoint: given
 * outright (`authorizationEndpoint`), read from the issuer's metadata (`issuer`), or the spec's path under the
 * dashboard (`{dashboardUrl}/oauth/authorize`, spec 4.9).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636 (PKCE)
 */
import { PaykitError, parseWebUrl } from '@paykit/core/browser';
import { text } from '../messages.js';
import { beginAttempt, type AttemptStorage } from './connect-attempts.js';
import { discoverAuthorizationEndpoint } from './discover.js';

/** Options of {@link startConnect}. */
export interface StartConnectOptions {
  /** The platform app's client id (public). */
  clientId: string;
  /** Exactly one of the app's registered redirect URIs: the page with `<paykit-return>`. */
  redirectUri: string;
  /** Space-separated scopes, such as `payments business:read`. */
  scope: string;
  /** The dashboard's origin (sandbox or live), such as `http://127.0.0.1:4010`: the endpoint is `{dashboardUrl}/oauth/authorize`. */
  dashboardUrl?: string;
  /** The authorization endpoint itself, a full URL (a standard OAuth server). Wins over the other two. */
  authorizationEndpoint?: string;
  /**
   * The authorization server's issuer: the endpoint is read from its metadata (RFC 8414, else OpenID
   * discovery), which must name exactly this issuer. Wins over `dashboardUrl`.
   */
  issuer?: string;
  /** `prompt` (OpenID Connect), such as `login` or `consent`. */
  prompt?: string;
  /** `login_hint` (OpenID Connect): the merchant's login, to prefill the sign-in. */
  loginHint?: string;
  /** `resource` (RFC 8707): the API the tokens are for. */
  resource?: string;
  /**
   * Any other authorization request parameter. It cannot replace one paykit sets (`client_id`, `redirect_uri`,
   * `response_type`, `scope`, `state`, `code_challenge*`): trying is `validation_failed`.
   */
  extraParams?: Record<string, string>;
  /**
   * Where the attempt is kept: `'session'` (the default) this tab's sessionStorage, `'local'` the origin's
   * localStorage, so that a callback opened in another tab of this browser completes (an email link in the
   * middle of onboarding); or a `Storage` of your own. Either way single use and expiring after ten minutes.
   */
  storage?: AttemptStorage;
  /** For the metadata request. */
  fetch?: typeof fetch;
}

/**
 * Prepares an attempt and returns the URL to send the merchant to. Throws `PaykitError`:
 * `insecure_context` on a page that is not a secure context (no Web Crypto for PKCE: serve it over https),
 * `validation_failed` or `unsafe_url` for a setting that cannot work; nothing is stored or sent then.
 */
export async function startConnect(options: StartConnectOptions): Promise<{ url: string; state: string }> {
  /** The parameters paykit sets itself, which `extraParams` may not replace (the last three: beginAttempt's). */
  const own: Record<string, string> = {
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: options.scope.trim(),
    state: '',
    code_challenge: '',
    code_challenge_method: '',
  };
  // PKCE needs Web Crypto, which browsers give secure contexts only (https, or http on localhost): on a page served
  // over plain http on another address, say so before anything is stored or fetched, not with a TypeError later.
  if (!crypto.subtle) throw new PaykitError('insecure_context', text().misconfigured);
  const extra = { ...options.extraParams };
  if (!own.client_id || !own.scope || Object.keys(extra).some((name) => Object.hasOwn(own, name)))
    throw new PaykitError('validation_failed', text().misconfigured);
  const dashboard = parseWebUrl(options.dashboardUrl);
  // Whichever way it was found, the endpoint must be https (or http on this machine).
  const url = parseWebUrl(
    options.authorizationEndpoint ||
      (options.issuer
        ? await discoverAuthorizationEndpoint(options.issuer, options.fetch)
        : dashboard && `${dashboard.origin}/oauth/authorize`),
  );
  if (!url || !parseWebUrl(options.redirectUri)) throw new PaykitError('unsafe_url', text().misconfigured);
  for (const [name, value] of Object.entries({
    ...extra,
    prompt: options.prompt,
    login_hint: options.loginHint,
    resource: options.resource,
    ...own,
  }))
    // `set`, not `append`: an endpoint's own query (RFC 6749 section 3.1 allows one) keeps its other parameters.
    if (value) url.searchParams.set(name, value);
  const state = await beginAttempt(url, options.storage);
  return { url: url.href, state };
}
