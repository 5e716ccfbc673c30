/**
 * Dashboard sessions: sign-in sets an HttpOnly, SameSite=Lax cookie; every form carries the session's CSRF
 * token. The sandbox has no passwords: choosing a user's email signs in as that user.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { OAuthState, User } from '../oauth/oauth-state.js';
import { CSP_REPORT } from './layout.js';

const COOKIE = 'paykit_sandbox_session';

/** The signed-in user and the session's CSRF token, if any. */
export function currentSession(c: Context, oauth: OAuthState): { user: User; csrf: string } | undefined {
  const id = getCookie(c, COOKIE);
  const session = id ? oauth.sessions.get(id) : undefined;
  const user = session && oauth.users.get(session.userId);
  return user && session ? { user, csrf: session.csrf } : undefined;
}

/** Starts a session for `user`. */
export function signIn(c: Context, oauth: OAuthState, user: User): void {
  const id = randomBytes(24).toString('base64url');
  oauth.sessions.set(id, { userId: user.id, csrf: randomBytes(24).toString('base64url') });
  setCookie(c, COOKIE, id, { httpOnly: true, sameSite: 'Lax', path: '/' });
}

/** Ends the session. */
export function signOut(c: Context, oauth: OAuthState): void {
  const id = getCookie(c, COOKIE);
  if (id) oauth.sessions.delete(id);
  deleteCookie(c, COOKIE, { path: '/' });
}

/** True when a form's token is the session's (compared in constant time, bytes not characters). */
export function csrfMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * False for a form posted from another site or another origin of this site (the demo on another port of
 * 127.0.0.1 is same-site): login CSRF and forced consent are refused before any cookie is read or set.
 * `Origin: null` passes, since the pages' `no-referrer` policy makes browsers send it on their own forms;
 * `Sec-Fetch-Site` still tells those apart. No header at all (a test's fetch, curl) passes.
 */
export function postedFromHere(c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return false;
  const origin = c.req.header('origin');
  return origin === undefined || origin === 'null' || origin === new URL(c.req.url).origin;
}

/** Headers of every dashboard page: no framing (clickjacking on the consent page), no referrer, no cache. */
export function protectPage(c: Context): void {
  c.header(
    'content-security-policy',
    `default-src 'none'; style-src 'self'; img-src data:; form-action 'self' http: https:; frame-ancestors 'none'; ${CSP_REPORT}`,
  );
  c.header('x-frame-options', 'DENY');
  c.header('referrer-policy', 'no-referrer');
  c.header('cache-control', 'no-store');
}

/** Where the dashboard sends a signed-in user by default. */
export const DASHBOARD_HOME = '/dashboard/connected-apps';

/**
 * A path of this origin to go to after sign-in; anything else (`//evil`, `/\evil`, `/<TAB>/evil`, `https://…`)
 * goes to the dashboard. Parsed as a browser would (which drops tabs, reads `\` as `/` and resolves dot
 * segments), not by prefix; the answer always starts with exactly one `/`.
 */
export function safeNext(next: string | undefined): string {
  if (!next || !next.startsWith('/')) return DASHBOARD_HOME;
  const base = 'http://sandbox.invalid';
  let url: URL;
  try {
    url = new URL(next, base);
  } catch {
    return DASHBOARD_HOME;
  }
  if (url.origin !== base) return DASHBOARD_HOME;
  // Resolving removes dot segments, so `/.//evil` becomes the path `//evil`: as a Location that is another
  // host. One leading slash, whatever the spelling.
  return `/${url.pathname.replace(/^\/+/, '')}${url.search}${url.hash}`;
}
