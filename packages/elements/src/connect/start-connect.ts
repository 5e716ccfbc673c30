/**
 * The headless connect flow: a fresh `state` and PKCE verifier (256 bits each), kept for this attempt only,
 * and the authorization URL of the payment service's dashboard (spec 4.9).
 *
 * @see https://www.rfc-editor.org/rfc/rfc7636 (PKCE)
 */
import { PaykitError, parseWebUrl } from '@paykit/core/browser';
import { text } from '../messages.js';
import { saveAttempt } from './connect-attempts.js';
import { codeChallengeOf, randomToken } from './pkce.js';

/** Options of {@link startConnect}. */
export interface StartConnectOptions {
  /** The platform app's client id (public). */
  clientId: string;
  /** Exactly one of the app's registered redirect URIs: the page with `<paykit-return>`. */
  redirectUri: string;
  /** Space-separated scopes, such as `payments business:read`. */
  scope: string;
  /** The dashboard's origin (sandbox or live), such as `http://127.0.0.1:4010`. */
  dashboardUrl: string;
  /** Where attempts are kept. Default `sessionStorage`. */
  storage?: Storage;
}

/** Prepares an attempt and returns the URL to send the merchant to. */
export async function startConnect(options: StartConnectOptions): Promise<{ url: string; state: string }> {
  const dashboard = parseWebUrl(options.dashboardUrl);
  const redirect = parseWebUrl(options.redirectUri);
  if (!dashboard || !redirect) throw new PaykitError('unsafe_url', text().unsafeUrl);
  if (!options.clientId || !options.scope.trim())
    throw new PaykitError('validation_failed', text().connectMisconfigured);
  const state = randomToken();
  const codeVerifier = randomToken();
  const url = new URL('/oauth/authorize', dashboard);
  url.search = new URLSearchParams({
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    response_type: 'code',
    scope: options.scope.trim(),
    state,
    code_challenge: await codeChallengeOf(codeVerifier),
    code_challenge_method: 'S256',
  }).toString();
  saveAttempt(options.storage ?? sessionStorage, state, {
    codeVerifier,
    redirectUri: options.redirectUri,
    createdAt: Date.now(),
  });
  return { url: url.href, state };
}
