/**
 * Credentials of one connected merchant as an {@link ApiAuth}: the API key it handed over, or its OAuth access
 * token, refreshed a fraction of its lifetime before it expires (the client's `refreshAhead`). However many
 * calls find the token stale at once, one refresh goes upstream and they all wait for it. A 401, or a refused
 * refresh, is revocation (spec 5.3.4): the credentials are dropped (an {@link EndedConnection} without any secret
 * takes their place, so that the platform can say "connect again") and the platform is told. So is the end of a
 * connection without a refresh token (RFC 6749 section 5.1 makes it optional): it lasts until the access
 * token expires, and is never refreshed.
 *
 * "One refresh" holds across instances when the store coordinates refreshes ({@link RefreshLeases}): the
 * instance holding a merchant's lease refreshes, the others wait for the tokens it stores.
 */
import { isPaykitError, PaykitError } from '@paykit/core';
import type { ApiAuth } from '../api/config.js';
import type { ConnectionStore } from './connection-store.js';
import type { EndedConnection, LiveCredentials } from './merchant-credentials.js';
import { rememberSecret } from '../secrets.js';
import type { OAuthClient } from './oauth-client.js';
import { DEFAULT_REFRESH_AHEAD, refreshDueAt } from './refresh-lead.js';
import type { RefreshLeases } from './refresh-leases.js';

/** A refresh lease outlives the token request it guards by this much (the store's writes, clock drift). */
const LEASE_MARGIN_MS = 5_000;

/** How long refreshed tokens that the store could not take are offered to it again, in the background. */
const UNSAVED_RETRY_MS = 10 * 60_000;

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

/** What a merchant's stored credentials allow now. */
type Standing = 'usable' | 'refresh' | 'ended';

/** The {@link ApiAuth} of one connected merchant. */
export function connectedMerchantAuth(options: ConnectedMerchantAuthOptions): ApiAuth {
  const { businessId, store, leases } = options;
  let refreshing: Promise<LiveCredentials> | undefined;
  let revoking: Promise<void> | undefined;
  /**
   * Refreshed tokens the store has not taken yet (it was away, or past its deadline). The authorization server
   * spent the old refresh token: these are the only tokens, so they are used from here and written again in the
   * background until the store takes them. Never refreshed again meanwhile (that would present a spent token).
   */
  let unsaved: LiveCredentials | undefined;

  const notConnected = () =>
    new PaykitError(
      'unauthorized',
      `The merchant ${businessId} is not connected (or was disconnected); connect it again`,
    );

  const ended = () =>
    new PaykitError(
      'unauthorized',
      `The connection of merchant ${businessId} ended: its access token expired and the authorization server ` +
        'gave no refresh token; connect it again',
    );

  /** Drops the credentials and tells the platform, once however many calls find them dead at the same time. */
  const revoke = (): Promise<void> => {
    unsaved = undefined;
    revoking ??= (async () => {
      const held = await store.get(businessId);
      if (held === undefined || held.kind === 'ended') return;
      const ended: EndedConnection = {
        kind: 'ended',
        endedAt: Date.now(),
        ...(held.connectedAt === undefined ? {} : { connectedAt: held.connectedAt }),
      };
      await store.set(businessId, ended);
      await options.onRevoked(businessId);
    })().finally(() => {
      revoking = undefined;
    });
    return revoking;
  };

  /**
   * Reads the stored credentials. After a restart this process has never seen them: they are remembered as
   * secrets here, before any of them goes into a request (or an error that quotes one).
   */
  const read = async (): Promise<LiveCredentials | undefined> => {
    if (unsaved) return unsaved;
    const kept = await store.get(businessId);
    // An ended connection reaches nobody: as if nothing were kept.
    const credentials = kept?.kind === 'ended' ? undefined : kept;
    if (credentials?.kind === 'api_key') rememberSecret(credentials.apiKey);
    if (credentials?.kind === 'oauth') {
      rememberSecret(credentials.accessToken);
      rememberSecret(credentials.refreshToken);
    }
    return credentials;
  };

  const standing = (credentials: LiveCredentials): Standing => {
    if (credentials.kind === 'api_key') return 'usable';
    const now = Date.now();
    // Nothing to refresh with: the access token is used to its last moment, then the connection is over.
    if (credentials.refreshToken === undefined) return credentials.expiresAt > now ? 'usable' : 'ended';
    const dueAt = options.oauth
      ? options.oauth.refreshDueAt(credentials)
      : refreshDueAt(credentials, DEFAULT_REFRESH_AHEAD);
    return dueAt > now ? 'usable' : 'refresh';
  };

  /** Credentials that cannot be refreshed: usable ones as they are; an ended connection is revoked. */
  const withoutRefresh = async (credentials: LiveCredentials): Promise<LiveCredentials> => {
    if (standing(credentials) !== 'ended') return credentials;
    await revoke();
    throw ended();
  };

  /** Refreshes while holding the lease: one token request, whichever instance got here first. */
  const refreshHolding = async (oauth: OAuthClient, lease: string, leaseMs: number): Promise<LiveCredentials> => {
    let finished = false;
    try {
      // Read again under the lease: a refresh that ended between the first read and the lease must not be
      // repeated with the refresh token it spent.
      const current = await read();
      if (!current) throw notConnected();
      if (current.kind === 'api_key' || current.refreshToken === undefined || standing(current) !== 'refresh') {
        return await withoutRefresh(current);
      }
      const tokens = await oauth.refresh(current.refreshToken, {
        // The wait for the token budget may have outlasted the lease: go on only while it is still ours.
        beforeSend: async () => {
          if (!(await leases.extendRefreshLease(businessId, lease, leaseMs))) {
            throw new PaykitError('timeout', 'The token refresh waited too long for the token endpoint; try again');
          }
        },
      });
      // RFC 6749 section 5.1: a response without `scope` granted the scope asked for, which is the current one.
      const scope = tokens.scope ?? current.scope;
      const fresh: LiveCredentials = {
        kind: 'oauth',
        ...tokens,
        ...(scope === undefined ? {} : { scope }),
        ...(current.connectedAt === undefined ? {} : { connectedAt: current.connectedAt }),
      };
      try {
        await leases.finishRefresh(businessId, lease, fresh);
      } catch (error) {
        if (!isPaykitError(error, 'store_unavailable')) throw error;
        // The lease stays ours (other instances keep waiting rather than refresh with the spent token) until
        // the write lands, which also ends it; or until it lapses, if the store stays away that long.
        unsaved = fresh;
        saveInBackground(fresh, () => leases.finishRefresh(businessId, lease, fresh));
      }
      finished = true;
      return fresh;
    } catch (error) {
      if (isPaykitError(error, 'unauthorized')) await revoke();
      throw error;
    } finally {
      if (!finished) await leases.releaseRefreshLease(businessId, lease).catch(() => undefined);
    }
  };

  /**
   * Offers `credentials` to the store again, backing off from 100 ms to 2 s, until it takes them, they are no
   * longer the unsaved ones (revoked), or {@link UNSAVED_RETRY_MS} passed. Unref'd: an exiting process does not
   * wait for it.
   */
  const saveInBackground = (credentials: LiveCredentials, write: () => Promise<void>): void => {
    const giveUpAt = Date.now() + UNSAVED_RETRY_MS;
    const attempt = (pause: number): void => {
      if (unsaved !== credentials) return;
      if (Date.now() + pause >= giveUpAt) {
        unsaved = undefined;
        return;
      }
      setTimeout(() => {
        if (unsaved !== credentials) return;
        write().then(
          () => {
            if (unsaved === credentials) unsaved = undefined;
          },
          () => attempt(Math.min(pause * 2, 2_000)),
        );
      }, pause).unref?.();
    };
    attempt(100);
  };

  /** Takes the lease, or waits for its holder (maybe another instance) to store fresh tokens. */
  const refreshOnce = async (): Promise<LiveCredentials> => {
    const oauth = options.oauth;
    if (!oauth) throw new PaykitError('internal_error', 'An OAuth connection needs the platform oauth options');
    const leaseMs = oauth.timeoutMs + LEASE_MARGIN_MS;
    // A holder that died leaves a lease that lapses within leaseMs; waiting twice that covers it.
    const deadline = Date.now() + 2 * leaseMs;
    for (let pause = 25; ; pause = Math.min(pause * 2, 500)) {
      const current = await read();
      if (!current) throw notConnected();
      if (standing(current) !== 'refresh') return withoutRefresh(current);
      const lease = await leases.takeRefreshLease(businessId, leaseMs);
      if (lease !== undefined) return refreshHolding(oauth, lease, leaseMs);
      if (Date.now() + pause > deadline) {
        throw new PaykitError('timeout', "Another instance is refreshing this merchant's token and has not finished");
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  };

  const refresh = (): Promise<LiveCredentials> => {
    refreshing ??= refreshOnce().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  return {
    async apply(headers) {
      let credentials = await read();
      if (!credentials) throw notConnected();
      if (credentials.kind === 'api_key') {
        headers.set('x-business-api-key', credentials.apiKey);
        return;
      }
      credentials = standing(credentials) === 'refresh' ? await refresh() : await withoutRefresh(credentials);
      if (credentials.kind === 'oauth') headers.set('authorization', `Bearer ${credentials.accessToken}`);
    },
    unauthorized: revoke,
  };
}
