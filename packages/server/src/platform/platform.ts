/**
 * A platform acting for many merchants (spec 1, 5): each merchant is connected by OAuth (the merchant approves
 * the platform's app) or by handing over its API key, and is then used through the same {@link MerchantApi},
 * with the platform key on every call so that commissions and unified charge webhooks apply.
 */
import { PaykitError, parseOrThrow, resourceId, type BusinessInfo, type MerchantConnectionState } from '@paykit/core';
import { apiKeyAuth, type ApiConfig } from '../api/config.js';
import { createMerchantApi, type MerchantApi } from '../api/merchant-api.js';
import { CODE_LEDGER_TTL_MS, codeHash, MemoryCodeLedger, type CodeLedger } from '../oauth/code-ledger.js';
import { connectedMerchantAuth } from '../oauth/connected-merchant-auth.js';
import { MemoryConnectionStore, type ConnectionStore, type LiveCredentials } from '../oauth/connection-store.js';
import { createOAuthClient, type OAuthClient } from '../oauth/oauth-client.js';
import type { OAuthClientOptions } from '../oauth/oauth-client-options.js';
import { hasRefreshLeases, ProcessRefreshLeases } from '../oauth/refresh-leases.js';
import { MemoryTokenBudget, type TokenBudget } from '../oauth/token-budget.js';
import { refuseMemoryStateOnWorkers, type MemoryState } from '../runtime.js';
import { rememberSecret } from '../secrets.js';

/** The platform's OAuth app: {@link OAuthClientOptions} without what the platform supplies itself. */
export interface PlatformOAuthOptions extends Omit<OAuthClientOptions, 'apiBaseUrl' | 'tokenBudget' | 'fetch'> {
  /**
   * The redirect URIs registered on the app (exactly as on the dashboard: the pages with `<paykit-return>`); a
   * callback naming another is refused with `validation_failed` before any exchange.
   */
  redirectUris?: readonly string[];
}

/** Options of {@link createPlatform}. */
export interface PlatformOptions extends Omit<ApiConfig, 'apiKey' | 'auth'> {
  /**
   * The platform's OAuth app, for merchants connected with "Connect with Payments": the token client's
   * options ({@link OAuthClientOptions}, whose defaults are the spec's paths under `apiBaseUrl`) and the
   * redirect URIs registered on the app.
   */
  oauth?: PlatformOAuthOptions;
  /**
   * Where merchant credentials are kept. Default in memory (one process). `FileConnectionStore` (`@paykit/server/files`) survives
   * restarts of one process; with several instances use `stores.connections` of `createPostgresStores`
   * (`@paykit/server/postgres`), which also makes one refresh per merchant across all of them.
   */
  store?: ConnectionStore;
  /**
   * The token endpoint's request budget. Default: this process's own (`oauth.maxRequestsPerMinute`); with
   * several instances use `stores.tokenBudget` of `createPostgresStores`, or N instances send N times the limit.
   */
  tokenBudget?: TokenBudget;
  /**
   * The authorization codes this platform already exchanged or tried, so that a code posted again is refused
   * before it reaches the authorization server (which would revoke the merchant's tokens, RFC 6749 section
   * 4.1.2). Default in this process's memory; with several instances use `stores.codes` of
   * `createPostgresStores`, or a replay to another instance still reaches the authorization server.
   */
  codeLedger?: CodeLedger;
  /**
   * Told once when a merchant's credentials stop working, after they were dropped from `store`: the API answered
   * 401 (a revoked app, a regenerated secret; the service sends no notice of its own), or an access token that
   * came without a refresh token expired. Later calls for the merchant fail with `unauthorized`: prompt it to
   * connect again.
   */
  onRevoked?(businessId: string): void | Promise<void>;
}

/** What the return page sends back from the authorization server, for {@link Platform.connectWithCode}. */
export interface CodeCallback {
  code: string;
  /** The PKCE verifier the browser kept for this attempt. */
  codeVerifier?: string;
  redirectUri: string;
  /** The authorization response's `iss` (RFC 9207), when the authorization server sent one. */
  iss?: string;
}

/** A merchant that was just connected. */
export interface ConnectedBusiness {
  /** The business id to pass to {@link Platform.merchant}. */
  businessId: string;
  business: BusinessInfo;
}

/** How a platform's connection to one merchant stands, from what it keeps (see {@link Platform.connection}). */
export interface MerchantConnection {
  /**
   * `connected`: credentials are kept (whether the service still takes them shows at the next call);
   * `connect_again`: the service stopped taking them (a 401, a refused refresh, an access token that ended without
   * a refresh token), so the merchant must authorize again; `not_connected`: nothing is kept, or the platform
   * disconnected it.
   */
  state: MerchantConnectionState;
  /** When the merchant connected, in milliseconds since the epoch, when known (not for `not_connected`). */
  connectedAt?: number;
}

/** The merchants of a platform. */
export interface Platform {
  /**
   * Exchanges an authorization code for tokens, reads the business profile, and keeps the connection. Refused
   * before anything is sent: a redirect URI that is not the app's (`validation_failed`), a missing verifier and
   * an `iss` that is not the issuer (by the token client), and a code this platform already exchanged or tried
   * (`code_reused`, whatever came of the first try: a replay never reaches the authorization server).
   */
  connectWithCode(input: CodeCallback): Promise<ConnectedBusiness>;
  /** Checks a merchant's API key against the API, and keeps it. */
  connectWithApiKey(apiKey: string): Promise<ConnectedBusiness>;
  /** The API of a connected merchant. Calls fail with `unauthorized` once it is disconnected or revoked. */
  merchant(businessId: string): MerchantApi;
  /** Forgets a merchant's credentials. */
  disconnect(businessId: string): Promise<void>;
  /** True when credentials of this merchant are kept (not once the service stopped taking them). */
  isConnected(businessId: string): Promise<boolean>;
  /**
   * How the connection to this merchant stands, from the store alone (no API call): connected, to connect again
   * (the service stopped taking its credentials), or not connected (never, or disconnected).
   */
  connection(businessId: string): Promise<MerchantConnection>;
  /**
   * What this platform keeps in this process's memory only (empty when every piece is shared): the handler
   * warns of it in production.
   */
  readonly processLocalState: readonly string[];
  /**
   * The app's registered redirect URIs (`oauth.redirectUris`), empty when none were given: the handler checks at
   * start that each is on an origin it serves.
   */
  readonly redirectUris?: readonly string[];
}

/**
 * Creates a platform.
 *
 * @example
 * ```ts
 * const platform = createPlatform({
 *   apiBaseUrl: 'http://127.0.0.1:4010', platformKey: process.env.PLATFORM_KEY,
 *   oauth: { clientId: process.env.CLIENT_ID, clientSecret: process.env.CLIENT_SECRET },
 *   store: new FileConnectionStore({ path: 'connections.json', key: process.env.CONNECTIONS_KEY }),
 * });
 * await platform.merchant(businessId).createPaymentRequest({ amount: 20, currency: 'SGD', platform_commission_amount: 1 });
 * ```
 */
export function createPlatform(options: PlatformOptions): Platform {
  const {
    oauth: oauthOptions,
    store = new MemoryConnectionStore(),
    tokenBudget,
    codeLedger = new MemoryCodeLedger(),
    onRevoked,
    ...apiOptions
  } = options;
  rememberSecret(options.platformKey);
  const oauth: OAuthClient | undefined =
    oauthOptions && createOAuthClient({ ...apiOptions, ...oauthOptions, ...(tokenBudget ? { tokenBudget } : {}) });
  const leases = hasRefreshLeases(store) ? store : new ProcessRefreshLeases(store);
  const memoryState: MemoryState[] = [
    ...(options.store === undefined || store instanceof MemoryConnectionStore
      ? [{ option: 'store', lost: 'merchant connections (lost on restart, not seen by other instances)' }]
      : []),
    ...(hasRefreshLeases(store)
      ? []
      : [{ option: 'store', lost: 'token refresh coordination (instances may refresh one merchant at once)' }]),
    ...(oauthOptions && (!tokenBudget || tokenBudget instanceof MemoryTokenBudget)
      ? [{ option: 'tokenBudget', lost: 'the token-endpoint budget (each instance counts its own)' }]
      : []),
    ...(oauthOptions && (options.codeLedger === undefined || codeLedger instanceof MemoryCodeLedger)
      ? [
          {
            option: 'codeLedger',
            lost: 'authorization codes already tried (a replay to another instance reaches the authorization server)',
          },
        ]
      : []),
  ];
  refuseMemoryStateOnWorkers('createPlatform', memoryState);
  const processLocalState = memoryState.map((state) => state.lost);
  const merchants = new Map<string, MerchantApi>();

  /** Reads the profile with fresh credentials and keeps them only if that worked: nothing half-connected. */
  async function connect(credentials: LiveCredentials): Promise<ConnectedBusiness> {
    const probe = createMerchantApi({
      ...apiOptions,
      auth:
        credentials.kind === 'api_key'
          ? apiKeyAuth(credentials.apiKey)
          : { apply: (headers) => headers.set('authorization', `Bearer ${credentials.accessToken}`) },
    });
    const business = await probe.getBusinessInfo();
    if (!business.id) {
      throw new PaykitError('upstream_invalid_response', 'GET /v1/info answered without the business id');
    }
    await store.set(business.id, { ...credentials, connectedAt: Date.now() });
    return { businessId: business.id, business };
  }

  return {
    async connectWithCode({ code, codeVerifier, redirectUri, iss }) {
      if (!oauth || !oauthOptions) {
        throw new PaykitError('internal_error', 'Connecting by OAuth needs the platform `oauth` options');
      }
      if (oauthOptions.redirectUris && !oauthOptions.redirectUris.includes(redirectUri)) {
        throw new PaykitError('validation_failed', 'The redirect URI is not one of the app', {
          errors: [{ path: 'redirect_uri', message: 'is not a registered redirect URI' }],
        });
      }
      const hash = await codeHash(oauthOptions.clientId, code);
      const tokens = await oauth.exchangeCode(
        { code, redirectUri, ...(codeVerifier ? { codeVerifier } : {}), ...(iss === undefined ? {} : { iss }) },
        {
          // After the client's own checks (verifier, iss), so that a refused callback does not burn the code;
          // before the request leaves, so that a replay never reaches the authorization server. A code is
          // recorded before its one try, and a failed try keeps it recorded: tried is spent.
          beforeRequest: async () => {
            if (!(await codeLedger.claimCode(hash, CODE_LEDGER_TTL_MS))) {
              throw new PaykitError('code_reused', 'This connection link was already used. Please connect again.');
            }
          },
        },
      );
      return connect({ kind: 'oauth', ...tokens });
    },
    connectWithApiKey: (apiKey) => connect({ kind: 'api_key', apiKey }),
    merchant(businessId) {
      const id = parseOrThrow(resourceId, businessId, 'The business id');
      let api = merchants.get(id);
      if (!api) {
        api = createMerchantApi({
          ...apiOptions,
          auth: connectedMerchantAuth({
            businessId: id,
            store,
            leases,
            oauth,
            onRevoked: (revoked) => onRevoked?.(revoked),
          }),
        });
        merchants.set(id, api);
      }
      return api;
    },
    disconnect: (businessId) => store.delete(businessId),
    isConnected: async (businessId) => {
      const kept = await store.get(businessId);
      return kept !== undefined && kept.kind !== 'ended';
    },
    async connection(businessId) {
      const kept = await store.get(parseOrThrow(resourceId, businessId, 'The business id'));
      if (kept === undefined) return { state: 'not_connected' };
      return {
        state: kept.kind === 'ended' ? 'connect_again' : 'connected',
        ...(kept.connectedAt === undefined ? {} : { connectedAt: kept.connectedAt }),
      };
    },
    processLocalState,
    redirectUris: [...(oauthOptions?.redirectUris ?? [])],
  };
}
