/**
 * `GET /.well-known/oauth-authorization-server`: the sandbox's authorization server metadata (RFC 8414), so
 * that a client given only the issuer (the sandbox's origin) finds the authorize and token endpoints by
 * discovery, as it would on any standard server. Only RFC 8414's document is served: the sandbox is not an
 * OpenID provider (no ID tokens, no userinfo), and an `openid-configuration` would claim that it is.
 *
 * @see https://www.rfc-editor.org/rfc/rfc8414#section-2
 */
import { OAUTH_TOKEN_PATH, SCOPES } from '@paykit/core';
import { Hono } from 'hono';
import type { SandboxContext } from '../context.js';

/** The path of the metadata document for an issuer without a path (RFC 8414 section 3). */
export const METADATA_PATH = '/.well-known/oauth-authorization-server';

/** The metadata of the sandbox whose origin is `issuer` (no trailing slash). */
export function authorizationServerMetadata(issuer: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}${OAUTH_TOKEN_PATH}`,
    response_types_supported: ['code'],
    // The code comes back in the query only (spec 4.9); RFC 8414's default would also claim `fragment`.
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    scopes_supported: [...SCOPES],
    authorization_response_iss_parameter_supported: true,
  };
}

/** The metadata route, mounted at {@link METADATA_PATH}. */
export function oauthMetadataRoute(sandbox: SandboxContext) {
  const routes = new Hono();
  routes.get('/', (c) =>
    c.json(authorizationServerMetadata(sandbox.publicUrl()), 200, {
      // Public facts that a connect button in any page's origin reads with fetch (no credentials sent).
      'access-control-allow-origin': '*',
      // They change only when the sandbox is restarted elsewhere, which changes the URL too; an hour is enough.
      'cache-control': 'public, max-age=3600',
    }),
  );
  return routes;
}
