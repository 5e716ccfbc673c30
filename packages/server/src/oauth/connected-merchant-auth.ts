/**
 * Credentials of one connected merchant as an {@link ApiAuth}: the API key it handed over, or its OAuth access
 * token, refreshed shortly before it expires. However many calls find the token stale at once, one refresh
 * goes upstream and they all wait for it. A 401, or a refused refresh, is revocation (spec 5.3.4): the
 * credentials are dropped and the platform is told.
 *
 * "One refresh" holds across instances when the store coordinates refreshes ({@link RefreshLeases}): the
 * instance holding a merchant's lease refreshes, the others wait for the tokens it stores.
 */
import { isPaykitError, PaykitError } from '@paykit/core';
import type { ApiAuth } from '../api/config.js';
import type { ConnectionStore, MerchantCredentials } from './connection-store.js';
import type { OAuthClient } from './oauth-client.js';
import type { RefreshLeases } from './refresh-leases.js';

/** Refresh this long before expiry, so that no call goes out with a token about to lapse. */
const REFRESH_AHEAD_MS = 5 * 60_000;

/** A refresh lease outlives the token request it guards by this much (the store's writes, clock drift). */
const LEASE_MARGIN_MS = 5_000;

/** What the credentials of one merchant need. */
export interface ConnectedMerchantAuthOptions {
  businessId: string;
  store: ConnectionStore;
  /** Coordinates refreshes with other instances (the store itself when it can, else this process only). */
  leases: RefreshLeases;
  /** Needed for merchants connected by OAuth. */
  oauth: OAuthClient | undefined;
  /** Called once when the merchant's credentials stop working. */
  onRevoked(businessId: string): void | Promise<void>;
}

/** The {@link ApiAuth} of one connected merchant. */
export function connectedMerchantAuth(options: ConnectedMerchantAuthOptions): ApiAuth {
  const { businessId, store, leases } = options;
  let refreshing: Promise<MerchantCredentials> | undefined;

  const notConnected = () =>
    new PaykitError(
      'unauthorized',
      `The merchant ${businessId} is not connected (or was disconnected); connect it again`,
      {
        status: 401,
      },
    );

  const revoke = async () => {
    if ((await store.get(businessId)) === undefined) return;
    await store.delete(businessId);
    await options.onRevoked(businessId);
  };

  const isFresh = (credentials: MerchantCredentials) =>
    credentials.kind === 'api_key' || credentials.expiresAt - REFRESH_AHEAD_MS > Date.now();

  /** Refreshes while holding the lease: one token request, whichever instance got here first. */
  const refreshHolding = async (oauth: OAuthClient, lease: string, leaseMs: number): Promise<MerchantCredentials> => {
    let finished = false;
    try {
      // Read again under the lease: a refresh that ended between the first read and the lease must not be
      // repeated with the refresh token it spent.
      const current = await store.get(businessId);
      if (!current) throw notConnected();
      if (isFresh(current) || current.kind === 'api_key') return current;
      const tokens = await oauth.refresh(current.refreshToken, {
        // The wait for the token budget may have outlasted the lease: go on only while it is still ours.
        beforeSend: async () => {
          if (!(await leases.extendRefreshLease(businessId, lease, leaseMs))) {
            throw new PaykitError('timeout', 'The token refresh waited too long for the token endpoint; try again');
          }
        },
      });
      const fresh: MerchantCredentials = { kind: 'oauth', ...tokens };
      await leases.finishRefresh(businessId, lease, fresh);
      finished = true;
      return fresh;
    } catch (error) {
      if (isPaykitError(error, 'unauthorized')) await revoke();
      throw error;
    } finally {
      if (!finished) await leases.releaseRefreshLease(businessId, lease).catch(() => undefined);
    }
  };

  /** Takes the lease, or waits for its holder (maybe another instance) to store fresh tokens. */
  const refreshOnce = async (): Promise<MerchantCredentials> => {
    const oauth = options.oauth;
    if (!oauth) throw new PaykitError('internal_error', 'An OAuth connection needs the platform oauth options');
    const leaseMs = oauth.timeoutMs + LEASE_MARGIN_MS;
    // A holder that died leaves a lease that lapses within leaseMs; waiting twice that covers it.
    const deadline = Date.now() + 2 * leaseMs;
    for (let pause = 25; ; pause = Math.min(pause * 2, 500)) {
      const current = await store.get(businessId);
      if (!current) throw notConnected();
      if (isFresh(current)) return current;
      const lease = await leases.takeRefreshLease(businessId, leaseMs);
      if (lease !== undefined) return refreshHolding(oauth, lease, leaseMs);
      if (Date.now() + pause > deadline) {
        throw new PaykitError('timeout', "Another instance is refreshing this merchant's token and has not finished");
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };

  const refresh = (): Promise<MerchantCredentials> => {
    refreshing ??= refreshOnce().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  return {
    async apply(headers) {
      let credentials = await store.get(businessId);
      if (!credentials) throw notConnected();
      if (credentials.kind === 'api_key') {
        headers.set('x-business-api-key', credentials.apiKey);
        return;
      }
      if (!isFresh(credentials)) credentials = await refresh();
      if (credentials.kind === 'oauth') headers.set('authorization', `Bearer ${credentials.accessToken}`);
    },
    unauthorized: revoke,
  };
}
