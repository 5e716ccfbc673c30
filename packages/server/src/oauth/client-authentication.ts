/**
 * How the platform's OAuth client proves who it is to the token endpoint: the spec's `client_secret_post`
 * (spec 4.8: the secret in the form body), HTTP Basic (`client_secret_basic`, what RFC 6749 section 2.3.1 asks
 * every server to support), or a JWT signed with the platform's private key (`private_key_jwt`, RFC 7523),
 * which needs no shared secret at all.
 *
 * @see https://www.rfc-editor.org/rfc/rfc6749.html#section-2.3
 * @see https://www.rfc-editor.org/rfc/rfc7523.html#section-2.2
 */
import * as oauth from 'oauth4webapi';
import { PaykitError } from '@paykit/core';
import { rememberSecret } from '../secrets.js';

/** A client authentication method of the token endpoint. */
export type ClientAuthentication =
  | 'client_secret_post'
  | 'client_secret_basic'
  | {
      method: 'private_key_jwt';
      /** An asymmetric private key (RS256, PS256, ES256, Ed25519, ...), or oauth4webapi's `{ key, kid }`. */
      key: oauth.CryptoKey | oauth.PrivateKey;
      /** The key id the server knows the public key by (the JWS `kid` header). */
      kid?: string;
    };

/**
 * The oauth4webapi client authentication for `method` (default `client_secret_post`). Throws
 * `validation_failed` when the method is unknown, a secret method has no secret, or the key is not a private key.
 * The secret is remembered so that the redacting logger masks it.
 */
export function clientAuthentication(
  method: ClientAuthentication | undefined,
  clientSecret: string | undefined,
): oauth.ClientAuth {
  const chosen = method ?? 'client_secret_post';
  if (chosen === 'client_secret_post' || chosen === 'client_secret_basic') {
    if (typeof clientSecret !== 'string' || clientSecret.length === 0) {
      throw invalid('clientSecret', `is required with ${chosen} (only private_key_jwt needs none)`);
    }
    rememberSecret(clientSecret);
    return chosen === 'client_secret_post'
      ? oauth.ClientSecretPost(clientSecret)
      : oauth.ClientSecretBasic(clientSecret);
  }
  if (typeof chosen !== 'object' || chosen === null || chosen.method !== 'private_key_jwt') {
    throw invalid(
      'clientAuthentication',
      'must be "client_secret_post", "client_secret_basic" or { method: "private_key_jwt", key }',
    );
  }
  const given: unknown = chosen.key;
  const key = isKeyHolder(given) ? given.key : given;
  const kid = chosen.kid ?? (isKeyHolder(given) ? given.kid : undefined);
  if (!isPrivateKey(key)) {
    throw invalid('clientAuthentication.key', 'must be a private CryptoKey (crypto.subtle.generateKey or importKey)');
  }
  // oauth4webapi would find out only when signing the first assertion, in the middle of a token request.
  if (!SIGNING_ALGORITHMS.has(key.algorithm.name) || !key.usages.includes('sign')) {
    throw invalid(
      'clientAuthentication.key',
      `must be a signing key of ${[...SIGNING_ALGORITHMS].join(', ')}, not ${key.algorithm.name}`,
    );
  }
  return oauth.PrivateKeyJwt(kid === undefined ? key : { key, kid });
}

/** oauth4webapi's `{ key, kid }` form. */
function isKeyHolder(value: unknown): value is { key: unknown; kid?: string } {
  return typeof value === 'object' && value !== null && 'key' in value;
}

/** A private WebCrypto key (checked by shape: the type checks of this package do not include the DOM lib). */
function isPrivateKey(value: unknown): value is oauth.CryptoKey {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.prototype.toString.call(value) === '[object CryptoKey]' &&
    'type' in value &&
    value.type === 'private'
  );
}

/** The WebCrypto algorithms oauth4webapi signs client assertions with (its `keyToJws`). */
const SIGNING_ALGORITHMS = new Set([
  'RSASSA-PKCS1-v1_5',
  'RSA-PSS',
  'ECDSA',
  'Ed25519',
  'EdDSA',
  'ML-DSA-44',
  'ML-DSA-65',
  'ML-DSA-87',
]);

function invalid(path: string, message: string): PaykitError {
  return new PaykitError('validation_failed', `"${path}" ${message}`, { errors: [{ path, message }] });
}
