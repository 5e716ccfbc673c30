import { BusyButton } from '../busy-button.js';
import { PaykitConnectEvent } from '../events.js';
import { text } from '../messages.js';
import { loadConnect, startConnect } from './lazy-start-connect.js';
import { dev } from '#dev';

/**
 * "Connect with Payments": sends a merchant to the payment service's dashboard (or any standard OAuth server)
 * to approve the platform's app (OAuth 2.0 authorization code with PKCE). State and verifier stay in this
 * tab's sessionStorage (with `storage="local"`, in the origin's localStorage). The authorization endpoint is `authorization-endpoint`, else the one of `issuer`'s
 * metadata, else `{dashboard-url}/oauth/authorize`.
 *
 * @tag paykit-connect-button
 * @slot - The label. Default "Connect with Payments".
 * @fires paykit-connect - Before navigating; cancelable. `detail`: `{ url }`.
 * @fires paykit-error - When the connection could not start. `detail`: `{ code, message }`.
 * @csspart button - The native button.
 * @csspart label - The label wrapper.
 * @csspart spinner - Shown while busy.
 * @csspart error - The error message.
 * @cssprop --paykit-accent - Background of the button (system token), as the pay button.
 */
export class PaykitConnectButton extends BusyButton {
  // Lit adds these to BusyButton's own (its `_busy` and `_error` states): no need to spread them.
  static override properties = {
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
  };

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
    void loadConnect();
  }

  protected async act(): Promise<PaykitConnectEvent> {
    dev?.connectButton(this);
    // The element's properties are startConnect's options, name for name.
    return new PaykitConnectEvent({ url: (await startConnect(this)).url });
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'paykit-connect-button': PaykitConnectButton;
  }
}
