/**
 * Where a platform keeps how it reaches each connected merchant: an API key the merchant handed over, or the
 * OAuth tokens of its approval. Both are secrets; implementations must keep them encrypted at rest.
 */
import type { MerchantCredentials } from './merchant-credentials.js';
import { ProcessRefreshLeases, type RefreshLeases } from './refresh-leases.js';

export type {
  ConnectionFacts,
  EndedConnection,
  LiveCredentials,
  MerchantCredentials,
  OAuthTokens,
} from './merchant-credentials.js';

/** A store of merchant credentials, keyed by the merchant's business id. */
export interface ConnectionStore {
  get(businessId: string): Promise<MerchantCredentials | undefined>;
  /** Replaces the credentials of a business; must be atomic (never half-written). */
  set(businessId: string, credentials: MerchantCredentials): Promise<void>;
  delete(businessId: string): Promise<void>;
}

/**
 * A {@link ConnectionStore} in this process's memory: for tests and single-process demos. Every platform of
 * the process that shares it refreshes each merchant once ({@link RefreshLeases} in memory).
 */
export class MemoryConnectionStore implements ConnectionStore, RefreshLeases {
  readonly #entries = new Map<string, MerchantCredentials>();
  readonly #leases = new ProcessRefreshLeases(this);

  takeRefreshLease(businessId: string, ttlMs: number): Promise<string | undefined> {
    return this.#leases.takeRefreshLease(businessId, ttlMs);
  }

  extendRefreshLease(businessId: string, leaseId: string, ttlMs: number): Promise<boolean> {
    return this.#leases.extendRefreshLease(businessId, leaseId, ttlMs);
  }

  finishRefresh(businessId: string, leaseId: string, credentials: MerchantCredentials): Promise<void> {
    return this.#leases.finishRefresh(businessId, leaseId, credentials);
  }

  releaseRefreshLease(businessId: string, leaseId: string): Promise<void> {
    return this.#leases.releaseRefreshLease(businessId, leaseId);
  }

  async get(businessId: string): Promise<MerchantCredentials | undefined> {
    const found = this.#entries.get(businessId);
    return found && { ...found };
  }

  async set(businessId: string, credentials: MerchantCredentials): Promise<void> {
    this.#entries.set(businessId, { ...credentials });
  }

  async delete(businessId: string): Promise<void> {
    this.#entries.delete(businessId);
  }
}
