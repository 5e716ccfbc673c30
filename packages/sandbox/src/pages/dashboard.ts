/**
 * The sandbox dashboard: sign in as a user (no passwords in the sandbox: type an email or pick a user from the
 * list), sign out, and the "Connected apps" page where an Owner or Admin revokes an app, which invalidates its
 * tokens at once with no notification (spec 5.3.4). The developer pages (API keys, webhooks) are developers.ts.
 */
import { isScope } from '@paykit/core';
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import type { SandboxContext } from '../context.js';
import { approvableBusinesses } from '../oauth/authorize.js';
import { SCOPE_WORDS } from '../oauth/scope-names.js';
import { clockPages } from './clock-page.js';
import { dashboardNav, signedInAs } from './dashboard-nav.js';
import { developerPages } from './developers.js';
import { page } from './layout.js';
import {
  csrfMatches,
  currentSession,
  DASHBOARD_HOME,
  postedFromHere,
  protectPage,
  safeNext,
  signIn,
  signOut,
} from './session.js';
import { readPageForm } from '../body.js';

/** The `/dashboard` pages. */
export function dashboardPages(sandbox: SandboxContext) {
  const pages = new Hono();
  const { oauth, state } = sandbox;

  const refused = (c: Context, title: string, text: string, status: 401 | 403 = 403) =>
    c.html(
      page(
        title,
        html`<h1>${title}</h1>
          <p role="alert">${text}</p>`,
      ),
      status,
    );

  pages.get('/', (c) => c.redirect(DASHBOARD_HOME, 303));

  pages.get('/sign-in', (c) => {
    protectPage(c);
    const next = safeNext(c.req.query('next'));
    // The one-click buttons are named by the user only, so that "Sign in" stays one button for a test to find.
    return c.html(
      page(
        'Sign in',
        html`<h1>Sign in to the sandbox dashboard</h1>
          <p class="muted">The sandbox has no passwords: type a user's email, or pick a user below.</p>
          <form method="post" action="/dashboard/sign-in">
            <input type="hidden" name="next" value="${next}" />
            <label class="field"
              >Email <input type="email" name="email" required autocomplete="username" spellcheck="false"
            /></label>
            <div class="actions"><button class="pay">Sign in</button></div>
          </form>
          <form method="post" action="/dashboard/sign-in">
            <input type="hidden" name="next" value="${next}" />
            <fieldset>
              <legend>Or continue as</legend>
              <ul class="users">
                ${[...oauth.users.values()].map(
                  (user) =>
                    html`<li>
                      <button class="choice" name="email" value="${user.email}">
                        <span class="choice-text"
                          ><span>${user.name}</span><span class="choice-hint">${user.email}</span></span
                        >
                      </button>
                    </li>`,
                )}
              </ul>
            </fieldset>
          </form>`,
      ),
    );
  });

  pages.post('/sign-in', async (c) => {
    protectPage(c);
    if (!postedFromHere(c)) return refused(c, 'Not allowed', 'Sign in from the sandbox dashboard itself.');
    const form = await readPageForm(c.req.raw);
    const user = oauth.userByEmail(form.get('email') ?? '');
    if (!user) return refused(c, 'No such user', 'No sandbox user has this email.', 401);
    signIn(c, oauth, user);
    return c.redirect(safeNext(form.get('next') ?? undefined), 303);
  });

  pages.post('/sign-out', async (c) => {
    protectPage(c);
    if (!postedFromHere(c)) return refused(c, 'Not allowed', 'Sign out from the sandbox dashboard itself.');
    const form = await readPageForm(c.req.raw);
    signOut(c, oauth);
    return c.redirect(`/dashboard/sign-in?next=${encodeURIComponent(safeNext(form.get('next') ?? undefined))}`, 303);
  });

  pages.get('/connected-apps', (c) => {
    protectPage(c);
    const session = currentSession(c, oauth);
    if (!session) return c.redirect(`/dashboard/sign-in?next=${encodeURIComponent(DASHBOARD_HOME)}`, 303);
    const mine = approvableBusinesses(session.user);
    const signedIn = signedInAs(session.user.email);
    if (mine.length === 0) {
      return c.html(
        page(
          'Connected apps',
          html`${dashboardNav(DASHBOARD_HOME)}
            <h1>Connected apps</h1>
            ${signedIn}
            <p role="alert">Only an Owner or Admin of a business can see and revoke its connected apps.</p>`,
        ),
        403,
      );
    }
    const connections = oauth.connections(mine);
    return c.html(
      page(
        'Connected apps',
        html`${dashboardNav(DASHBOARD_HOME)}
          <h1>Connected apps</h1>
          <p class="muted">Apps you connected to your businesses, and what each can do.</p>
          ${connections.length === 0 ? html`<p>No app is connected.</p>` : ''}
          ${connections.map(
            ({ businessId, clientId, scopes }) =>
              html`<form method="post" action="/dashboard/connected-apps/revoke" class="card">
                <h2>${oauth.apps.get(clientId)?.name ?? clientId}</h2>
                <p>Connected to ${state.businesses.get(businessId)?.name ?? businessId}. It can:</p>
                <ul>
                  ${scopes.map((scope) => html`<li>${isScope(scope) ? SCOPE_WORDS[scope] : scope}</li>`)}
                </ul>
                <input type="hidden" name="business_id" value="${businessId}" />
                <input type="hidden" name="client_id" value="${clientId}" />
                <input type="hidden" name="csrf" value="${session.csrf}" />
                <button class="fail">Revoke</button>
                <p class="muted">Revoking ends its access at once; the app is not notified.</p>
              </form>`,
          )}
          ${signedIn}`,
      ),
    );
  });

  pages.post('/connected-apps/revoke', async (c) => {
    protectPage(c);
    const session = currentSession(c, oauth);
    const form = await readPageForm(c.req.raw);
    const businessId = form.get('business_id') ?? '';
    if (
      !postedFromHere(c) ||
      !session ||
      !csrfMatches(session.csrf, form.get('csrf')) ||
      !approvableBusinesses(session.user).includes(businessId)
    ) {
      return refused(c, 'Not allowed', 'Only an Owner or Admin of the business may revoke its connected apps.');
    }
    oauth.revokeConnection(businessId, form.get('client_id') ?? '');
    return c.redirect(DASHBOARD_HOME, 303);
  });

  pages.route('/', developerPages(sandbox));
  pages.route('/', clockPages(sandbox));

  return pages;
}
