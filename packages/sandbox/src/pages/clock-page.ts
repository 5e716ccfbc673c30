/**
 * The dashboard's "Clock and events" page (`/dashboard/clock`), for people testing by hand what the control API
 * does for a test suite: each business's clock, moved forward from a form (`timeline.ts`'s `advanceClock`, checked
 * as `POST /_sandbox/businesses/{id}/clock/advance` checks it), and an event sent on demand (`webhooks/trigger.ts`'s
 * `triggerEvent`, as `POST /_sandbox/webhooks/trigger` sends it). Only for the businesses the signed-in user is
 * Owner or Admin of; every form is checked like the dashboard's others (same origin, the session's CSRF token, the
 * role in the business it names). A post answers the page itself with what it did (what happened on the way, the
 * deliveries made), or with the refused form and each field's error (422): nothing is kept between requests.
 */
import { PaykitError, webUrl } from '@paykit/core';
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import * as z from 'zod';
import { readPageForm } from '../body.js';
import type { SandboxContext } from '../context.js';
import { approvableBusinesses } from '../oauth/authorize.js';
import { checkAdvance } from '../routes/control/clock.js';
import type { Business } from '../state.js';
import { advanceClock } from '../timeline.js';
import { triggerEvent, type TriggerAnswer } from '../webhooks/trigger.js';
import { ADVANCE_UNITS, clockBody, type AdvanceDone, type AdvanceDraft, type TriggerDraft } from './clock-view.js';
import { dashboardNav, signedInAs } from './dashboard-nav.js';
import type { FieldErrors } from './field-errors.js';
import { page } from './layout.js';
import { csrfMatches, currentSession, postedFromHere, protectPage } from './session.js';

const CLOCK_PAGE = '/dashboard/clock';
const TITLE = 'Clock and events';
const NOT_ALLOWED =
  'Only an Owner or Admin of the business, on its dashboard page, may move its clock or send its events.';

/** `YYYY-MM-DDTHH:mm` or `…:ss`, as a `datetime-local` field posts it: read as UTC. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;
const withOffset = z.iso.datetime({ offset: true });

/** The instant a typed date and time names (a `datetime-local` value in UTC, or ISO 8601 with an offset), or NaN. */
function instantOf(text: string): number {
  if (LOCAL_DATE_TIME.test(text)) return Date.parse(`${text}Z`);
  return withOffset.safeParse(text).success ? Date.parse(text) : Number.NaN;
}

/** A `validation_failed` error's field errors, by field. */
function errorsOf(error: PaykitError): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const { path, message } of error.errors ?? []) (errors[path.split('.')[0] ?? path] ??= []).push(message);
  return errors;
}

/** What a page render adds to the clocks: the outcome of a post, or a refused form. */
interface Outcome {
  advanceDraft?: AdvanceDraft;
  advanced?: AdvanceDone;
  triggerDraft?: TriggerDraft;
  triggered?: TriggerAnswer;
}

/** The `/dashboard/clock` page and its two forms' posts. */
export function clockPages(sandbox: SandboxContext) {
  const pages = new Hono();
  const { oauth, state, clocks } = sandbox;

  /** The businesses `user` administers that still exist, in the order of their memberships. */
  const administered = (businessIds: readonly string[]): Business[] =>
    businessIds.flatMap((id) => state.businesses.get(id) ?? []);

  const refused = (c: Context, text: string) =>
    c.html(
      page(
        'Not allowed',
        html`<h1>Not allowed</h1>
          <p role="alert">${text}</p>`,
      ),
      403,
    );

  /**
   * The page for the signed-in user: sign-in for a visitor, a refusal with the nav (so the other pages stay in
   * reach) for a user who administers no business, else each business's clock and forms with `outcome`.
   */
  const clockPage = (c: Context, outcome: Outcome = {}) => {
    protectPage(c);
    const session = currentSession(c, oauth);
    if (!session) return c.redirect(`/dashboard/sign-in?next=${encodeURIComponent(CLOCK_PAGE)}`, 303);
    const businesses = administered(approvableBusinesses(session.user));
    if (businesses.length === 0) {
      return c.html(
        page(
          TITLE,
          html`${dashboardNav(CLOCK_PAGE)}
            <h1>${TITLE}</h1>
            <p role="alert">Only an Owner or Admin of a business can see its clock and send its events.</p>
            ${signedInAs(session.user.email)}`,
        ),
        403,
      );
    }
    const realMs = Date.now();
    const body = clockBody({
      clocks: businesses.map((business) => ({ business, nowMs: clocks.nowMs(business.id), realMs })),
      csrf: session.csrf,
      ...outcome,
    });
    const refusedForm = outcome.advanceDraft ?? outcome.triggerDraft;
    return c.html(
      page(TITLE, html`${dashboardNav(CLOCK_PAGE)} ${body} ${signedInAs(session.user.email)}`, { wide: true }),
      refusedForm ? 422 : 200,
    );
  };

  /**
   * The form of a POST the page may act on, or undefined: posted from this origin, by a signed-in user, with the
   * session's CSRF token, naming a business the user is Owner or Admin of.
   */
  const trustedForm = async (c: Context) => {
    protectPage(c);
    if (!postedFromHere(c)) return undefined;
    const session = currentSession(c, oauth);
    const form = await readPageForm(c.req.raw);
    if (!session || !csrfMatches(session.csrf, form.get('csrf'))) return undefined;
    const businessId = form.get('business_id') ?? '';
    const allowed = approvableBusinesses(session.user).includes(businessId) && state.businesses.has(businessId);
    return allowed ? { form, businessId } : undefined;
  };

  pages.get('/clock', (c) => clockPage(c));

  pages.post('/clock/advance', async (c) => {
    const trusted = await trustedForm(c);
    if (!trusted) return refused(c, NOT_ALLOWED);
    const { form, businessId } = trusted;
    const way = form.has('to') ? 'to' : 'by';
    const draft: AdvanceDraft = {
      businessId,
      way,
      amount: (form.get('amount') ?? '').trim(),
      unit: form.get('unit') ?? '',
      to: (form.get('to') ?? '').trim(),
      errors: {},
    };
    const refuse = (errors: FieldErrors) => clockPage(c, { advanceDraft: { ...draft, errors } });
    const fromMs = clocks.nowMs(businessId);
    let toMs: number;
    if (way === 'to') {
      toMs = instantOf(draft.to);
      if (Number.isNaN(toMs)) return refuse({ to: ['must be a date and time, e.g. 2027-01-31T09:00'] });
    } else {
      const amount = /^\d{1,9}$/.test(draft.amount) ? Number(draft.amount) : Number.NaN;
      if (!(amount >= 1)) return refuse({ amount: ['must be a whole number, 1 or more'] });
      if (!Object.hasOwn(ADVANCE_UNITS, draft.unit)) {
        return refuse({ unit: [`must be one of ${Object.keys(ADVANCE_UNITS).join(', ')}`] });
      }
      toMs = fromMs + amount * ADVANCE_UNITS[draft.unit as keyof typeof ADVANCE_UNITS] * 1000;
    }
    try {
      checkAdvance(fromMs, toMs, { field: way === 'to' ? 'to' : 'amount', given: way === 'to' ? draft.to : undefined });
    } catch (error) {
      if (error instanceof PaykitError && error.code === 'validation_failed') return refuse(errorsOf(error));
      throw error;
    }
    const happened = await advanceClock(sandbox, businessId, toMs);
    return clockPage(c, { advanced: { businessId, fromMs, toMs: clocks.nowMs(businessId), happened } });
  });

  pages.post('/clock/trigger', async (c) => {
    const trusted = await trustedForm(c);
    if (!trusted) return refused(c, NOT_ALLOWED);
    const { form, businessId } = trusted;
    const draft: TriggerDraft = {
      businessId,
      eventType: form.get('event_type') ?? '',
      objectId: (form.get('object_id') ?? '').trim(),
      url: (form.get('url') ?? '').trim(),
      errors: {},
    };
    const refuse = (errors: FieldErrors, problem?: string) =>
      clockPage(c, { triggerDraft: { ...draft, errors, ...(problem === undefined ? {} : { problem }) } });
    // The control route's own check of `url`: the page refuses what `POST /_sandbox/webhooks/trigger` refuses.
    const url = draft.url === '' ? undefined : webUrl.safeParse(draft.url);
    if (url && !url.success) return refuse({ url: url.error.issues.map((issue) => issue.message) });
    let triggered: TriggerAnswer;
    try {
      triggered = await triggerEvent(sandbox, {
        business_id: businessId,
        event_type: draft.eventType,
        object_id: draft.objectId === '' ? undefined : draft.objectId,
        url: url?.data,
      });
    } catch (error) {
      if (!(error instanceof PaykitError)) throw error;
      // Each is the person's input, said next to its field; a conflict (nowhere to send it, an object in another
      // state) is said above the form in the trigger's own words.
      if (error.code === 'validation_failed') return refuse(errorsOf(error));
      if (error.code === 'not_found') {
        return refuse({ object_id: [`must name an object of this business of the event's kind (${error.message})`] });
      }
      if (error.code === 'conflict') return refuse({}, error.message);
      throw error;
    }
    return clockPage(c, { triggered });
  });

  return pages;
}
