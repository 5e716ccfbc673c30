/** `<paykit-connection>`: how the platform's connection to a merchant stands, with "Connect again" when it must. */
import type { MerchantConnectionAnswer } from '@paykit/core/browser';
import { html, nothing, type PropertyDeclarations } from 'lit';
import '../connect-button/define.js';
import { text } from '../messages.js';
import { formatDate } from './money.js';
import { fetchView } from './view-fetch.js';
import { MerchantViewElement } from './view-element.js';
import { fill } from './view-messages.js';

/**
 * A connected merchant's connection, on the platform's pages: to whom (the business's name), since when, and whether
 * it works. When the platform's handler holds no working token for the merchant (`connect_again`: the service no
 * longer takes its refresh token; `not_connected`: it never held one), it says so and shows a
 * `<paykit-connect-button>`, configured by the same attributes as the button itself (`client-id`, `redirect-uri`,
 * `scope`, `dashboard-url`, `issuer`, `authorization-endpoint`, `prompt`, `login-hint`, `resource`, `storage`,
 * `popup`; a popup exchanges the code through `endpoint`). After a popup connects, it asks again.
 *
 * @tag paykit-connection
 * @fires paykit-error - The connection could not be read (refused, not found, the service down). `detail`: `{ code, message }`.
 * @fires paykit-connected - From the connect button inside (`popup`): the merchant connected again. `detail`: `{ business }`.
 * @csspart base - The box; its `data-state` is `loading`, `connected`, `connect_again`, `not_connected` or `error`.
 * @csspart business - The business's name.
 * @csspart since - When the connection was made.
 * @csspart health - The sentence saying whether the connection works.
 * @csspart connect - The `<paykit-connect-button>` (its own parts: `button`, `label`, …, through `exportparts`: `connect-button`, `connect-label`).
 * @csspart error - The error state: what the platform should check, and "Try again".
 * @cssprop --paykit-view-border - Border of the box and the tables (also `--paykit-view-background`, `--paykit-view-padding`, `--paykit-view-muted`).
 */
export class PaykitConnection extends MerchantViewElement {
  static override get properties(): PropertyDeclarations {
    return {
      clientId: { attribute: 'client-id' },
      redirectUri: { attribute: 'redirect-uri' },
      scope: {},
      dashboardUrl: { attribute: 'dashboard-url' },
      authorizationEndpoint: { attribute: 'authorization-endpoint' },
      issuer: {},
      prompt: {},
      loginHint: { attribute: 'login-hint' },
      resource: {},
      storage: {},
      popup: { type: Boolean },
      _answer: { state: true },
    };
  }

  /** The connect button's `client-id`: the platform app's client id. */
  declare clientId?: string;
  /** The connect button's `redirect-uri`: the page with `<paykit-return>`. */
  declare redirectUri?: string;
  /** The connect button's `scope`. */
  declare scope?: string;
  /** The connect button's `dashboard-url`. */
  declare dashboardUrl?: string;
  /** The connect button's `authorization-endpoint`. */
  declare authorizationEndpoint?: string;
  /** The connect button's `issuer`. */
  declare issuer?: string;
  /** The connect button's `prompt`. */
  declare prompt?: string;
  /** The connect button's `login-hint`. */
  declare loginHint?: string;
  /** The connect button's `resource`. */
  declare resource?: string;
  /** The connect button's `storage` (`local` or `session`). */
  declare storage?: 'local' | 'session';
  /** The connect button's `popup`: connect again without leaving the page (the code is exchanged through `endpoint`). */
  declare popup?: boolean;
  declare private _answer: MerchantConnectionAnswer | undefined;

  protected async load(signal: AbortSignal): Promise<void> {
    this._answer = await fetchView<MerchantConnectionAnswer>({
      endpoint: this.endpoint,
      merchant: this.merchant,
      view: 'connection',
      signal,
    });
    const words = this.words;
    const answer = this._answer;
    this._said =
      answer.state === 'connected'
        ? fill(words.connectionTo, answer.business?.name ?? answer.merchant)
        : answer.state === 'connect_again'
          ? words.connectionExpired
          : words.connectionNone;
  }

  override render() {
    const words = this.words;
    const answer = this._phase === 'ready' ? this._answer : undefined;
    const state = answer?.state ?? (this._phase === 'error' ? 'error' : 'loading');
    // The business's name stands where the language puts it ("Connected to {0}"), in bold.
    const [before, after] = words.connectionTo.split('{0}');
    return html`<div part="base" data-state=${state} aria-busy=${this._phase === 'loading'}>
      ${
        this._phase === 'error'
          ? this.renderFailure()
          : !answer
            ? html`<p>${words.connectionChecking}</p>`
            : answer.state === 'connected'
              ? html`<p>
                    ${before}<strong part="business">${answer.business?.name ?? answer.merchant}</strong>${after}
                  </p>
                  ${
                    answer.connected_at
                      ? html`<p part="since">
                          ${fill(words.connectionSince, formatDate(answer.connected_at, this.locale))}
                        </p>`
                      : nothing
                  }
                  <p part="health">${words.connectionHealthy}</p>
                  ${
                    answer.business && !answer.business.payments_enabled
                      ? html`<p part="notice">${words.connectionPaymentsOff}</p>`
                      : nothing
                  }`
              : html`<p part="health">
                    ${answer.state === 'connect_again' ? words.connectionExpired : words.connectionNone}
                  </p>
                  <paykit-connect-button
                    part="connect"
                    exportparts="button:connect-button,label:connect-label,error:connect-error"
                    .clientId=${this.clientId ?? ''}
                    .redirectUri=${this.redirectUri ?? ''}
                    .scope=${this.scope ?? ''}
                    .dashboardUrl=${this.dashboardUrl}
                    .authorizationEndpoint=${this.authorizationEndpoint}
                    .issuer=${this.issuer}
                    .prompt=${this.prompt}
                    .loginHint=${this.loginHint}
                    .resource=${this.resource}
                    .storage=${this.storage}
                    .popup=${this.popup}
                    .endpoint=${this.endpoint}
                    @paykit-connected=${this.reload}
                    >${answer.state === 'connect_again' ? text(this).connectAgain : nothing}</paykit-connect-button
                  >`
      }
      ${this.renderLive()}
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'paykit-connection': PaykitConnection;
  }
}
