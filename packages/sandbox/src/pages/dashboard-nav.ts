/**
 * What every signed-in dashboard page shows around its content: the links between the pages (the service's
 * dashboard keeps its developer settings beside the connected apps) and who is signed in, with "Sign out".
 */
import { html } from 'hono/html';
import { DASHBOARD_HOME } from './session.js';

/** The signed-in pages of the dashboard, in the order the nav lists them. */
export const DASHBOARD_PAGES = [
  { path: DASHBOARD_HOME, label: 'Connected apps' },
  { path: '/dashboard/api-keys', label: 'API keys' },
  { path: '/dashboard/webhooks', label: 'Webhooks' },
  { path: '/dashboard/clock', label: 'Clock and events' },
] as const;

/** The path of one signed-in dashboard page. */
export type DashboardPath = (typeof DASHBOARD_PAGES)[number]['path'];

/** The links between the dashboard's pages; the one shown is marked `aria-current="page"`, not a link to itself. */
export function dashboardNav(current: DashboardPath) {
  return html`<nav class="dashboard-nav" aria-label="Dashboard">
    <ul>
      ${DASHBOARD_PAGES.map(({ path, label }) =>
        path === current
          ? html`<li><a href="${path}" aria-current="page">${label}</a></li>`
          : html`<li><a href="${path}">${label}</a></li>`,
      )}
    </ul>
  </nav>`;
}

/** "Signed in as …" and the sign-out button (a form: signing out changes state, so it is a POST). */
export function signedInAs(email: string) {
  return html`<form method="post" action="/dashboard/sign-out" class="signed-in">
    <span>Signed in as ${email}.</span>
    <button class="link">Sign out</button>
  </form>`;
}
