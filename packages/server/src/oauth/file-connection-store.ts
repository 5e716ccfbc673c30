/**
 * A {@link ConnectionStore} in one file, every entry encrypted with AES-256-GCM under a key the platform
 * supplies. It survives restarts; a write replaces the file atomically (write aside, then rename), so a crash
 * never leaves it half-written. For one process: several processes need a database-backed store.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { PaykitError } from '@paykit/core';
import type { ConnectionStore, MerchantCredentials } from './connection-store.js';

interface SealedEntry {
  iv: string;
  tag: string;
  data: string;
}

/** Options of {@link FileConnectionStore}. */
export interface FileConnectionStoreOptions {
  /** The file. Created on the first write. */
  path: string;
  /** 32 bytes: a `Buffer`, or 64 hex characters, or base64. Keep it out of the repository and out of logs. */
  key: Uint8Array | string;
}

/** An encrypted, durable {@link ConnectionStore}. */
export class FileConnectionStore implements ConnectionStore {
  readonly #path: string;
  readonly #key: Buffer;
  #entries: Promise<Map<string, SealedEntry>> | undefined;
  #writes: Promise<void> = Promise.resolve();

  constructor(options: FileConnectionStoreOptions) {
    this.#path = options.path;
    this.#key = readKey(options.key);
  }

  async get(businessId: string): Promise<MerchantCredentials | undefined> {
    const sealed = (await this.#load()).get(businessId);
    return sealed && this.#open(businessId, sealed);
  }

  set(businessId: string, credentials: MerchantCredentials): Promise<void> {
    return this.#update((entries) => entries.set(businessId, this.#seal(businessId, credentials)));
  }

  delete(businessId: string): Promise<void> {
    return this.#update((entries) => entries.delete(businessId));
  }

  #update(change: (entries: Map<string, SealedEntry>) => void): Promise<void> {
    const write = this.#writes.then(async () => {
      const next = new Map(await this.#load());
      change(next);
      const temporary = `${this.#path}.${process.pid}.tmp`;
      await writeFile(temporary, JSON.stringify(Object.fromEntries(next)), { mode: 0o600 });
      await rename(temporary, this.#path);
      this.#entries = Promise.resolve(next);
    });
    this.#writes = write.catch(() => undefined);
    return write;
  }

  #load(): Promise<Map<string, SealedEntry>> {
    this.#entries ??= readFile(this.#path, 'utf8').then(
      (text) => new Map(Object.entries(JSON.parse(text) as Record<string, SealedEntry>)),
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return new Map<string, SealedEntry>();
        throw error;
      },
    );
    return this.#entries;
  }

  #seal(businessId: string, credentials: MerchantCredentials): SealedEntry {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    // The business id is authenticated data: an entry moved to another business fails to open.
    cipher.setAAD(Buffer.from(businessId));
    const data = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
    return { iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), data: data.toString('base64') };
  }

  #open(businessId: string, sealed: SealedEntry): MerchantCredentials {
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(sealed.iv, 'base64'));
      decipher.setAAD(Buffer.from(businessId));
      decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
      const text = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]).toString(
        'utf8',
      );
      return JSON.parse(text) as MerchantCredentials;
    } catch (error) {
      throw new PaykitError(
        'internal_error',
        'A stored connection could not be decrypted: wrong key, or the file was altered',
        {
          cause: error,
        },
      );
    }
  }
}

function readKey(key: Uint8Array | string): Buffer {
  const bytes =
    typeof key !== 'string'
      ? Buffer.from(key)
      : /^[0-9a-f]{64}$/i.test(key)
        ? Buffer.from(key, 'hex')
        : Buffer.from(key, 'base64');
  if (bytes.length !== 32) {
    throw new PaykitError('validation_failed', '"key" must be 32 bytes (64 hex characters or base64 of 32 bytes)');
  }
  return bytes;
}
