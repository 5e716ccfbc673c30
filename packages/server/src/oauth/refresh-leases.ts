/**
 * One refresh per merchant across every instance. With rotating refresh tokens, two instances refreshing one
 * merchant at once present the same refresh token twice: the authorization server takes the second for a
 * replay, revokes the grant, and the merchant is disconnected. So a refresh is done under a lease: one holder
 * calls the token endpoint, the others wait and read the tokens it stores. A lease lapses by itself, so that a
 * holder that died (a killed process) does not wedge the merchant.
 */
import type { MerchantCredentials } from './merchant-credentials.js';

/**
 * Refresh leases on the connections of a {@link ConnectionStore}. A store shared by several instances
 * implements them over the same database (`createPostgresStores` does); without them, refreshes are
 * single-flight within one process only.
 */
export interface RefreshLeases {
  /**
   * Takes the refresh lease of a connected business for `ttlMs`. Resolves to a lease id, or `undefined`
   * when another holder's lease is live or the business is not connected. Atomic across instances.
   */
  takeRefreshLease(businessId: string, ttlMs: number): Promise<string | undefined>;
  /** Extends a lease still held to `ttlMs` from now. False when it lapsed or was taken over. */
  extendRefreshLease(businessId: string, leaseId: string, ttlMs: number): Promise<boolean>;
  /**
   * Stores the refreshed credentials and ends the lease. The new tokens are written even if the lease was
   * lost meanwhile: the authorization server already spent the old refresh token, so they are the only ones.
   */
  finishRefresh(businessId: string, leaseId: string, credentials: MerchantCredentials): Promise<void>;
  /** Ends a lease without new credentials (the refresh failed). */
  releaseRefreshLease(businessId: string, leaseId: string): Promise<void>;
}

/** True when `store` coordinates refreshes itself. */
export function hasRefreshLeases(store: object): store is RefreshLeases {
  return (
    'takeRefreshLease' in store &&
    'extendRefreshLease' in store &&
    'finishRefresh' in store &&
    'releaseRefreshLease' in store
  );
}

/** Leases in this process's memory, over any store's `set`: for stores used by one process. */
export class ProcessRefreshLeases implements RefreshLeases {
  readonly #leases = new Map<string, { id: string; until: number }>();
  #issued = 0;

  constructor(
    private readonly store: {
      get(businessId: string): Promise<MerchantCredentials | undefined>;
      set(businessId: string, credentials: MerchantCredentials): Promise<void>;
    },
  ) {}

  async takeRefreshLease(businessId: string, ttlMs: number): Promise<string | undefined> {
    const held = this.#leases.get(businessId);
    if (held && held.until > Date.now()) return undefined;
    const kept = await this.store.get(businessId);
    if (kept === undefined || kept.kind === 'ended') return undefined;
    // Checked again after the read: another caller may have taken it while this one awaited.
    const again = this.#leases.get(businessId);
    if (again && again.until > Date.now()) return undefined;
    this.#issued += 1;
    const id = String(this.#issued);
    this.#leases.set(businessId, { id, until: Date.now() + ttlMs });
    return id;
  }

  async extendRefreshLease(businessId: string, leaseId: string, ttlMs: number): Promise<boolean> {
    const held = this.#leases.get(businessId);
    if (held?.id !== leaseId || held.until <= Date.now()) return false;
    held.until = Date.now() + ttlMs;
    return true;
  }

  async finishRefresh(businessId: string, leaseId: string, credentials: MerchantCredentials): Promise<void> {
    await this.store.set(businessId, credentials);
    await this.releaseRefreshLease(businessId, leaseId);
  }

  async releaseRefreshLease(businessId: string, leaseId: string): Promise<void> {
    if (this.#leases.get(businessId)?.id === leaseId) this.#leases.delete(businessId);
  }
}
