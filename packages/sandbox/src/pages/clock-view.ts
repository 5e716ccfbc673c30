/**
 * The dashboard's "Clock and events" page, drawn: per business its clock (now, and how far ahead of real time),
 * the forms that move it forward (by a duration, or to a date and time) and the form that sends an event on
 * demand; after a post, what it did (what happened on the way, or the deliveries made) in a status region at the
 * top, or the refused form again with each field's error next to it.
 */
import { webhookEventTypes } from '@paykit/core';
import { html } from 'hono/html';
import type { Business } from '../state.js';
import type { Happening } from '../scheduled-work.js';
import type { WebhookDelivery } from '../webhooks/dispatcher.js';
import type { TriggerAnswer } from '../webhooks/trigger.js';
import { fieldError, invalidAttributes, type FieldErrors } from './field-errors.js';
import { formContext } from './webhook-endpoints-view.js';

/** The units the advance form offers, in seconds. */
export const ADVANCE_UNITS = { minutes: 60, hours: 3_600, days: 86_400, weeks: 604_800 } as const;

/** A unit of {@link ADVANCE_UNITS}. */
export type AdvanceUnit = keyof typeof ADVANCE_UNITS;

/** One business's clock as the page shows it. */
export interface BusinessClock {
  business: Business;
  /** The business's now, epoch ms. */
  nowMs: number;
  /** Real time when the page was drawn, epoch ms. */
  realMs: number;
}

/** A refused advance form, filled again: what was typed and why it was refused. */
export interface AdvanceDraft {
  businessId: string;
  /** Which of the two forms was posted. */
  way: 'by' | 'to';
  amount: string;
  unit: string;
  to: string;
  errors: FieldErrors;
}

/** A done advance: from when to when, and what happened on the way. */
export interface AdvanceDone {
  businessId: string;
  fromMs: number;
  toMs: number;
  happened: readonly Happening[];
}

/** A refused trigger form, filled again; `problem` is a refusal that is no one field's (nowhere to send it). */
export interface TriggerDraft {
  businessId: string;
  eventType: string;
  objectId: string;
  url: string;
  errors: FieldErrors;
  problem?: string;
}

/** Everything the page shows. */
export interface ClockView {
  clocks: readonly BusinessClock[];
  csrf: string;
  advanceDraft?: AdvanceDraft;
  advanced?: AdvanceDone;
  triggerDraft?: TriggerDraft;
  triggered?: TriggerAnswer;
}

/** The instant as ISO 8601 to the second, as the API's stamps (`2026-03-14T09:00:00Z`). */
const isoSeconds = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** The instant for a person: `Sat, 14 Mar 2026, 09:00:00 UTC`, in a `<time>` a machine reads. */
const WHEN = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});
const when = (ms: number) => html`<time datetime="${isoSeconds(ms)}">${WHEN.format(ms)} UTC</time>`;

const plural = (count: number, unit: string, units = `${unit}s`) => `${count} ${count === 1 ? unit : units}`;

/**
 * A span of time in words, to the nearest minute, its two largest parts: `30 days`, `2 days 4 hours`, `45 minutes`;
 * under half a minute is `less than a minute`. (The nearest, not the floor: a clock read a few milliseconds after
 * real time was is still 30 days ahead.)
 */
export function durationWords(ms: number): string {
  const minutes = Math.round(Math.abs(ms) / 60_000);
  const parts = [
    [Math.floor(minutes / 1_440), 'day'],
    [Math.floor(minutes / 60) % 24, 'hour'],
    [minutes % 60, 'minute'],
  ] as const;
  const shown = parts.filter(([count]) => count > 0).slice(0, 2);
  return shown.length === 0 ? 'less than a minute' : shown.map(([count, unit]) => plural(count, unit)).join(' ');
}

/** How far the business's clock is from real time, in words: `30 days ahead of real time`, or on it. */
export function aheadWords(clock: BusinessClock): string {
  const ahead = clock.nowMs - clock.realMs;
  return ahead < 30_000 ? 'On real time (never advanced)' : `${durationWords(ahead)} ahead of real time`;
}

/** The `datetime-local` form of an instant, in UTC, to the minute. */
const localMinute = (ms: number) => new Date(ms).toISOString().slice(0, 16);

function advanceByForm(clock: BusinessClock, csrf: string, draft: AdvanceDraft | undefined) {
  const id = (field: string) => `clock-${field}-${clock.business.id}`;
  const mine = draft?.way === 'by' ? draft : undefined;
  const errors = mine?.errors;
  const unit = mine?.unit ?? 'days';
  return html`<form method="post" action="/dashboard/clock/advance" class="card" aria-labelledby="${id('by-legend')}">
    ${formContext(clock.business.id, csrf)}
    <h4 id="${id('by-legend')}">Advance by</h4>
    ${errors ? html`<p role="alert">The clock was not moved: correct the field marked below.</p>` : ''}
    <div class="field-row">
      <div class="field">
        <label for="${id('amount')}">Amount</label>
        <input
          type="number"
          id="${id('amount')}"
          name="amount"
          value="${mine?.amount ?? '30'}"
          min="1"
          step="1"
          required
          inputmode="numeric"
          ${invalidAttributes(errors, 'amount', id('amount'))}
        />
      </div>
      <div class="field">
        <label for="${id('unit')}">Unit</label>
        <select id="${id('unit')}" name="unit" ${invalidAttributes(errors, 'unit', id('unit'))}>
          ${Object.keys(ADVANCE_UNITS).map(
            (each) => html`<option value="${each}" ${each === unit ? 'selected' : ''}>${each}</option>`,
          )}
        </select>
      </div>
    </div>
    ${fieldError(errors, 'amount', id('amount'), 'Amount')} ${fieldError(errors, 'unit', id('unit'), 'Unit')}
    <div class="actions"><button class="pay">Advance</button></div>
  </form>`;
}

function advanceToForm(clock: BusinessClock, csrf: string, draft: AdvanceDraft | undefined) {
  const id = (field: string) => `clock-${field}-${clock.business.id}`;
  const mine = draft?.way === 'to' ? draft : undefined;
  const errors = mine?.errors;
  return html`<form method="post" action="/dashboard/clock/advance" class="card" aria-labelledby="${id('to-legend')}">
    ${formContext(clock.business.id, csrf)}
    <h4 id="${id('to-legend')}">Advance to a date and time</h4>
    ${errors ? html`<p role="alert">The clock was not moved: correct the field marked below.</p>` : ''}
    <div class="field">
      <label for="${id('to')}">Date and time (UTC)</label>
      <input
        type="datetime-local"
        id="${id('to')}"
        name="to"
        value="${mine?.to ?? ''}"
        min="${localMinute(clock.nowMs)}"
        required
        ${invalidAttributes(errors, 'to', id('to'), `${id('to')}-hint`)}
      />
      <p class="hint" id="${id('to')}-hint">
        In UTC, after the clock's now. An ISO 8601 time with its offset (<code>2027-01-31T09:00:00+08:00</code>) is read
        as written.
      </p>
      ${fieldError(errors, 'to', id('to'), 'Date and time')}
    </div>
    <div class="actions"><button class="pay">Advance to this time</button></div>
  </form>`;
}

function triggerForm(clock: BusinessClock, csrf: string, draft: TriggerDraft | undefined) {
  const id = (field: string) => `trigger-${field}-${clock.business.id}`;
  const mine = draft?.businessId === clock.business.id ? draft : undefined;
  const errors = mine?.errors;
  const chosen = mine?.eventType ?? 'charge.created';
  return html`<form method="post" action="/dashboard/clock/trigger" class="card">
    ${formContext(clock.business.id, csrf)}
    ${mine?.problem ? html`<p role="alert">The event was not sent: ${mine.problem}</p>` : ''}
    ${
      mine && Object.keys(mine.errors).length > 0
        ? html`<p role="alert">The event was not sent: correct the fields marked below.</p>`
        : ''
    }
    <div class="field">
      <label for="${id('type')}">Event type</label>
      <select id="${id('type')}" name="event_type" ${invalidAttributes(errors, 'event_type', id('type'))}>
        ${webhookEventTypes.map(
          (type) => html`<option value="${type}" ${type === chosen ? 'selected' : ''}>${type}</option>`,
        )}
      </select>
      ${fieldError(errors, 'event_type', id('type'), 'Event type')}
    </div>
    <div class="field">
      <label for="${id('object')}">Object id (optional)</label>
      <input
        type="text"
        id="${id('object')}"
        name="object_id"
        value="${mine?.objectId ?? ''}"
        spellcheck="false"
        autocomplete="off"
        ${invalidAttributes(errors, 'object_id', id('object'), `${id('object')}-hint`)}
      />
      <p class="hint" id="${id('object')}-hint">
        An object of this business of the event's kind (a charge for <code>charge.*</code>). Empty: a fresh one is made
        for the event.
      </p>
      ${fieldError(errors, 'object_id', id('object'), 'Object id')}
    </div>
    <div class="field">
      <label for="${id('url')}">URL (optional)</label>
      <input
        type="url"
        id="${id('url')}"
        name="url"
        value="${mine?.url ?? ''}"
        spellcheck="false"
        autocomplete="off"
        ${invalidAttributes(errors, 'url', id('url'), `${id('url')}-hint`)}
      />
      <p class="hint" id="${id('url')}-hint">
        Empty: to the endpoints listening to the event (and the object's own <code>webhook</code>, where the service
        sends a notification). Otherwise every format goes to this URL only: https, or http on 127.0.0.1, localhost or
        [::1].
      </p>
      ${fieldError(errors, 'url', id('url'), 'URL')}
    </div>
    <div class="actions"><button class="pay">Send event</button></div>
  </form>`;
}

/**
 * What happened while the clock moved, oldest first, as a table; or a sentence when nothing fell due. A table wider
 * than a phone scrolls sideways in its region, which the keyboard reaches (`tabindex`) and the caption names.
 */
function happenedTable(done: AdvanceDone) {
  if (done.happened.length === 0) return html`<p>Nothing of this business fell due on the way.</p>`;
  return html`<div class="table-scroll" tabindex="0" role="region" aria-labelledby="happened-caption">
    <table>
      <caption id="happened-caption">
        What happened on the way, oldest first
      </caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">What</th>
          <th scope="col">Object</th>
          <th scope="col">Summary</th>
        </tr>
      </thead>
      <tbody>
        ${done.happened.map(
          (each) =>
            html`<tr>
              <td>${when(Date.parse(each.at))}</td>
              <td><code>${each.type}</code></td>
              <td><code>${each.object_id}</code></td>
              <td>${each.summary}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function deliveryResult(delivery: WebhookDelivery): string {
  if (delivery.response_status !== null) return `${delivery.status} (HTTP ${delivery.response_status})`;
  if (delivery.last_error) return `${delivery.status}: ${delivery.last_error}`;
  return `${delivery.status}: no answer yet`;
}

const FORMATS: Record<WebhookDelivery['format'], string> = {
  event: 'Event webhook (JSON, Hitpay-Signature)',
  notification: 'Payment notification (form, hmac)',
};

function deliveriesTable(answer: TriggerAnswer) {
  return html`<div class="table-scroll" tabindex="0" role="region" aria-labelledby="deliveries-caption">
      <table>
        <caption id="deliveries-caption">
          Deliveries of ${answer.event_type}, after their first attempt
        </caption>
        <thead>
          <tr>
            <th scope="col">Format</th>
            <th scope="col">To</th>
            <th scope="col">Result</th>
          </tr>
        </thead>
        <tbody>
          ${answer.deliveries.map(
            (delivery) =>
              html`<tr>
                <td>${FORMATS[delivery.format]}</td>
                <td><code>${delivery.url}</code></td>
                <td>${deliveryResult(delivery)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
    <p class="hint">
      Each is in the <a href="/dashboard/webhooks">Webhooks</a> page's deliveries, with its request, its attempts and
      Redeliver.
    </p>`;
}

/** The outcome of the post the page answers, for the top of the page; nothing for a plain visit. */
function outcome(view: ClockView) {
  const nameOf = (id: string) => view.clocks.find((clock) => clock.business.id === id)?.business.name ?? id;
  if (view.advanced) {
    const done = view.advanced;
    const count = done.happened.length;
    return html`<section class="notice" role="status" aria-labelledby="clock-outcome">
        <h2 id="clock-outcome">Clock advanced</h2>
        <p>
          ${nameOf(done.businessId)}'s clock moved ${durationWords(done.toMs - done.fromMs)}, from ${when(done.fromMs)}
          to ${when(done.toMs)}.
          ${count === 0 ? 'Nothing fell due on the way.' : `${plural(count, 'thing')} happened on the way.`}
        </p>
      </section>
      ${count === 0 ? '' : happenedTable(done)}`;
  }
  if (view.triggered) {
    const answer = view.triggered;
    const count = answer.deliveries.length;
    return html`<section class="notice" role="status" aria-labelledby="clock-outcome">
        <h2 id="clock-outcome">Event sent</h2>
        <p>
          <code>${answer.event_type}</code> about ${answer.object.kind.replaceAll('_', ' ')}
          <code>${answer.object.id}</code>${answer.object.fresh ? ' (made for this event)' : ''}:
          ${plural(count, 'delivery', 'deliveries')}.
        </p>
      </section>
      ${deliveriesTable(answer)}`;
  }
  return '';
}

/** The page's content. */
export function clockBody(view: ClockView) {
  return html`<h1>Clock and events</h1>
    ${outcome(view)}
    <p class="muted">
      Each business has its own clock. Moving it forward does everything time-based of that business on the way, in
      order, as if the time had passed: subscription cycles bill, payment requests expire, transfers and payouts move
      on, webhook retries go out, OAuth codes and tokens expire. A clock never goes back. Events are sent on demand,
      signed with the business's salt, as the service sends them.
    </p>
    ${view.clocks.map(
      (clock) =>
        html`<section class="business" aria-labelledby="clock-${clock.business.id}">
          <h2 id="clock-${clock.business.id}">${clock.business.name}</h2>
          <h3>Clock</h3>
          <dl class="summary">
            <dt>Now</dt>
            <dd>${when(clock.nowMs)}</dd>
            <dt>Real time</dt>
            <dd>${aheadWords(clock)}</dd>
          </dl>
          ${advanceByForm(clock, view.csrf, view.advanceDraft?.businessId === clock.business.id ? view.advanceDraft : undefined)}
          ${advanceToForm(clock, view.csrf, view.advanceDraft?.businessId === clock.business.id ? view.advanceDraft : undefined)}
          <h3>Send an event</h3>
          ${triggerForm(clock, view.csrf, view.triggerDraft)}
        </section>`,
    )}`;
}
