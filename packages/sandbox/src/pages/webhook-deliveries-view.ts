/**
 * The deliveries part of the dashboard's webhooks page, for one business: newest first, each with the request as
 * it was sent (headers and body, signature included), every attempt's answer, and "Redeliver". A body can be
 * large (a charge with its refunds), so each is cut to a few KiB on the page; `GET /_sandbox/webhook-deliveries`
 * has it whole.
 */
import { html } from 'hono/html';
import type { WebhookDelivery } from '../webhooks/dispatcher.js';
import { formContext } from './webhook-endpoints-view.js';

/** How much of a request body the page shows. */
export const SHOWN_BODY_BYTES = 4_096;
/** How many deliveries of a business the page lists (the newest). */
export const SHOWN_DELIVERIES = 25;

/** `text` cut to `maxBytes` of UTF-8 at a character boundary, and its whole size in bytes. */
export function cutToBytes(text: string, maxBytes: number): { shown: string; bytes: number; cut: boolean } {
  const bytes = Buffer.byteLength(text);
  if (bytes <= maxBytes) return { shown: text, bytes, cut: false };
  let shown = '';
  let used = 0;
  for (const character of text) {
    used += Buffer.byteLength(character);
    if (used > maxBytes) break;
    shown += character;
  }
  return { shown, bytes, cut: true };
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

const FORMAT_WORDS: Record<WebhookDelivery['format'], string> = {
  event: 'Event webhook (JSON, Hitpay-Signature header)',
  notification: "Payment notification (form, hmac field), to the resource's webhook URL",
};

/** An answer in words: its status, or why there was none (the dispatcher's error text). */
function answerWords(status: number | null, error: string | null): string {
  if (status !== null) return `HTTP ${status}`;
  return error ? `no answer: ${error}` : 'none yet';
}

function requestDetails(delivery: WebhookDelivery) {
  const body = cutToBytes(delivery.request.body, SHOWN_BODY_BYTES);
  const headers = Object.entries(delivery.request.headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');
  return html`<details>
    <summary>Request: headers and body</summary>
    <h5>Headers</h5>
    <pre>${headers}</pre>
    <h5>Body</h5>
    <pre>${body.shown}</pre>
    ${
      body.cut
        ? html`<p class="hint">
            Showing the first ${kib(SHOWN_BODY_BYTES)} of ${kib(body.bytes)};
            <code>GET /_sandbox/webhook-deliveries</code>
            has it whole.
          </p>`
        : ''
    }
  </details>`;
}

function attemptList(delivery: WebhookDelivery) {
  if (delivery.history.length === 0) return html`<p class="hint">Not sent yet (held by an armed fault).</p>`;
  return html`<h5>Attempts, oldest first</h5>
    <ol class="attempts">
      ${delivery.history.map(
        (attempt) =>
          html`<li>
            <span>${attempt.at}: ${answerWords(attempt.status, attempt.error)}</span>
            ${
              attempt.response_body
                ? html`<details>
                    <summary>Answer body</summary>
                    <pre>${attempt.response_body}</pre>
                  </details>`
                : ''
            }
          </li>`,
      )}
    </ol>`;
}

/** The deliveries of one business (newest first), each with its request, its attempts and "Redeliver". */
export function deliveryList(businessId: string, deliveries: readonly WebhookDelivery[], csrf: string) {
  if (deliveries.length === 0) {
    return html`<p>Nothing delivered yet. Register an endpoint, then make a payment or send a test event.</p>`;
  }
  const newest = [...deliveries].reverse().slice(0, SHOWN_DELIVERIES);
  return html`${
      deliveries.length > newest.length
        ? html`<p class="hint">The ${newest.length} newest of ${deliveries.length} deliveries.</p>`
        : ''
    }
    <ul class="plain">
      ${newest.map(
        (delivery) =>
          html`<li class="card">
            <h4><code>${delivery.event}</code> <span class="badge">${delivery.status}</span></h4>
            <dl class="summary">
              <dt>To</dt>
              <dd><code>${delivery.url}</code></dd>
              <dt>Format</dt>
              <dd>${FORMAT_WORDS[delivery.format]}</dd>
              <dt>Created</dt>
              <dd>${delivery.created_at}</dd>
              <dt>Attempts</dt>
              <dd>${delivery.attempts}</dd>
              <dt>Last answer</dt>
              <dd>${answerWords(delivery.response_status, delivery.last_error)}</dd>
            </dl>
            ${requestDetails(delivery)} ${attemptList(delivery)}
            <form method="post" action="/dashboard/webhooks/deliveries/redeliver">
              ${formContext(businessId, csrf)}
              <input type="hidden" name="delivery_id" value="${delivery.id}" />
              <button class="secondary">
                Redeliver<span class="visually-hidden"> ${delivery.event} to ${delivery.url}</span>
              </button>
            </form>
          </li>`,
      )}
    </ul>`;
}
