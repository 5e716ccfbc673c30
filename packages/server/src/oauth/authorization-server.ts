/**
 * Where the platform's OAuth client finds its authorization server: the server's own metadata (RFC 8414, or
 * OpenID Connect discovery) read from a configured issuer, or, with no issuer, the spec's fixed token endpoint
 * under the API's base URL (spec 4.8). Explicit endpoints override either.
 *
 * Metadata is read lazily, on the first token request, through oauth4webapi, which checks that the document
 * names the configured issuer (RFC 8414 section 3.3: a mix-up defence). A success is kept for the life of the
 * client; a failure is not, so that a server that was down at start is read again on the next use.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8414.html
 * @see https://openid.net/specs/openid-connect-discovery-1_0.html
 */
import * as oauth from 'oauth4webapi';
import { isLoopbackHost, OAUTH_TOKEN_PATH, PaykitError, parseWebUrl } from '@paykit/core';

/** Which well-known document describes the server. */
export type DiscoveryAlgorithm = 'oauth2' | 'oidc';

/** Endpoints given outright; each one overrides what the metadata says. */
export interface OAuthEndpoints {
  /** The token endpoint (RFC 6749 section 3.2). */
  token?: string;
}

/** Options of {@link authorizationServer}. */
export interface AuthorizationServerOptions {
  /** The API's base URL: the default issuer identifier and the base of the spec's token endpoint path. */
  apiBaseUrl: string;
  /** The authorization server's issuer identifier; when given, its metadata is read. */
  issuer?: string | undefined;
  /**
   * `oauth2` (default) reads `/.well-known/oauth-authorization-server` as RFC 8414 places it; `oidc` reads
   * `{issuer}/.well-known/openid-configuration` (OpenID Connect Discovery 1.0).
   */
  discovery?: DiscoveryAlgorithm | undefined;
  endpoints?: OAuthEndpoints | undefined;
  /** Time limit of the metadata request. */
  timeoutMs: number;
  fetch?: typeof fetch | undefined;
}

/** The authorization server of one client. */
export interface AuthorizationServerSource {
  /** The issuer identifier an authorization response's `iss` must equal (RFC 9207). */
  readonly issuer: string;
  /** The server's metadata, read on first use (when an issuer is configured) and then kept. */
  metadata(): Promise<oauth.AuthorizationServer>;
}

/**
 * Checks the options and returns where the authorization server is. Throws `validation_failed` naming the bad
 * option; reads nothing yet.
 */
export function authorizationServer(options: AuthorizationServerOptions): AuthorizationServerSource {
  const base = parseWebUrl(options.apiBaseUrl);
  if (!base) throw invalid('apiBaseUrl', 'must be an https URL (http only for localhost)');
  const tokenOverride = options.endpoints?.token === undefined ? undefined : endpoint(options.endpoints.token);
  const discovery = options.discovery ?? 'oauth2';
  if (discovery !== 'oauth2' && discovery !== 'oidc') throw invalid('discovery', 'must be "oauth2" or "oidc"');

  if (options.issuer === undefined) {
    // The sandbox advertises its base URL without the trailing slash as its issuer.
    const issuer = base.href.replace(/\/$/, '');
    const metadata: oauth.AuthorizationServer = {
      issuer,
      token_endpoint: tokenOverride ?? new URL(`${base.pathname.replace(/\/$/, '')}${OAUTH_TOKEN_PATH}`, base).href,
    };
    return { issuer, metadata: async () => metadata };
  }

  const issuerUrl = parseWebUrl(options.issuer);
  // RFC 8414 section 2: an issuer identifier has no query and no fragment.
  if (!issuerUrl || issuerUrl.search || issuerUrl.hash) {
    throw invalid('issuer', 'must be an https URL without query or fragment (http only for localhost)');
  }
  const issuer = options.issuer;
  let cached: Promise<oauth.AuthorizationServer> | undefined;

  const discover = async (): Promise<oauth.AuthorizationServer> => {
    let response: Response;
    try {
      response = await oauth.discoveryRequest(issuerUrl, {
        algorithm: discovery,
        signal: AbortSignal.timeout(options.timeoutMs),
        ...(options.fetch ? { [oauth.customFetch]: options.fetch } : {}),
        // oauth4webapi refuses plain http; a server on this machine (the local sandbox) is the one exception.
        ...(isLoopbackHost(issuerUrl.hostname) ? { [oauth.allowInsecureRequests]: true } : {}),
      });
    } catch (error) {
      throw requestFailure(error, issuer);
    }
    let found: oauth.AuthorizationServer;
    try {
      found = await oauth.processDiscoveryResponse(issuerUrl, response);
    } catch (error) {
      throw metadataFailure(error, issuer);
    }
    const merged = tokenOverride === undefined ? found : { ...found, token_endpoint: tokenOverride };
    if (typeof merged.token_endpoint !== 'string') {
      throw new PaykitError(
        'upstream_invalid_response',
        `The metadata of ${issuer} names no token_endpoint; give oauth.endpoints.token`,
      );
    }
    // Checked here, not by the token request's transport, so that the error names the document that said it.
    if (!parseWebUrl(merged.token_endpoint)) {
      throw new PaykitError(
        'upstream_invalid_response',
        `The metadata of ${issuer} names a token_endpoint that is not https (http only for localhost)`,
      );
    }
    return merged;
  };

  return {
    issuer,
    metadata() {
      cached ??= discover().catch((error: unknown) => {
        // Not kept: the next use reads the metadata again.
        cached = undefined;
        throw error;
      });
      return cached;
    },
  };
}

function endpoint(value: string): string {
  const url = parseWebUrl(value);
  if (!url) throw invalid('endpoints.token', 'must be an https URL (http only for localhost)');
  return url.href;
}

function requestFailure(error: unknown, issuer: string): PaykitError {
  if (error instanceof DOMException && error.name === 'TimeoutError') {
    return new PaykitError('timeout', `The metadata of ${issuer} did not arrive in time`, {
      cause: error,
      origin: 'upstream',
    });
  }
  return new PaykitError('network_error', `Could not read the metadata of ${issuer}`, {
    cause: error,
    origin: 'upstream',
  });
}

function metadataFailure(error: unknown, issuer: string): PaykitError {
  if (error instanceof oauth.OperationProcessingError && error.code === oauth.JSON_ATTRIBUTE_COMPARISON) {
    // oauth4webapi puts the metadata it compared on `cause.body` (typed unknown): read defensively, shown as text.
    const named = (error.cause as { body?: { issuer?: unknown } } | undefined)?.body?.issuer;
    // Not `issuer_mismatch`: that code blames the callback's `iss`. This is the shop's configuration (or the
    // server's metadata) being wrong, a 502 whose cause is logged.
    return new PaykitError(
      'upstream_invalid_response',
      `The metadata read for the issuer ${issuer} names the issuer ${String(named)}: not the configured one`,
      { cause: error },
    );
  }
  const reason = error instanceof Error ? `: ${error.message}` : '';
  return new PaykitError(
    'upstream_invalid_response',
    `The metadata of ${issuer} is not an authorization server metadata document${reason}`,
    { cause: error },
  );
}

function invalid(path: string, message: string): PaykitError {
  return new PaykitError('validation_failed', `"${path}" ${message}`, { errors: [{ path, message }] });
}
