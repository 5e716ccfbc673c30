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

/** How a platform reaches one merchant. */
export type MerchantCredentials = { kind: 'api_key'; apiKey: string } | ({ kind: 'oauth' } & OAuthTokens);
