/**
 * Merchant credentials sealed at rest: AES-256-GCM with a fresh 96-bit IV per write, the business id as
 * associated data (an entry copied to another business fails to open), and the id of the key that sealed it,
 * so that keys can be rotated: the first key seals, every key given opens. Used by {@link FileConnectionStore}
 * and the PostgreSQL store.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { PaykitError } from '@paykit/core';
import type { MerchantCredentials } from './connection-store.js';

/** A 256-bit key: 32 bytes, or 64 hex characters, or the base64 of 32 bytes. */
export type CredentialKey = Uint8Array | string;

/** One sealed entry. */
export interface SealedCredentials {
  /** {@link keyId} of the key that sealed it. Entries written before key ids existed have none. */
  keyId?: string | undefined;
  iv: Uint8Array;
  tag: Uint8Array;
  ciphertext: Uint8Array;
}

interface Key {
  id: string;
  bytes: Buffer;
}

/** Seals with the first key; opens with any. */
export class CredentialSealer {
  readonly #keys: readonly Key[];

  /**
   * @param keys One key, or several: the first seals, all open (rotation: put the new key first).
   * @param name How the option is called, for error messages (`"encryptionKey"`).
   */
  constructor(keys: CredentialKey | readonly CredentialKey[], name = '"key"') {
    const list = isKeyList(keys) ? keys : [keys];
    if (list.length === 0) throw new PaykitError('validation_failed', `${name} must name at least one key`);
    this.#keys = list.map((key, index) => {
      const bytes = readKey(key, list.length === 1 ? name : `${name}[${index}]`);
      return { id: keyId(bytes), bytes };
    });
  }

  /** The id of the key that seals: a short fingerprint (the first 8 bytes of its SHA-256, hex). */
  get keyId(): string {
    return this.#keys[0]!.id;
  }

  /** Encrypts the credentials of `businessId` with the first key. */
  seal(
    businessId: string,
    credentials: MerchantCredentials,
  ): { keyId: string; iv: Buffer; tag: Buffer; ciphertext: Buffer } {
    const key = this.#keys[0]!;
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key.bytes, iv);
    cipher.setAAD(Buffer.from(businessId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
    return { keyId: key.id, iv, tag: cipher.getAuthTag(), ciphertext };
  }

  /**
   * Decrypts an entry of `businessId`: with the key its id names, else with each key in turn. Throws
   * `internal_error` when none opens it (a wrong key, an altered entry, an entry of another business); the
   * message names neither the key nor anything of the entry.
   */
  open(businessId: string, sealed: SealedCredentials): MerchantCredentials {
    const named = this.#keys.filter((key) => key.id === sealed.keyId);
    const candidates = named.length > 0 ? named : this.#keys;
    let failure: unknown;
    for (const key of candidates) {
      try {
        const decipher = createDecipheriv('aes-256-gcm', key.bytes, sealed.iv);
        decipher.setAAD(Buffer.from(businessId, 'utf8'));
        decipher.setAuthTag(sealed.tag);
        const text = Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]).toString('utf8');
        // Authenticated by AES-GCM under this business's id: the JSON this sealer itself wrote.
        return JSON.parse(text) as MerchantCredentials;
      } catch (error) {
        failure = error;
      }
    }
    throw new PaykitError(
      'internal_error',
      'A stored connection could not be decrypted with any of the given keys: a wrong key, or the stored entry was altered',
      { cause: failure },
    );
  }

  /** True when the entry was sealed with the first key (nothing to re-encrypt). */
  isCurrent(sealed: Pick<SealedCredentials, 'keyId'>): boolean {
    return sealed.keyId === this.keyId;
  }
}

/** The short fingerprint of a key: the first 8 bytes of its SHA-256, hex. Reveals nothing usable of the key. */
function keyId(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest().subarray(0, 8).toString('hex');
}

function isKeyList(keys: CredentialKey | readonly CredentialKey[]): keys is readonly CredentialKey[] {
  return Array.isArray(keys);
}

const HEX_KEY = /^[0-9a-f]{64}$/i;
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/;

function readKey(key: CredentialKey, name: string): Buffer {
  let bytes: Buffer | undefined;
  if (key instanceof Uint8Array) bytes = Buffer.from(key);
  else if (typeof key === 'string' && HEX_KEY.test(key)) bytes = Buffer.from(key, 'hex');
  else if (typeof key === 'string' && BASE64_KEY.test(key)) bytes = Buffer.from(key, 'base64');
  if (bytes?.length !== 32) {
    throw new PaykitError('validation_failed', `${name} must be 32 bytes (64 hex characters or base64 of 32 bytes)`);
  }
  return bytes;
}
