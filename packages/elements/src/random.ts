/**
 * Random identifiers for the browser, from `crypto.getRandomValues`: every supported browser has it, in every
 * context. `crypto.randomUUID` does not do: it came with Safari 15.4, and exists only in secure contexts (a staging
 * shop served over plain http on a LAN address has none).
 */

/**
 * A random UUID, version 4 (RFC 9562, section 5.4): 122 random bits from `crypto.getRandomValues`.
 *
 * @example randomUuid() // 'f47ac10b-58cc-4372-a567-0e02b2c3d479'
 * @see https://www.rfc-editor.org/rfc/rfc9562#section-5.4
 */
export function randomUuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 15) | 64; // version 4
  bytes[8] = (bytes[8]! & 63) | 128; // variant 10
  return [...bytes]
    .map((byte) => (byte + 256).toString(16).slice(1))
    .join('')
    .replace(/(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-');
}
