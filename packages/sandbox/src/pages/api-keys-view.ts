/**
 * The "API keys" page's content: per business, what a developer copies into their server's configuration. The
 * service's dashboard shows the API key and the salt together; the sandbox shows them in clear, since its keys
 * open nothing outside the emulator. Only ever given the businesses the signed-in user is Owner or Admin of.
 */
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import type { Business } from '../state.js';

/** One read-only value with its label and a sentence on what it is for, selectable for copying. */
function keyField(id: string, label: string, value: string, hint: HtmlEscapedString | Promise<HtmlEscapedString>) {
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <input
      type="text"
      id="${id}"
      class="key"
      value="${value}"
      readonly
      spellcheck="false"
      autocomplete="off"
      aria-describedby="${id}-hint"
    />
    <p class="hint" id="${id}-hint">${hint}</p>
  </div>`;
}

/** The page's content for `businesses`, one card each. */
export function apiKeysBody(businesses: readonly Business[]) {
  return html`<h1>API keys</h1>
    <p class="muted">
      Sandbox keys, shown in clear: they open nothing outside this sandbox. Live keys belong on your server only, never
      in a page or a repository.
    </p>
    ${businesses.map(
      (business) =>
        html`<section class="card" aria-labelledby="keys-${business.id}">
          <h2 id="keys-${business.id}">${business.name}</h2>
          ${keyField(
            `business-id-${business.id}`,
            'Business id',
            business.id,
            html`The <code>business_id</code> of its webhooks and of the sandbox's control API.`,
          )}
          ${keyField(
            `api-key-${business.id}`,
            'API key',
            business.apiKey,
            html`paykit's <code>apiKey</code>: sent as <code>X-BUSINESS-API-KEY</code> on every API call.`,
          )}
          ${keyField(
            `salt-${business.id}`,
            'Salt',
            business.salt,
            html`paykit's <code>webhookSalt</code>: it signs the webhooks of this business (the
              <code>Hitpay-Signature</code> of event webhooks, the <code>hmac</code> of payment notifications).`,
          )}
          ${
            business.platformKey
              ? keyField(
                  `platform-key-${business.id}`,
                  'Platform key',
                  business.platformKey,
                  html`paykit's <code>platformKey</code>: sent as <code>X-PLATFORM-KEY</code> beside a merchant's
                    credential, for commissions and the platform's own webhooks.`,
                )
              : ''
          }
        </section>`,
    )}`;
}
