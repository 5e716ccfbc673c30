/**
 * The authorization codes this platform already exchanged or tried. RFC 6749 section 4.1.2 tells an
 * authorization server that sees a code twice to revoke every token the code issued: an old code posted to the
 * callback again (from an access log, a browser history) and forwarded to the token endpoint would disconnect
 * the merchant. The ledger stops it before the request leaves: a code is sent to the token endpoint once, ever.
 *
 * Only a hash of the client id and the code is kept (see {@link codeHash}), so the ledger never holds a code
 * that could be exchanged. With several instances the ledger must be shared, or a replay to another instance
 * still reaches the authorization server: `stores.codes` of `createPostgresStores` (`@paykit/server/postgres`).
 */
import { PaykitError } from '@paykit/core';

/**
 * How long a code is remembered: one hour. A replay must be refused for as long as the authorization server
 * would still recognise the code, because that is when a replay costs the merchant its tokens. RFC 6749
 * section 4.1.2 recommends 10 minutes at most, and common servers issue codes for 1 to 10 (the sandbox for 1);
 * six times the recommendation covers servers that stretch it and clocks that disagree, and costs one small row
 * per connection attempt for an hour. Past their life, codes are refused by the server as expired.
 */
export const CODE_LEDGER_TTL_MS = 60 * 60_000;

/**
 * Codes already exchanged or tried. Implementations must be atomic: of two concurrent claims of one hash
 * (from any instances), one gets `true`.
 */
export interface CodeLedger {
  /**
   * Records `codeHash` for `ttlMs`. True the first time (the code may be sent to the token endpoint); false when
   * it is already recorded and not yet expired (it must not be sent again, whatever came of the first try).
   */
  claimCode(codeHash: string, ttlMs: number): Promise<boolean>;
}

/**
 * The ledger's key of a code: SHA-256 (base64url) of the client id and the code. The client id makes the key
 * one app's, so two platforms sharing a database never refuse each other's codes; the hash makes a leaked
 * ledger useless, since a hash cannot be exchanged.
 */
export async function codeHash(clientId: string, code: string): Promise<string> {
  // Web Crypto, not node:crypto: the platform's callback runs on every runtime of the Fetch-API entry.
  // The NUL separator: no (client id, code) pair can collide with another by moving characters across.
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${clientId}\u0000${code}`));
  return base64url(new Uint8Array(digest));
}

/** Base64url without padding (RFC 4648 section 5), as node:crypto's `digest('base64url')` wrote it. */
function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Options of {@link MemoryCodeLedger}. */
export interface MemoryCodeLedgerOptions {
  /**
   * The most codes remembered at once. Default 100,000 (about 15 MB). When that many live codes are recorded,
   * new claims fail with `rate_limited` until the oldest expire, rather than forget a code that may be replayed.
   */
  maxEntries?: number;
}

/** A {@link CodeLedger} in this process's memory: one instance only, forgotten on restart. */
export class MemoryCodeLedger implements CodeLedger {
  readonly #maxEntries: number;
  /** Hash to expiry time, in the order of recording (with one ttl, also the order of expiry). */
  readonly #entries = new Map<string, number>();

  constructor(options: MemoryCodeLedgerOptions = {}) {
    this.#maxEntries = options.maxEntries ?? 100_000;
    if (!(Number.isInteger(this.#maxEntries) && this.#maxEntries > 0)) {
      throw new PaykitError('validation_failed', '"maxEntries" must be a positive whole number', {
        errors: [{ path: 'maxEntries', message: 'must be a positive whole number' }],
      });
    }
  }

  async claimCode(codeHash: string, ttlMs: number): Promise<boolean> {
    const now = Date.now();
    this.#sweep(now);
    const expiresAt = this.#entries.get(codeHash);
    if (expiresAt !== undefined && expiresAt > now) return false;
    if (this.#entries.size >= this.#maxEntries) {
      // Full of live codes (a flood of made-up ones): refusing new attempts for a while is safe, forgetting a
      // code that may be replayed is not.
      const oldest = this.#entries.values().next().value ?? now;
      throw new PaykitError('rate_limited', 'Too many connection attempts right now. Please try again later.', {
        retryAfterSeconds: Math.max(1, Math.ceil((oldest - now) / 1000)),
      });
    }
    this.#entries.delete(codeHash);
    this.#entries.set(codeHash, now + ttlMs);
    return true;
  }

  /** Forgets expired codes from the oldest on; stops at the first live one (the rest are younger). */
  #sweep(now: number): void {
    for (const [hash, expiresAt] of this.#entries) {
      if (expiresAt > now) return;
      this.#entries.delete(hash);
    }
  }
}
