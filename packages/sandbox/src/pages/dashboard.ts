/**
 * The sandbox dashboard: sign in as a user (no passwords in the sandbox), and the "Connected apps" page where
 * an Owner or Admin revokes an app, which invalidates its tokens at once with no notification (spec 5.3.4).
 */
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { SandboxContext } from '../context.js';
import { approvableBusinesses } from '../oauth/authorize.js';
import { page } from './layout.js';
import { csrfMatches, currentSession, protectPage, safeNext, signIn } from './session.js';

/** The `/dashboard` pages. */
export function dashboardPages(sandbox: SandboxContext) {
  const pages = new Hono();
  const { oauth, state } = sandbox;

  pages.get('/sign-in', (c) => {
    protectPage(c);
    const next = safeNext(c.req.query('next'));
    return c.html(
      page(
        'Sign in',
        html`<h1>Sign in to the sandbox dashboard</h1>
          <form method="post" action="/dashboard/sign-in">
            <input type="hidden" name="next" value="${next}" />
            <p>
              <label>Email <input type="email" name="email" required autocomplete="username" /></label>
            </p>
            <p>Users: ${[...oauth.users.values()].map((u) => html`<code>${u.email}</code> `)}</p>
            <div class="actions"><button class="pay">Sign in</button></div>
          </form>`,
      ),
    );
  });

  pages.post('/sign-in', async (c) => {
    protectPage(c);
    const form = new URLSearchParams(await c.req.text());
    const user = oauth.userByEmail(form.get('email') ?? '');
    if (!user)
      return c.html(
        page(
          'Sign in',
          html`<h1>No such user</h1>
            <p role="alert">No sandbox user has this email.</p>`,
        ),
        401,
      );
    signIn(c, oauth, user);
    return c.redirect(safeNext(form.get('next') ?? undefined), 303);
  });

  pages.get('/connected-apps', (c) => {
    protectPage(c);
    const session = currentSession(c, oauth);
    if (!session) return c.redirect('/dashboard/sign-in?next=/dashboard/connected-apps', 303);
    const mine = new Set(approvableBusinesses(session.user));
    const connections = new Map<string, { businessId: string; clientId: string }>();
    for (const grant of oauth.grants.values()) {
      if (!grant.revoked && mine.has(grant.businessId)) connections.set(`${grant.businessId} ${grant.clientId}`, grant);
    }
    return c.html(
      page(
        'Connected apps',
        html`<h1>Connected apps</h1>
          ${connections.size === 0 ? html`<p>No app is connected.</p>` : ''}
          ${[...connections.values()].map(
            ({ businessId, clientId }) =>
              html`<form method="post" action="/dashboard/connected-apps/revoke">
                <p>
                  ${oauth.apps.get(clientId)?.name ?? clientId} —
                  ${state.businesses.get(businessId)?.name ?? businessId}
                </p>
                <input type="hidden" name="business_id" value="${businessId}" />
                <input type="hidden" name="client_id" value="${clientId}" />
                <input type="hidden" name="csrf" value="${session.csrf}" />
                <button class="fail">Revoke</button>
              </form>`,
          )}`,
      ),
    );
  });

  pages.post('/connected-apps/revoke', async (c) => {
    protectPage(c);
    const session = currentSession(c, oauth);
    const form = new URLSearchParams(await c.req.text());
    const businessId = form.get('business_id') ?? '';
    if (
      !session ||
      !csrfMatches(session.csrf, form.get('csrf')) ||
      !approvableBusinesses(session.user).includes(businessId)
    ) {
      return c.html(page('Not allowed', html`<h1>Not allowed</h1>`), 403);
    }
    oauth.revokeWhere((grant) => grant.businessId === businessId && grant.clientId === form.get('client_id'));
    return c.redirect('/dashboard/connected-apps', 303);
  });

  return pages;
}
