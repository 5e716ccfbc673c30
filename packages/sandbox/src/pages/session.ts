/**
 * Dashboard sessions: sign-in sets an HttpOnly, SameSite=Lax cookie; every form carries the session's CSRF
 * token. The sandbox has no passwords: choosing a user's email signs in as that user.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { OAuthState, User } from '../oauth/oauth-state.js';

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

/** True when a form's token is the session's. */
export function csrfMatches(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

/** Headers of every dashboard page: no framing (clickjacking on the consent page), no referrer, no cache. */
export function protectPage(c: Context): void {
  c.header(
    'content-security-policy',
    "default-src 'none'; style-src 'self'; form-action 'self' http: https:; frame-ancestors 'none'",
  );
  c.header('x-frame-options', 'DENY');
  c.header('referrer-policy', 'no-referrer');
  c.header('cache-control', 'no-store');
}

/** A same-site path to go to after sign-in; anything else (`//evil`, `https://…`) goes to the dashboard. */
export function safeNext(next: string | undefined): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\')
    ? next
    : '/dashboard/connected-apps';
}
