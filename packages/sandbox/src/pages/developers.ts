/**
 * The dashboard's developer pages, as the service's dashboard has them: "API keys" (each business's API key,
 * salt and platform key) and "Webhooks" (its endpoints, what was delivered, and the faults a receiver must
 * survive). Only for the businesses the signed-in user is Owner or Admin of: a member sees neither keys nor
 * deliveries. Every form is checked like the dashboard's others (same origin, the session's CSRF token, the
 * role in the business it names) and answered with a 303 back to the page (POST-redirect-GET), whose `?done=`
 * picks one of a fixed set of notices.
 */
import { PaykitError, webhookEndpointCreateSchema } from '@paykit/core';
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import { readPageForm } from '../body.js';
import type { SandboxContext } from '../context.js';
import { approvableBusinesses } from '../oauth/authorize.js';
import type { User } from '../oauth/oauth-state.js';
import type { Business } from '../state.js';
import { sendTestEvent } from '../webhooks/send.js';
import { apiKeysBody } from './api-keys-view.js';
import { dashboardNav, signedInAs, type DashboardPath } from './dashboard-nav.js';
import { fieldErrorsOf } from './field-errors.js';
import { page } from './layout.js';
import { csrfMatches, currentSession, postedFromHere, protectPage } from './session.js';
import type { EndpointDraft } from './webhook-endpoints-view.js';
import { isFaultKind, parseFaultForm, type FaultDraft } from './webhook-faults-form.js';
import { noticeOf, webhooksBody, type WebhookNotice } from './webhooks-view.js';

const WEBHOOKS_PAGE = '/dashboard/webhooks';

/** A signed-in user's page frame, or the answer to send instead. */
type SignedInPage =
  | { ok: true; session: NonNullable<ReturnType<typeof currentSession>>; businesses: Business[] }
  | { ok: false; answer: Response | Promise<Response> };

/** The `/dashboard/api-keys` and `/dashboard/webhooks` pages and the webhooks page's forms. */
export function developerPages(sandbox: SandboxContext) {
  const pages = new Hono();
  const { oauth, state, webhooks } = sandbox;

  /** The businesses `user` administers that still exist, in the order of their memberships. */
  const administered = (user: User): Business[] =>
    approvableBusinesses(user).flatMap((id) => state.businesses.get(id) ?? []);

  const refused = (c: Context, text: string, status: 400 | 403 = 403) =>
    c.html(
      page(
        'Not allowed',
        html`<h1>Not allowed</h1>
          <p role="alert">${text}</p>`,
      ),
      status,
    );

  /**
   * The frame of both pages for the signed-in user, or the answer instead of it: sign-in for a visitor, a refusal
   * (with the nav, so the other pages stay in reach) for a user who administers no business.
   */
  const signedInPage = (c: Context, path: DashboardPath, title: string): SignedInPage => {
    protectPage(c);
    const session = currentSession(c, oauth);
    if (!session) return { ok: false, answer: c.redirect(`/dashboard/sign-in?next=${encodeURIComponent(path)}`, 303) };
    const businesses = administered(session.user);
    if (businesses.length === 0) {
      return {
        ok: false,
        answer: c.html(
          page(
            title,
            html`${dashboardNav(path)}
              <h1>${title}</h1>
              <p role="alert">Only an Owner or Admin of a business can see its ${title.toLowerCase()}.</p>
              ${signedInAs(session.user.email)}`,
          ),
          403,
        ),
      };
    }
    return { ok: true, session, businesses };
  };

  pages.get('/api-keys', (c) => {
    const found = signedInPage(c, '/dashboard/api-keys', 'API keys');
    if (!found.ok) return found.answer;
    return c.html(
      page(
        'API keys',
        html`${dashboardNav('/dashboard/api-keys')} ${apiKeysBody(found.businesses)}
        ${signedInAs(found.session.user.email)}`,
      ),
    );
  });

  /** The webhooks page, with a notice, or a refused form filled again (then 422). */
  const webhooksPage = (
    c: Context,
    extra: { notice?: WebhookNotice; endpointDraft?: EndpointDraft; faultDraft?: FaultDraft } = {},
  ) => {
    const found = signedInPage(c, WEBHOOKS_PAGE, 'Webhooks');
    if (!found.ok) return found.answer;
    const body = webhooksBody({
      businesses: found.businesses,
      csrf: found.session.csrf,
      endpointsOf: (id) => state.endpointsOf(id),
      deliveriesOf: (id) => webhooks.deliveries.filter((delivery) => delivery.business_id === id),
      ...extra,
    });
    const refusedForm = extra.endpointDraft ?? extra.faultDraft;
    return c.html(
      page('Webhooks', html`${dashboardNav(WEBHOOKS_PAGE)} ${body} ${signedInAs(found.session.user.email)}`, {
        wide: true,
      }),
      refusedForm ? 422 : 200,
    );
  };

  pages.get('/webhooks', (c) => webhooksPage(c, { notice: noticeOf(c.req.query('done')) }));

  /**
   * The form of a POST the page may act on, or undefined: posted from this origin, by a signed-in user, with the
   * session's CSRF token, naming a business the user is Owner or Admin of. The fault forms name none (`any`):
   * faults belong to the whole sandbox, so being Owner or Admin of some business is enough.
   */
  const trustedForm = async (c: Context, business: 'named' | 'any') => {
    protectPage(c);
    if (!postedFromHere(c)) return undefined;
    const session = currentSession(c, oauth);
    const form = await readPageForm(c.req.raw);
    if (!session || !csrfMatches(session.csrf, form.get('csrf'))) return undefined;
    const mine = approvableBusinesses(session.user);
    const businessId = form.get('business_id') ?? '';
    const allowed =
      business === 'any' ? mine.length > 0 : mine.includes(businessId) && state.businesses.has(businessId);
    return allowed ? { form, businessId } : undefined;
  };

  const NOT_ALLOWED = 'Only an Owner or Admin of the business, on its dashboard page, may change its webhooks.';
  const done = (c: Context, notice: WebhookNotice) => c.redirect(`${WEBHOOKS_PAGE}?done=${notice}`, 303);

  pages.post('/webhooks/endpoints', async (c) => {
    const trusted = await trustedForm(c, 'named');
    if (!trusted) return refused(c, NOT_ALLOWED);
    const { form, businessId } = trusted;
    const typed = {
      name: form.get('name') ?? '',
      url: (form.get('url') ?? '').trim(),
      event_types: form.getAll('event_types'),
    };
    // The API's own schema: the page refuses exactly what `POST /v1/webhook-events` refuses.
    const parsed = webhookEndpointCreateSchema.safeParse(typed);
    if (!parsed.success) {
      const endpointDraft: EndpointDraft = {
        businessId,
        name: typed.name,
        url: typed.url,
        eventTypes: typed.event_types,
        errors: fieldErrorsOf(parsed.error),
      };
      return webhooksPage(c, { endpointDraft });
    }
    state.addEndpoint(
      {
        businessId,
        name: parsed.data.name,
        url: parsed.data.url,
        eventTypes: parsed.data.event_types,
      },
      sandbox.clocks.now(businessId),
    );
    return done(c, 'endpoint_added');
  });

  pages.post('/webhooks/endpoints/remove', async (c) => {
    const trusted = await trustedForm(c, 'named');
    if (!trusted) return refused(c, NOT_ALLOWED);
    const endpoint = state.endpointOf(trusted.businessId, trusted.form.get('endpoint_id') ?? '');
    if (!endpoint) return done(c, 'endpoint_gone');
    state.webhookEndpoints.delete(endpoint.id);
    return done(c, 'endpoint_removed');
  });

  pages.post('/webhooks/endpoints/test', async (c) => {
    const trusted = await trustedForm(c, 'named');
    if (!trusted) return refused(c, NOT_ALLOWED);
    try {
      sendTestEvent(sandbox, trusted.businessId, trusted.form.get('endpoint_id') ?? '');
    } catch (error) {
      // Both are the person's situation, not the sandbox's failure: said on the page, not as an error answer.
      if (error instanceof PaykitError && error.code === 'conflict') return done(c, 'no_charge');
      if (error instanceof PaykitError && error.code === 'not_found') return done(c, 'endpoint_gone');
      throw error;
    }
    return done(c, 'test_sent');
  });

  pages.post('/webhooks/deliveries/redeliver', async (c) => {
    const trusted = await trustedForm(c, 'named');
    if (!trusted) return refused(c, NOT_ALLOWED);
    const delivery = webhooks.find(trusted.form.get('delivery_id') ?? '');
    // Another business's delivery is as unknown as a forgotten one: its request carries that business's signature.
    if (!delivery || delivery.business_id !== trusted.businessId) return done(c, 'delivery_gone');
    webhooks.redeliver(delivery);
    return done(c, 'redelivered');
  });

  pages.post('/webhooks/faults', async (c) => {
    const trusted = await trustedForm(c, 'any');
    if (!trusted) return refused(c, NOT_ALLOWED);
    const kind = trusted.form.get('kind') ?? '';
    if (!isFaultKind(kind)) return refused(c, 'No such fault.', 400);
    const parsed = parseFaultForm(kind, trusted.form);
    if ('draft' in parsed) return webhooksPage(c, { faultDraft: parsed.draft });
    webhooks.arm(parsed.fault);
    return done(c, `armed_${kind}`);
  });

  return pages;
}
