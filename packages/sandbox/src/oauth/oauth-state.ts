/**
 * The sandbox's authorization server state: dashboard users and their roles, OAuth apps, authorization codes
 * and tokens, with a clock tests can move. Secrets are stored as SHA-256 hashes, as a real server would.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DEFAULT_APP_SCOPE, type Scope } from '@paykit/core';
import type { BusinessClocks } from '../business-clocks.js';
import { newId, newSecret } from '../ids.js';
import { SANDBOX_SEED } from '../seed.js';

/** A role of a user in a business. Only owners and admins may connect apps (spec 4.9). */
export type Role = 'owner' | 'admin' | 'member';

/** A dashboard user. */
export interface User {
  id: string;
  email: string;
  name: string;
  memberships: { businessId: string; role: Role }[];
}

/** An OAuth app owned by a business. */
export interface App {
  clientId: string;
  businessId: string;
  name: string;
  redirectUris: string[];
  scopes: Scope[];
  secretHash: string;
}

/** A single-use authorization code. */
export interface AuthorizationCode {
  hash: string;
  clientId: string;
  businessId: string;
  redirectUri: string;
  scopes: Scope[];
  codeChallenge: string | undefined;
  expiresAt: number;
  used: boolean;
  /** The family of the grant issued from it: revoked whole if the code is replayed (RFC 6749 section 4.1.2). */
  familyId: string | null;
}

/**
 * A grant: one access token and its refresh token. A refresh issues a new grant in the same family (one family
 * per approval); the old refresh token is spent at once, the old access token lives on until it expires.
 */
export interface Grant {
  id: string;
  /** Every grant descended from one authorization code shares it. */
  familyId: string;
  clientId: string;
  businessId: string;
  scopes: Scope[];
  accessHash: string;
  refreshHash: string;
  accessExpiresAt: number;
  /** When the refresh token stops working, on the business's clock; null (or absent, in older data files): never. */
  refreshExpiresAt?: number | null;
  /** Set once the refresh token was exchanged (rotation): the token then answers `invalid_grant`. */
  refreshUsed: boolean;
  /** Revoked by the merchant, by secret regeneration, app deletion or code replay: both tokens are dead. */
  revoked: boolean;
}

/** One app connected to one business, as the "Connected apps" page lists it. */
export interface Connection {
  businessId: string;
  clientId: string;
  scopes: Scope[];
}

/** The seeded dashboard user: the owner of the seeded business. */
export const SEED_USER = {
  id: '00000000-0000-4000-8000-0000000000a1',
  email: 'owner@demo-store.test',
  name: 'Dana Owner',
} as const;

/** Authorization codes live 60 seconds (the spec says short-lived; the issue fixes 60 s). */
export const CODE_TTL_MS = 60_000;

/** SHA-256 of a secret, hex. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** Constant-time comparison of a secret with a stored hash. */
export function secretMatches(secret: string, hash: string): boolean {
  return timingSafeEqual(Buffer.from(hashSecret(secret), 'hex'), Buffer.from(hash, 'hex'));
}

/** Everything the authorization server remembers. */
export class OAuthState {
  readonly users = new Map<string, User>();
  readonly apps = new Map<string, App>();
  readonly codes = new Map<string, AuthorizationCode>();
  readonly grants = new Map<string, Grant>();
  /** Dashboard sessions: session id -> user id and CSRF token. */
  readonly sessions = new Map<string, { userId: string; csrf: string }>();
  #offsetMs = 0;
  #clocks: Pick<BusinessClocks, 'offsetMs'> | undefined;

  constructor(
    readonly accessTokenTtlSeconds = 31_536_000,
    /** Null: refresh tokens end with use or revocation only (the spec shows no lifetime). */
    readonly refreshTokenTtlSeconds: number | null = null,
  ) {
    this.reset();
  }

  /**
   * The authorization server's clock (codes, tokens, the token endpoint's rate-limit window): real time plus what
   * `POST /_sandbox/clock` moved it.
   */
  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** Codes and tokens expire on the clock of the business they were issued for, too. */
  useBusinessClocks(clocks: Pick<BusinessClocks, 'offsetMs'>): void {
    this.#clocks = clocks;
  }

  /**
   * What a business's codes and tokens expire against: the authorization server's clock plus how far that
   * business's own clock was moved.
   */
  nowFor(businessId: string): number {
    return this.now() + (this.#clocks?.offsetMs(businessId) ?? 0);
  }

  /** How far the clock was moved forward, in milliseconds (kept across a restart with a data file). */
  get clockOffsetMs(): number {
    return this.#offsetMs;
  }

  /** Moves the clock forward (`POST /_sandbox/clock`): codes and tokens expire without waiting. */
  advance(ms: number): void {
    this.#offsetMs += ms;
  }

  /** Forgets everything and seeds the owner of the seeded business. */
  reset(): void {
    for (const map of [this.users, this.apps, this.codes, this.grants, this.sessions]) map.clear();
    this.#offsetMs = 0;
    this.users.set(SEED_USER.id, {
      ...SEED_USER,
      memberships: [{ businessId: SANDBOX_SEED.businessId, role: 'owner' }],
    });
  }

  /** Adds a dashboard user. */
  createUser(input: Omit<User, 'id'>): User {
    const user = { id: newId(), ...input };
    this.users.set(user.id, user);
    return user;
  }

  /** The user with this email, compared without case. */
  userByEmail(email: string): User | undefined {
    for (const user of this.users.values()) if (user.email.toLowerCase() === email.toLowerCase()) return user;
    return undefined;
  }

  /** Creates an app; returns it with its secret, which is never shown again. */
  createApp(input: { businessId: string; name: string; redirectUris: string[]; scopes?: Scope[] }): {
    app: App;
    clientSecret: string;
  } {
    const clientSecret = newSecret('cs_sandbox');
    const app: App = {
      clientId: `app_${randomBytes(12).toString('base64url')}`,
      businessId: input.businessId,
      name: input.name,
      redirectUris: input.redirectUris,
      scopes: input.scopes?.length ? input.scopes : [DEFAULT_APP_SCOPE],
      secretHash: hashSecret(clientSecret),
    };
    this.apps.set(app.clientId, app);
    return { app, clientSecret };
  }

  /** A new secret for an app: the old one stops working, and every token of the app with it (spec 5.3.2). */
  regenerateSecret(clientId: string): string {
    const app = this.apps.get(clientId);
    if (!app) throw new Error('unknown app');
    const clientSecret = newSecret('cs_sandbox');
    app.secretHash = hashSecret(clientSecret);
    this.revokeWhere((grant) => grant.clientId === clientId);
    return clientSecret;
  }

  /** Deletes an app and kills every token of it at once (spec 3 rule 4). False when there was no such app. */
  deleteApp(clientId: string): boolean {
    this.revokeWhere((grant) => grant.clientId === clientId);
    return this.apps.delete(clientId);
  }

  /** Revokes every grant matching `match`, at once (spec 3 rule 4). */
  revokeWhere(match: (grant: Grant) => boolean): number {
    let count = 0;
    for (const grant of this.grants.values()) {
      if (!grant.revoked && match(grant)) {
        grant.revoked = true;
        count += 1;
      }
    }
    return count;
  }

  /** Issues a code; returns the code itself (only its hash is kept). */
  issueCode(input: Omit<AuthorizationCode, 'hash' | 'expiresAt' | 'used' | 'familyId'>): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.set(hashSecret(code), {
      ...input,
      hash: hashSecret(code),
      expiresAt: this.nowFor(input.businessId) + CODE_TTL_MS,
      used: false,
      familyId: null,
    });
    return code;
  }

  /** Issues an access and refresh token pair, in a new family unless `familyId` continues one (refresh). */
  issueGrant(input: { clientId: string; businessId: string; scopes: Scope[]; familyId?: string }): {
    grant: Grant;
    accessToken: string;
    refreshToken: string;
  } {
    const accessToken = newSecret('at_sandbox');
    const refreshToken = newSecret('rt_sandbox');
    const grant: Grant = {
      id: newId(),
      familyId: input.familyId ?? newId(),
      clientId: input.clientId,
      businessId: input.businessId,
      scopes: input.scopes,
      accessHash: hashSecret(accessToken),
      refreshHash: hashSecret(refreshToken),
      accessExpiresAt: this.nowFor(input.businessId) + this.accessTokenTtlSeconds * 1000,
      refreshExpiresAt:
        this.refreshTokenTtlSeconds === null
          ? null
          : this.nowFor(input.businessId) + this.refreshTokenTtlSeconds * 1000,
      refreshUsed: false,
      revoked: false,
    };
    this.grants.set(grant.id, grant);
    return { grant, accessToken, refreshToken };
  }

  /** The live grant of an access token, if it is neither revoked nor expired. */
  grantByAccessToken(token: string): Grant | undefined {
    const hash = hashSecret(token);
    for (const grant of this.grants.values()) {
      if (grant.accessHash === hash) {
        return !grant.revoked && grant.accessExpiresAt > this.nowFor(grant.businessId) ? grant : undefined;
      }
    }
    return undefined;
  }

  /** The grant of a refresh token that is neither spent, revoked nor expired (when refresh tokens have a lifetime). */
  grantByRefreshToken(token: string): Grant | undefined {
    const hash = hashSecret(token);
    for (const grant of this.grants.values()) {
      if (grant.refreshHash === hash) return this.#refreshLive(grant) ? grant : undefined;
    }
    return undefined;
  }

  #refreshLive(grant: Grant): boolean {
    const expiresAt = grant.refreshExpiresAt ?? null;
    return !grant.revoked && !grant.refreshUsed && (expiresAt === null || expiresAt > this.nowFor(grant.businessId));
  }

  /**
   * The apps connected to these businesses: one entry per business and app with a live token (an access token
   * not yet expired, or a refresh token not yet spent), whatever the number of grants behind it.
   */
  connections(businessIds: Iterable<string>): Connection[] {
    const wanted = new Set(businessIds);
    const found = new Map<string, Connection>();
    for (const grant of this.grants.values()) {
      const live =
        !grant.revoked && (this.#refreshLive(grant) || grant.accessExpiresAt > this.nowFor(grant.businessId));
      if (!live || !wanted.has(grant.businessId) || !this.apps.has(grant.clientId)) continue;
      found.set(`${grant.businessId} ${grant.clientId}`, {
        businessId: grant.businessId,
        clientId: grant.clientId,
        scopes: grant.scopes,
      });
    }
    return [...found.values()];
  }

  /** Revokes the connection of one app to one business: every token, at once, no notification (spec 5.3.4). */
  revokeConnection(businessId: string, clientId: string): number {
    return this.revokeWhere((grant) => grant.businessId === businessId && grant.clientId === clientId);
  }

  /** Replaces the scopes granted to an app (the review of spec 5.2 rule 4, done by the control API). */
  setAppScopes(clientId: string, scopes: Scope[]): App | undefined {
    const app = this.apps.get(clientId);
    if (app) app.scopes = scopes.length ? [...new Set(scopes)] : [DEFAULT_APP_SCOPE];
    return app;
  }
}
