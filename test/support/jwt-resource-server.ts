/**
 * A tiny "Payments API" resource server on 127.0.0.1 for tests against a standard authorization server:
 * `GET /v1/info` answers the business profile of the access token's subject, and anything without a valid
 * token gets 401. Access tokens are JWTs (RFC 9068) checked as a resource server must: signature against the
 * issuer's published keys (its discovery document's `jwks_uri`), `typ` `at+jwt`, `iss`, `aud` (this server's
 * resource indicator) and `exp`. Verified with `node:crypto`, so the test needs no JOSE library of its own.
 *
 * @see https://www.rfc-editor.org/rfc/rfc9068 (JWT profile for OAuth 2.0 access tokens)
 */
import { createPublicKey, verify, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BusinessInfo } from '@paykit/core';

/** One call the resource server answered. */
export interface ResourceCall {
  path: string;
  status: number;
  /** The token's subject and id when it was valid. */
  sub?: string;
  jti?: string;
}

/** A running resource server. */
export interface JwtResourceServer {
  /** Its origin with a trailing slash: also its resource indicator (RFC 8707) and the tokens' `aud`. */
  readonly resource: string;
  /** Its origin, the `apiBaseUrl` of the platform. */
  readonly url: string;
  /** Every call, in order. */
  readonly calls: readonly ResourceCall[];
  /** Sets the one issuer whose tokens are taken (before the first call). */
  trustIssuer(issuer: string): void;
  close(): Promise<void>;
}

/** The business profile of an account at the authorization server (its `sub`). */
export type ProfileOf = (sub: string) => BusinessInfo;

/** The business a merchant signed in as `sub` connects in the OAuth tests: "Ann's Harbour Shop", in Singapore. */
export const harbourShopOf: ProfileOf = (sub) => ({
  id: `biz_${sub}`,
  name: `${sub[0]!.toUpperCase()}${sub.slice(1)}'s Harbour Shop`,
  country: 'SG',
  currency: 'SGD',
  payments_enabled: true,
});

/** Starts the resource server on a free port. */
export async function startJwtResourceServer(profileOf: ProfileOf): Promise<JwtResourceServer> {
  const calls: ResourceCall[] = [];
  let issuer: string | undefined;
  const keys = new Map<string, KeyObject>();
  let resource = '';

  /** The issuer's key `kid`, read from its JWKS (again when a new `kid` shows up: the issuer rotated). */
  async function keyOf(kid: string): Promise<KeyObject | undefined> {
    if (!keys.has(kid) && issuer) {
      const metadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as {
        jwks_uri: string;
      };
      const jwks = (await (await fetch(metadata.jwks_uri)).json()) as { keys: (JsonWebKey & { kid?: string })[] };
      for (const jwk of jwks.keys) {
        if (jwk.kid && jwk.kty === 'RSA') keys.set(jwk.kid, createPublicKey({ key: jwk, format: 'jwk' }));
      }
    }
    return keys.get(kid);
  }

  /** The token's claims when it is one of the issuer's RS256 access tokens for this resource, still valid. */
  async function verifyAccessToken(token: string): Promise<{ sub: string; jti: string } | undefined> {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    let header: { alg?: string; typ?: string; kid?: string };
    let claims: { iss?: string; aud?: string | string[]; exp?: number; sub?: string; jti?: string };
    try {
      header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as typeof header;
      claims = JSON.parse(Buffer.from(payloadPart, 'base64url').toString('utf8')) as typeof claims;
    } catch {
      return undefined;
    }
    // RFC 9068 section 4: the type tells an access token from an ID token signed by the same key.
    if (header.alg !== 'RS256' || !header.kid || !/^(application\/)?at\+jwt$/i.test(header.typ ?? '')) return undefined;
    const key = await keyOf(header.kid);
    if (!key) return undefined;
    const signed = verify(
      'sha256',
      Buffer.from(`${headerPart}.${payloadPart}`),
      key,
      Buffer.from(signaturePart, 'base64url'),
    );
    const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!signed || claims.iss !== issuer || !audiences.includes(resource)) return undefined;
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= Date.now()) return undefined;
    if (!claims.sub || !claims.jti) return undefined;
    return { sub: claims.sub, jti: claims.jti };
  }

  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const answer = (status: number, body: unknown, call: Partial<ResourceCall> = {}) => {
      calls.push({ path, status, ...call });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (status === 401) headers['www-authenticate'] = 'Bearer error="invalid_token"';
      res.writeHead(status, headers).end(JSON.stringify(body));
    };
    const bearer = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
    void (bearer ? verifyAccessToken(bearer) : Promise.resolve(undefined)).then(
      (token) => {
        if (!token) return answer(401, { message: 'A valid access token is required.', code: 'unauthorized' });
        if (req.method === 'GET' && path === '/v1/info') return answer(200, profileOf(token.sub), token);
        return answer(404, { message: 'Not found.', code: 'not_found' }, token);
      },
      () => answer(500, { message: 'The keys could not be read.', code: 'internal_error' }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  resource = `${url}/`;
  return {
    resource,
    url,
    calls,
    trustIssuer(value) {
      issuer = value;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
