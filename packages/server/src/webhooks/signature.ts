/**
 * HMAC-SHA256 signatures of webhooks, checked with the Web Crypto API so that the same code runs on Node, Bun,
 * Deno and workers. `crypto.subtle.verify` compares in constant time; paykit never compares signatures itself.
 *
 * @see https://www.rfc-editor.org/rfc/rfc2104 HMAC
 */

/** Why a signature was not accepted, or `valid`. */
export type SignatureCheck = 'valid' | 'missing' | 'malformed' | 'mismatch';

/** A signature as the service writes it: 32 bytes in hexadecimal. */
const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;

const encoder = new TextEncoder();

/**
 * Checks `signature` (hex) against the HMAC-SHA256 of `data` keyed by `salt`. A missing or empty signature is
 * `missing`; anything but 64 hexadecimal characters `malformed` (nothing is computed); a well-formed one that is
 * not the HMAC `mismatch`.
 */
export async function checkHmacSha256(
  salt: string,
  data: Uint8Array<ArrayBuffer> | string,
  signature: string | null | undefined,
): Promise<SignatureCheck> {
  if (signature === null || signature === undefined || signature === '') return 'missing';
  if (!HEX_SIGNATURE.test(signature)) return 'malformed';
  const key = await crypto.subtle.importKey('raw', encoder.encode(salt), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'verify',
  ]);
  const bytes = typeof data === 'string' ? encoder.encode(data) : data;
  return (await crypto.subtle.verify('HMAC', key, hexToBytes(signature), bytes)) ? 'valid' : 'mismatch';
}

/** The bytes of a hex string already checked by {@link HEX_SIGNATURE}. */
function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i += 1) bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}
