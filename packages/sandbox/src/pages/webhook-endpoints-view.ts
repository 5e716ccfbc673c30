/**
 * The endpoints part of the dashboard's webhooks page, for one business: what is registered (name, URL, events)
 * with "Send test event" and "Remove" for each, and the form that registers another, the same record
 * `POST /v1/webhook-events` makes.
 */
import { webhookEventTypes } from '@paykit/core';
import { html } from 'hono/html';
import type { WebhookEndpoint } from '../state.js';
import { fieldError, invalidAttributes, type FieldErrors } from './field-errors.js';

/** What the add form shows again after a refusal: what was typed, and why it was refused. */
export interface EndpointDraft {
  businessId: string;
  name: string;
  url: string;
  eventTypes: readonly string[];
  errors: FieldErrors;
}

/**
 * The events ticked on an empty form: those a payment sends (the usual reason to register an endpoint in the
 * sandbox). The API has no default; the form only suggests one.
 */
const SUGGESTED_EVENTS: readonly string[] = [
  'charge.created',
  'charge.updated',
  'charge.failed',
  'payment_request.completed',
  'payment_request.failed',
];

/** The hidden fields every form of a business's section carries: which business, and the session's CSRF token. */
export function formContext(businessId: string, csrf: string) {
  return html`<input type="hidden" name="business_id" value="${businessId}" />
    <input type="hidden" name="csrf" value="${csrf}" />`;
}

/** The registered endpoints of one business, each with its two buttons. */
export function endpointList(businessId: string, endpoints: readonly WebhookEndpoint[], csrf: string) {
  if (endpoints.length === 0) {
    return html`<p>
      No endpoint is registered: events of this business go nowhere but a payment request's own <code>webhook</code>.
    </p>`;
  }
  return html`<ul class="plain">
    ${endpoints.map(
      (endpoint) =>
        html`<li class="card">
          <h4>${endpoint.name}</h4>
          <dl class="summary">
            <dt>URL</dt>
            <dd><code>${endpoint.url}</code></dd>
            <dt>Events</dt>
            <dd>${endpoint.eventTypes.join(', ')}</dd>
          </dl>
          <div class="actions">
            <form method="post" action="/dashboard/webhooks/endpoints/test">
              ${formContext(businessId, csrf)}
              <input type="hidden" name="endpoint_id" value="${endpoint.id}" />
              <button class="secondary">
                Send test event<span class="visually-hidden"> to ${endpoint.name}</span>
              </button>
            </form>
            <form method="post" action="/dashboard/webhooks/endpoints/remove">
              ${formContext(businessId, csrf)}
              <input type="hidden" name="endpoint_id" value="${endpoint.id}" />
              <button class="fail">Remove<span class="visually-hidden"> ${endpoint.name}</span></button>
            </form>
          </div>
        </li>`,
    )}
  </ul>`;
}

/** The form that registers an endpoint on `businessId`; `draft`, when it is this business's, fills it again. */
export function addEndpointForm(businessId: string, csrf: string, draft: EndpointDraft | undefined) {
  const mine = draft?.businessId === businessId ? draft : undefined;
  const errors = mine?.errors;
  const ticked = mine?.eventTypes ?? SUGGESTED_EVENTS;
  const id = (field: string) => `endpoint-${field}-${businessId}`;
  // The events' error sits inside their fieldset, after its legend, so it is read with the group; aria-invalid
  // is not allowed on a group, so the fieldset carries none.
  return html`<form method="post" action="/dashboard/webhooks/endpoints">
    ${formContext(businessId, csrf)}
    ${errors ? html`<p role="alert">The endpoint was not added: correct the fields marked below.</p>` : ''}
    <div class="field">
      <label for="${id('name')}">Name</label>
      <input
        type="text"
        id="${id('name')}"
        name="name"
        value="${mine?.name ?? ''}"
        maxlength="255"
        required
        ${invalidAttributes(errors, 'name', id('name'))}
      />
      ${fieldError(errors, 'name', id('name'), 'Name')}
    </div>
    <div class="field">
      <label for="${id('url')}">URL</label>
      <input
        type="url"
        id="${id('url')}"
        name="url"
        value="${mine?.url ?? ''}"
        required
        spellcheck="false"
        autocomplete="off"
        ${invalidAttributes(errors, 'url', id('url'), `${id('url')}-hint`)}
      />
      <p class="hint" id="${id('url')}-hint">https, or http on 127.0.0.1, localhost or [::1] for a local receiver.</p>
      ${fieldError(errors, 'url', id('url'), 'URL')}
    </div>
    <fieldset>
      <legend>Events</legend>
      ${fieldError(errors, 'event_types', id('events'), 'Events')}
      <div class="checks">
        ${webhookEventTypes.map(
          (type) =>
            html`<label class="choice"
              ><input type="checkbox" name="event_types" value="${type}" ${ticked.includes(type) ? 'checked' : ''} />
              <code>${type}</code></label
            >`,
        )}
      </div>
    </fieldset>
    <div class="actions"><button class="pay">Add endpoint</button></div>
  </form>`;
}
