/**
 * Credentials of one connected merchant as an {@link ApiAuth}: the API key it handed over, or its OAuth access
 * token, refreshed shortly before it expires. However many calls find the token stale at once, one refresh
 * goes upstream and they all wait for it. A 401, or a refused refresh, is revocation (spec 5.3.4): the
 * credentials are dropped and the platform is told.
 */
import { isPaykitError, PaykitError } from '@paykit/core';
import type { ApiAuth } from '../api/config.js';
import type { ConnectionStore, MerchantCredentials } from './connection-store.js';
import type { OAuthClient } from './oauth-client.js';

/** Refresh this long before expiry, so that no call goes out with a token about to lapse. */
const REFRESH_AHEAD_MS = 5 * 60_000;

/** What the credentials of one merchant need. */
export interface ConnectedMerchantAuthOptions {
  businessId: string;
  store: ConnectionStore;
  /** Needed for merchants connected by OAuth. */
  oauth: OAuthClient | undefined;
  /** Called once when the merchant's credentials stop working. */
  onRevoked(businessId: string): void | Promise<void>;
}

/** The {@link ApiAuth} of one connected merchant. */
export function connectedMerchantAuth(options: ConnectedMerchantAuthOptions): ApiAuth {
  const { businessId, store } = options;
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

  const refresh = (): Promise<MerchantCredentials> => {
    refreshing ??= (async () => {
      // Read again: a caller that saw the stale token before another refresh finished must not spend the
      // (possibly rotated, now invalid) old refresh token.
      const current = await store.get(businessId);
      if (!current) throw notConnected();
      if (current.kind === 'api_key' || isFresh(current)) return current;
      if (!options.oauth)
        throw new PaykitError('internal_error', 'An OAuth connection needs the platform oauth options');
      try {
        const fresh: MerchantCredentials = { kind: 'oauth', ...(await options.oauth.refresh(current.refreshToken)) };
        await store.set(businessId, fresh);
        return fresh;
      } catch (error) {
        if (isPaykitError(error, 'unauthorized')) await revoke();
        throw error;
      }
    })().finally(() => {
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
