/**
 * A {@link ConnectionStore} in one file, every entry encrypted with AES-256-GCM under a key the platform
 * supplies (see {@link CredentialSealer}). It survives restarts; a write replaces the file atomically (write
 * aside, then rename), so a crash never leaves it half-written. For one process: several processes need a
 * database-backed store.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import type { ConnectionStore, MerchantCredentials } from './connection-store.js';
import { CredentialSealer, type CredentialKey } from './credential-sealer.js';

/** One entry of the file, base64. `key` is the sealing key's id (absent in files written before it existed). */
interface SealedEntry {
  key?: string;
  iv: string;
  tag: string;
  data: string;
}

/** Options of {@link FileConnectionStore}. */
export interface FileConnectionStoreOptions {
  /** The file. Created on the first write. */
  path: string;
  /**
   * 32 bytes: a `Buffer`, or 64 hex characters, or base64. Keep it out of the repository and out of logs.
   * Several keys rotate: the first encrypts every write, all of them decrypt.
   */
  key: CredentialKey | readonly CredentialKey[];
}

/** An encrypted, durable {@link ConnectionStore}. */
export class FileConnectionStore implements ConnectionStore {
  readonly #path: string;
  readonly #sealer: CredentialSealer;
  #entries: Promise<Map<string, SealedEntry>> | undefined;
  #writes: Promise<void> = Promise.resolve();

  constructor(options: FileConnectionStoreOptions) {
    this.#path = options.path;
    this.#sealer = new CredentialSealer(options.key, '"key"');
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
      // This store's own file (mode 0600); each entry is authenticated again when it is opened.
      (text) => new Map(Object.entries(JSON.parse(text) as Record<string, SealedEntry>)),
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return new Map<string, SealedEntry>();
        throw error;
      },
    );
    return this.#entries;
  }

  #seal(businessId: string, credentials: MerchantCredentials): SealedEntry {
    const sealed = this.#sealer.seal(businessId, credentials);
    return {
      key: sealed.keyId,
      iv: sealed.iv.toString('base64'),
      tag: sealed.tag.toString('base64'),
      data: sealed.ciphertext.toString('base64'),
    };
  }

  #open(businessId: string, sealed: SealedEntry): MerchantCredentials {
    return this.#sealer.open(businessId, {
      keyId: sealed.key,
      iv: Buffer.from(sealed.iv, 'base64'),
      tag: Buffer.from(sealed.tag, 'base64'),
      ciphertext: Buffer.from(sealed.data, 'base64'),
    });
  }
}
