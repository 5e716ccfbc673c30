/**
 * `/v1/webhook-events`: where a business's events are sent, as the real service registers them (its webhook-events
 * OpenAPI, `api-evangelist/hitpay`, `openapi/hitpay-webhook-events-api-openapi.yml`). List (a plain array), create,
 * read, update (any of the fields) and delete. API key only: the operation table's rows are `api-key-only`, so the
 * `/v1` middleware refuses Bearer tokens before these run. Each business sees its own endpoints only.
 */
import type { WebhookEventType } from '@paykit/core';
import type { HandlersOf } from '../operation-call.js';
import { isoWithOffset } from '../clock.js';
import type { SandboxContext } from '../context.js';
import { notFound } from '../errors.js';
import type { WebhookEndpoint } from '../state.js';
import type { WireOf } from '../wire.js';

/** An endpoint as the webhook-events API answers it, dates with their offset as in the service's examples. */
export function webhookEndpointJson(endpoint: WebhookEndpoint): WireOf<'webhookEvents.get'> {
  return {
    id: endpoint.id,
    business_id: endpoint.businessId,
    name: endpoint.name,
    url: endpoint.url,
    event_types: [...endpoint.eventTypes],
    created_at: isoWithOffset(endpoint.createdAt),
    updated_at: isoWithOffset(endpoint.updatedAt),
  };
}

/** The service's not-found text for an endpoint (its OpenAPI's 404 example): the Laravel model and the id. */
const endpointNotFound = (id: string) => notFound(`No query results for model [App\\Business\\Webhook] ${id}`);

/** True when two lists of events are the same events in the same order. */
const sameEvents = (a: readonly WebhookEventType[], b: readonly WebhookEventType[]) =>
  a.length === b.length && a.every((type, i) => type === b[i]);

/** The webhook-endpoint operations (API key only: the table's rows are `api-key-only`). */
export function webhookEventHandlers(sandbox: SandboxContext): HandlersOf<'webhookEvents'> {
  const { state } = sandbox;

  /** The business's endpoint `id`, or the service's 404 (another business's endpoint is not found either). */
  const endpointIn = (businessId: string, id: string) => {
    const found = state.endpointOf(businessId, id);
    if (!found) throw endpointNotFound(id);
    return found;
  };

  return {
    // Oldest first, as they were registered: the service documents no order and no paging for this list.
    'webhookEvents.list': ({ businessId }) => state.endpointsOf(businessId).map(webhookEndpointJson),

    'webhookEvents.create': async ({ c, businessId, body }) => {
      const input = await body();
      const endpoint = state.addEndpoint(
        {
          businessId,
          name: input.name,
          url: input.url,
          eventTypes: input.event_types,
        },
        sandbox.clocks.now(businessId),
      );
      return c.json(webhookEndpointJson(endpoint), 201);
    },

    'webhookEvents.get': ({ params, businessId }) => webhookEndpointJson(endpointIn(businessId, params.id)),

    // Only the fields given change; `updated_at` moves only when one of them did (the service's 404 text is
    // Laravel's, whose models are saved only when a field changed: the sandbox's reading, not documented).
    'webhookEvents.update': async ({ params, businessId, body }) => {
      // The endpoint first: an unknown id is 404 whatever the body holds (the order is the sandbox's choice). Found
      // again after the body is read, in case a delete came in between.
      endpointIn(businessId, params.id);
      const input = await body();
      const endpoint = endpointIn(businessId, params.id);
      const next = {
        name: input.name ?? endpoint.name,
        url: input.url ?? endpoint.url,
        eventTypes: input.event_types ?? endpoint.eventTypes,
      };
      const changed =
        next.name !== endpoint.name || next.url !== endpoint.url || !sameEvents(next.eventTypes, endpoint.eventTypes);
      if (changed) Object.assign(endpoint, next, { updatedAt: sandbox.clocks.now(businessId) });
      return webhookEndpointJson(endpoint);
    },

    // The service's OpenAPI says 204 and shows a body of `1`; a 204 has no body, so the sandbox sends none.
    'webhookEvents.delete': ({ c, params, businessId }) => {
      state.webhookEndpoints.delete(endpointIn(businessId, params.id).id);
      return c.body(null, 204);
    },
  };
}
