/** `<paykit-connect-button>`: a platform's "Connect with Payments" button (OAuth 2.0 with PKCE). */
import { BusyButton } from '../busy-button.js';
import { PaykitCancelEvent, PaykitConnectDeniedEvent, PaykitConnectedEvent, PaykitConnectEvent } from '../events.js';
import { text } from '../messages.js';
import { loadPopup } from '../popup/lazy-popup-connect.js';
import { loadConnect, startConnect } from '../connect/lazy-start-connect.js';
import { POPUP_FEATURES, POPUP_NAME } from '../popup/popup-window.js';
import { prefetch } from '../prefetch.js';
import { dev } from '#dev';

/**
 * "Connect with Payments": sends a merchant to the payment service's dashboard (or any standard OAuth server)
 * to approve the platform's app (OAuth 2.0 authorization code with PKCE). State and verifier stay in this
 * tab's sessionStorage (with `storage="local"`, in the origin's localStorage). The authorization endpoint is `authorization-endpoint`, else the one of `issuer`'s
 * metadata, else `{dashboard-url}/oauth/authorize`. With `popup` (and `endpoint`), the merchant approves in a
 * popup and this page exchanges the code, so that nothing the merchant typed on it is lost.
 *
 * @tag paykit-connect-button
 * @slot - The label. Default "Connect with Payments".
 * @fires paykit-connect - Before navigating (also when the browser blocked the popup); cancelable. `detail`: `{ url }`.
 * @fires paykit-connected - With `popup`: the platform's backend connected the merchant. `detail`: `{ business }`.
 * @fires paykit-connect-denied - With `popup`: the merchant declined on the consent page. `detail`: `{ description }`.
 * @fires paykit-cancel - With `popup`: the merchant closed the popup; nothing was connected. `detail`: `{}`. Should
 *   the popup's callback come after all (a callback page under `Cross-Origin-Opener-Policy` reads as a closed
 *   window, and on a slow machine may speak after the button gave up), `paykit-connected` follows.
 * @fires paykit-error - When the connection could not start or finish. `detail`: `{ code, message }`.
 * @csspart button - The native button.
 * @csspart label - The label wrapper.
 * @csspart spinner - Shown while busy.
 * @csspart error - The error message.
 * @csspart status - With `popup`: the business connected (or "cancelled" after a denial).
 * @cssprop --paykit-accent - Background of the button (system token), as the pay button.
 */
export class PaykitConnectButton extends BusyButton {
  // Lit adds these to BusyButton's own (its `_busy` and `_error` states): no need to spread them.
  static override get properties() {
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
      endpoint: {},
    };
  }

  /** The platform app's client id. */
  declare clientId: string;
  /** One of the app's registered redirect URIs: the page with `<paykit-return>`. */
  declare redirectUri: string;
  /** Space-separated scopes, such as `payments business:read`. */
  declare scope: string;
  /** The dashboard's origin, such as `http://127.0.0.1:4010` for the local sandbox: the endpoint is `{dashboard-url}/oauth/authorize`. */
  declare dashboardUrl?: string;
  /** The authorization endpoint itself, a full URL (a standard OAuth server). Wins over `issuer` and `dashboard-url`. */
  declare authorizationEndpoint?: string;
  /** The authorization server's issuer: the endpoint is read from its metadata (RFC 8414, else OpenID discovery). */
  declare issuer?: string;
  /** `prompt` of the authorization request (OpenID Connect), such as `login`. */
  declare prompt?: string;
  /** `login_hint` of the authorization request (OpenID Connect). */
  declare loginHint?: string;
  /** `resource` of the authorization request (RFC 8707): the API the tokens are for. */
  declare resource?: string;
  /**
   * Where the attempt (state and PKCE verifier) is kept: this tab's sessionStorage by default; `local` keeps it
   * in the origin's localStorage, so that a callback opened in another tab of this browser completes. Single use
   * and expiring after ten minutes either way.
   */
  declare storage?: 'local' | 'session';
  /**
   * Connects in a popup of the authorization server instead of a redirect of this page: the attempt is prepared
   * when the button is on the page, the popup opens on the click, and this page exchanges the code through
   * `endpoint` and fires `paykit-connected`. A popup the browser blocks falls back to the redirect.
   */
  declare popup?: boolean;
  /** With `popup`: where the platform's paykit handler is mounted (`/paykit`), which exchanges the code. */
  declare endpoint?: string;

  protected get defaultLabel(): string {
    return text(this).connect;
  }

  constructor() {
    super();
    this.clientId = this.redirectUri = this.scope = '';
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The connect flow's code (a lazy chunk) is fetched now, so that a click does not wait for it.
    prefetch(loadConnect);
  }

  /** After any update: a popup button's attempt is prepared (again, if a setting changed) before the click. */
  override updated(): void {
    if (this.popup) prefetch(() => loadPopup().then((popup) => popup.preparePopup(this)));
  }

  protected async act(): Promise<PaykitConnectEvent | undefined> {
    dev?.connectButton(this);
    if (this.popup && this.endpoint) {
      // Opened in the click itself, before anything is awaited: browsers allow a popup only there. It goes to the
      // prepared attempt's authorization request at once (connect-button-popup.ts).
      const popup = open('', POPUP_NAME, POPUP_FEATURES);
      const end = await (await loadPopup()).connectInPopup(this, popup);
      if ('url' in end) return new PaykitConnectEvent(end);
      // Closed, or so it seemed: a callback page that COOP cut from this one may still bring the callback.
      if ('closed' in end)
        void end.closed.then((business) => this.dispatchEvent(new PaykitConnectedEvent({ business })));
      this.dispatchEvent(
        'business' in end
          ? new PaykitConnectedEvent(end)
          : 'closed' in end
            ? new PaykitCancelEvent({})
            : new PaykitConnectDeniedEvent(end),
      );
      return;
    }
    // The element's properties are startConnect's options, name for name.
    return new PaykitConnectEvent({ url: (await startConnect(this)).url });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'paykit-connect-button': PaykitConnectButton;
  }
}
