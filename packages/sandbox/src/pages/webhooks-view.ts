/**
 * The dashboard's webhooks page, put together: the outcome of the last action (a fixed text chosen by a code in
 * the query, never text taken from it), then per business its endpoints, the form to add one and its deliveries,
 * then the fault forms.
 */
import { html } from 'hono/html';
import type { Business, WebhookEndpoint } from '../state.js';
import type { WebhookDelivery } from '../webhooks/dispatcher.js';
import { deliveryList } from './webhook-deliveries-view.js';
import { addEndpointForm, endpointList, type EndpointDraft } from './webhook-endpoints-view.js';
import { faultForms, type FaultDraft } from './webhook-faults-form.js';

/**
 * What the page says after an action, by the code the action's redirect puts in `?done=`. `alert` for what did
 * not happen, `status` for what did.
 */
export const WEBHOOK_NOTICES = {
  endpoint_added: { role: 'status', text: 'Endpoint added: the events it listens to are sent to it from now on.' },
  endpoint_removed: { role: 'status', text: 'Endpoint removed: nothing more is sent to it.' },
  endpoint_gone: { role: 'alert', text: 'That endpoint does not exist any more.' },
  test_sent: {
    role: 'status',
    text: "Test event sent: the business's latest charge again, as charge.created. Its delivery is the newest below.",
  },
  no_charge: {
    role: 'alert',
    text: "No test event sent: a test event sends the business's latest charge again, and it has no charge yet. Make a payment first.",
  },
  redelivered: { role: 'status', text: 'Sent again, byte for byte, with its retries as for a new delivery.' },
  delivery_gone: { role: 'alert', text: 'That delivery is not kept any more (a reset or a restart forgets them).' },
  armed_duplicate: { role: 'status', text: 'Armed: the next deliveries are each sent twice at once.' },
  armed_out_of_order: { role: 'status', text: 'Armed: the next deliveries are held, then sent newest first.' },
  armed_late_retry: { role: 'status', text: 'Armed: the next deliveries are each sent again after the delay.' },
} as const satisfies Record<string, { role: 'status' | 'alert'; text: string }>;

/** A code of {@link WEBHOOK_NOTICES}. */
export type WebhookNotice = keyof typeof WEBHOOK_NOTICES;

/** The notice a `?done=` value names, or undefined for anything else (which the page then ignores). */
export function noticeOf(value: string | undefined): WebhookNotice | undefined {
  // Object.hasOwn is no type guard: an own key of the table is a notice.
  return value !== undefined && Object.hasOwn(WEBHOOK_NOTICES, value) ? (value as WebhookNotice) : undefined;
}

/** Everything the page shows. */
export interface WebhooksView {
  /** The businesses the signed-in user is Owner or Admin of. */
  businesses: readonly Business[];
  csrf: string;
  endpointsOf: (businessId: string) => readonly WebhookEndpoint[];
  /** Oldest first, as the dispatcher keeps them. */
  deliveriesOf: (businessId: string) => readonly WebhookDelivery[];
  notice?: WebhookNotice;
  endpointDraft?: EndpointDraft;
  faultDraft?: FaultDraft;
}

/** The page's content. */
export function webhooksBody(view: WebhooksView) {
  const notice = view.notice && WEBHOOK_NOTICES[view.notice];
  return html`<h1>Webhooks</h1>
    ${notice ? html`<p class="notice" role="${notice.role}">${notice.text}</p>` : ''}
    <p class="muted">
      Where each business's events go, what was delivered, and faults to test a receiver with. Every delivery is signed
      with the business's salt (see API keys).
    </p>
    ${view.businesses.map(
      (business) =>
        html`<section class="business" aria-labelledby="webhooks-${business.id}">
          <h2 id="webhooks-${business.id}">${business.name}</h2>
          <h3>Endpoints</h3>
          ${endpointList(business.id, view.endpointsOf(business.id), view.csrf)}
          <h3>Add an endpoint</h3>
          ${addEndpointForm(business.id, view.csrf, view.endpointDraft)}
          <h3>Deliveries</h3>
          ${deliveryList(business.id, view.deliveriesOf(business.id), view.csrf)}
        </section>`,
    )}
    ${faultForms(view.csrf, view.faultDraft)}`;
}
