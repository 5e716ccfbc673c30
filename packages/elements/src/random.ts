/**
 * Random identifiers for the browser, from `crypto.getRandomValues`: every supported browser has it, in every
 * context. `crypto.randomUUID` does not do: it came with Safari 15.4, and exists only in secure contexts (a staging
 * shop served over plain http on a LAN address has none).
 */

/**
 * A random UUID, version 4 (RFC 9562, section 5.4): 122 random bits from `crypto.getRandomValues`. Each `0` and
 * `1` of the template becomes a random hex digit, the `4` stays (the version), and the `8` becomes 8 to b (the
 * variant's two bits, `10`): a few bytes in the bundle every shopper downloads.
 *
 * @example randomUuid() // 'f47ac10b-58cc-4372-a567-0e02b2c3d479'
 * @see https://www.rfc-editor.org/rfc/rfc9562#section-5.4
 */
export function randomUuid(): string {
  return '10000000-1000-4000-8000-100000000000'.replace(/[018]/g, (digit) =>
    // 0 and 1 keep all four random bits (15 >> 0); 8 keeps two (15 >> 2) over its own bit.
    (+digit ^ (crypto.getRandomValues(new Uint8Array(1))[0]! & (15 >> (+digit / 4)))).toString(16),
  );
}
