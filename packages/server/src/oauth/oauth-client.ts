/**
 * The platform's side of the OAuth 2.0 authorization-code flow (spec 4.8, RFC 6749): code exchange and refresh,
 * built on oauth4webapi, which checks the token responses. It works with the spec's server (the default: the
 * token endpoint under `apiBaseUrl`, the client secret in the form body) and with any standard one, whose
 * metadata it reads from `issuer` (`authorization-server.ts`) and whose client authentication is an option
 * (`client-authentication.ts`).
 *
 * Security defaults: PKCE is required (RFC 9700 section 2.1.1); an authorization response's `iss` must name the
 * configured issuer (RFC 9207); both are checked before anything is sent. Every secret that passes through is
 * remembered for the redacting logger.
 */
import * as oauth from 'oauth4webapi';
import { rememberSecret } from '../secrets.js';
import { checkCodeAndVerifier, checkIssuer } from './code-exchange-checks.js';
import type { OAuthTokens } from './connection-store.js';
import { readOAuthClientOptions, type OAuthClientOptions } from './oauth-client-options.js';
import { refreshDueAt } from './refresh-lead.js';
import { exchangeFailure, refreshFailure } from './token-errors.js';
import { sendTokenRequest, tokenRequestOptions } from './token-request.js';

/** Per-request options of {@link OAuthClient.refresh}. */
export interface TokenRequestOptions {
  /**
   * Runs after any wait for the budget, just before the request leaves; throwing stops it there. A refresh
   * lease is confirmed here, so that a lease never lapses while its holder's request is in flight.
   */
  beforeSend?(): Promise<void>;
}

/** What the browser brought back from the authorization server, for {@link OAuthClient.exchangeCode}. */
export interface CodeExchangeInput {
  code: string;
  /** The PKCE verifier the browser kept. Required unless `unsafeAllowMissingPkce`. */
  codeVerifier?: string;
  redirectUri: string;
  /** The `iss` of the authorization response (RFC 9207), when the server sent one. */
  iss?: string;
}

/** Per-request options of {@link OAuthClient.exchangeCode}. */
export interface CodeExchangeOptions {
  /**
   * Runs once every check of the response has passed and before the token budget is waited for, so that a
   * refusal here (a code this platform already tried) costs no budget and sends nothing.
   */
  beforeRequest?(): Promise<void>;
}

/** Exchanges codes and refreshes tokens. */
export interface OAuthClient {
  /**
   * Exchanges an authorization code for tokens. Before anything is sent to the token endpoint: refuses a
   * missing verifier (`validation_failed`, unless `unsafeAllowMissingPkce`), then an `iss` that is not the
   * issuer, or a missing one when the server promises it (`issuer_mismatch`), then runs `beforeRequest`.
   */
  exchangeCode(input: CodeExchangeInput, options?: CodeExchangeOptions): Promise<OAuthTokens>;
  /**
   * Gets a fresh access token. `unauthorized` when the refresh token is no longer valid (revocation). When the
   * server sends no new refresh token the old one is kept (RFC 6749 section 6).
   */
  refresh(refreshToken: string, options?: TokenRequestOptions): Promise<OAuthTokens>;
  /** When `tokens` should be refreshed, in milliseconds since the epoch (see `refreshAhead`). */
  refreshDueAt(tokens: Pick<OAuthTokens, 'expiresAt' | 'issuedAt'>): number;
  /** The issuer identifier an authorization response's `iss` must equal. */
  readonly issuer: string;
  /** The time limit of one token request, in milliseconds. */
  readonly timeoutMs: number;
}

/** A client of the authorization server's token endpoint. Throws `validation_failed` naming a bad option. */
export function createOAuthClient(options: OAuthClientOptions): OAuthClient {
  const { server, client, auth, refreshAhead, endpoint } = readOAuthClientOptions(options);
  return {
    async exchangeCode(input, exchangeOptions) {
      const { code, codeVerifier, redirectUri, iss } = input;
      rememberSecret(code);
      rememberSecret(codeVerifier);
      checkCodeAndVerifier(code, codeVerifier, options.unsafeAllowMissingPkce === true);
      const as = await server.metadata();
      const callback = checkIssuer(as, client, code, iss);
      await exchangeOptions?.beforeRequest?.();
      return sendTokenRequest(endpoint, {
        send: () =>
          oauth.authorizationCodeGrantRequest(
            as,
            client,
            auth,
            callback,
            redirectUri,
            codeVerifier || oauth.nopkce,
            tokenRequestOptions(endpoint, as),
          ),
        process: (response) => oauth.processAuthorizationCodeResponse(as, client, response),
        failure: exchangeFailure,
      });
    },
    async refresh(refreshToken, refreshOptions) {
      rememberSecret(refreshToken);
      const as = await server.metadata();
      const tokens = await sendTokenRequest(endpoint, {
        send: () => oauth.refreshTokenGrantRequest(as, client, auth, refreshToken, tokenRequestOptions(endpoint, as)),
        process: (response) => oauth.processRefreshTokenResponse(as, client, response),
        failure: refreshFailure,
        beforeSend: refreshOptions?.beforeSend,
      });
      // RFC 6749 section 6: without a new refresh token, the one just used stays valid.
      return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
    },
    refreshDueAt: (tokens) => refreshDueAt(tokens, refreshAhead),
    issuer: server.issuer,
    timeoutMs: endpoint.timeoutMs,
  };
}
