/**
 * `{dashboard}/oauth/authorize` (spec 4.9): the consent page a merchant sees when a platform asks to connect,
 * and the form it posts. Owners and Admins approve; a user of several businesses picks one; deny sends
 * `error=access_denied` back with the state. Every redirect back carries `iss` (RFC 9207).
 */
import { httpStatusOf, isScope, PaykitError } from '@paykit/core';
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import type { SandboxContext } from '../context.js';
import {
  approvableBusinesses,
  approve,
  AUTHORIZE_PARAMS,
  checkAuthorizeRequest,
  deny,
  RedirectError,
} from '../oauth/authorize.js';
import { OAuthError } from '../oauth/oauth-error.js';
import { SCOPE_WORDS } from '../oauth/scope-names.js';
import { page } from './layout.js';
import { csrfMatches, currentSession, postedFromHere, protectPage } from './session.js';
import { readPageForm } from '../body.js';

/** The `/oauth` pages. */
export function authorizePages(sandbox: SandboxContext) {
  const pages = new Hono();
  const { oauth, state } = sandbox;

  /** A refusal shown to the person at the browser: an OAuth error that must not be redirected, or paykit's own. */
  const errorPage = (c: Context, error: OAuthError | PaykitError) =>
    c.html(
      page(
        'Cannot connect',
        html`<h1>This connection request is not valid</h1>
          <p role="alert">${error.message}</p>`,
      ),
      error instanceof OAuthError ? error.status : httpStatusOf(error.code),
    );

  pages.get('/authorize', (c) => {
    protectPage(c);
    const url = new URL(c.req.url);
    try {
      const query = singleParams(url.searchParams);
      const request = checkAuthorizeRequest(oauth, query);
      const session = currentSession(c, oauth);
      if (!session) return c.redirect(`/dashboard/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
      const businesses = approvableBusinesses(session.user)
        .map((id) => state.businesses.get(id))
        .filter((b) => b !== undefined);
      if (businesses.length === 0) {
        return c.html(
          page(
            'Cannot connect',
            html`<h1>Ask an Owner or Admin</h1>
              <p role="alert">
                Signed in as ${session.user.email}. Only an Owner or Admin of a business can connect apps to it.
              </p>
              <form method="post" action="/dashboard/sign-out">
                <input type="hidden" name="next" value="${url.pathname + url.search}" />
                <div class="actions"><button class="secondary">Use another account</button></div>
              </form>`,
          ),
          403,
        );
      }
      // The merchant reads the app's name and the business it would reach, never the app's owner: the owner is
      // the platform's own account (on the demo, the sandbox's seeded business), a name the merchant does not
      // know, which made "Acme Marketplace" read as "an app of Demo Store".
      const target = businesses.length === 1 ? businesses[0]!.name : 'your business';
      const back = url.pathname + url.search;
      return c.html(
        page(
          `Connect ${request.app.name}`,
          html`<h1>${request.app.name} wants to connect to ${target}</h1>
            <p>If you connect, ${request.app.name} will be able to:</p>
            <ul>
              ${request.params.scope.map((scope) => html`<li>${isScope(scope) ? SCOPE_WORDS[scope] : scope}</li>`)}
            </ul>
            <form method="post" action="/oauth/authorize">
              ${AUTHORIZE_PARAMS.filter((name) => query[name] !== undefined).map(
                (name) => html`<input type="hidden" name="${name}" value="${query[name]}" />`,
              )}
              <input type="hidden" name="csrf" value="${session.csrf}" />
              <fieldset>
                <legend>Business to connect</legend>
                ${businesses.map(
                  (business, index) =>
                    html`<label class="choice">
                      <input type="radio" name="business_id" value="${business.id}" ${index === 0 ? 'checked' : ''} />
                      <span>${business.name}</span>
                    </label>`,
                )}
              </fieldset>
              <div class="actions">
                <button class="pay" name="decision" value="approve">Connect</button>
                <button class="secondary" name="decision" value="deny">Deny</button>
              </div>
            </form>
            <p class="note">
              You can disconnect ${request.app.name} at any time under Connected apps on this dashboard.
            </p>
            <form method="post" action="/dashboard/sign-out" class="signed-in">
              <input type="hidden" name="next" value="${back}" />
              <span>Signed in as ${session.user.email}.</span>
              <button class="link">Use another account</button>
            </form>`,
        ),
      );
    } catch (error) {
      if (error instanceof RedirectError) return c.redirect(error.location(sandbox.publicUrl()), 303);
      if (error instanceof OAuthError || error instanceof PaykitError) return errorPage(c, error);
      throw error;
    }
  });

  pages.post('/authorize', async (c) => {
    protectPage(c);
    try {
      if (!postedFromHere(c)) throw new PaykitError('forbidden', 'Approve on the sandbox dashboard itself');
      const form = singleParams(await readPageForm(c.req.raw));
      const session = currentSession(c, oauth);
      if (!session) throw new PaykitError('unauthorized', 'Sign in to the dashboard first');
      if (!csrfMatches(session.csrf, form.csrf))
        throw new PaykitError('forbidden', 'The form expired; start the connection again');
      const request = checkAuthorizeRequest(oauth, form);
      if (form.decision === 'deny') return c.redirect(deny(request, sandbox.publicUrl()), 303);
      return c.redirect(approve(oauth, request, session.user, form.business_id ?? '', sandbox.publicUrl()), 303);
    } catch (error) {
      if (error instanceof RedirectError) return c.redirect(error.location(sandbox.publicUrl()), 303);
      if (error instanceof OAuthError || error instanceof PaykitError) return errorPage(c, error);
      throw error;
    }
  });

  return pages;
}

/** The parameters as single values; a repeated one is refused (RFC 6749 section 3.1). */
export function singleParams(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name in out) throw new PaykitError('duplicate_parameter', `The parameter ${name} appears more than once`);
    out[name] = value;
  }
  return out;
}
