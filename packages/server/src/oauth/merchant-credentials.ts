/**
 * The credentials a platform holds for one connected merchant, as plain types. A leaf module: the connection
 * store imports the refresh leases (its memory store takes them from `ProcessRefreshLeases`) and the leases need
 * these types, so the types live apart from both, and neither imports the other back.
 */

/** OAuth tokens of one merchant. */
export interface OAuthTokens {
  accessToken: string;
  /**
   * Absent when the authorization server gave none (optional in RFC 6749 section 5.1): the merchant is then
   * connected until the access token expires, and must connect again after that.
   */
  refreshToken?: string;
  /** When the access token expires, in milliseconds since the epoch. */
  expiresAt: number;
  /**
   * When the access token was issued, in milliseconds since the epoch: with {@link expiresAt} it gives the
   * token's lifetime, of which the refresh lead is a fraction. Absent in credentials stored by versions
   * before it existed (they are refreshed with the former fixed lead of 5 minutes, which stores it).
   */
  issuedAt?: number;
  /** The scopes granted, space-separated, when the token endpoint said. */
  scope?: string;
}

/** What every kept connection may say of itself, whatever reaches the merchant. */
export interface ConnectionFacts {
  /**
   * When the merchant connected (the code exchanged, or the API key handed over), in milliseconds since the
   * epoch; kept through refreshes. Absent in credentials stored by versions before it existed.
   */
  connectedAt?: number;
}

/** How a platform reaches one merchant. */
export type LiveCredentials =
  ({ kind: 'api_key'; apiKey: string } & ConnectionFacts) | ({ kind: 'oauth' } & OAuthTokens & ConnectionFacts);

/**
 * What is kept of a connection the service stopped taking (a 401, a refused refresh, an access token that ended
 * without a refresh token): no secret, only that it was and when it ended, so that the platform can tell "connect
 * again" from "never connected". Reaches nobody: a call for the merchant fails as if nothing were kept.
 */
export interface EndedConnection extends ConnectionFacts {
  /** Says this entry reaches nobody. */
  kind: 'ended';
  /** When the connection was found dead, in milliseconds since the epoch. */
  endedAt: number;
}

/** What a platform keeps for one merchant: how it reaches it, or that its connection ended. */
export type MerchantCredentials = LiveCredentials | EndedConnection;
