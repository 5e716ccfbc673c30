import { BusyButton } from '../busy-button.js';
import { PaykitConnectEvent } from '../events.js';
import { text } from '../messages.js';
import { startConnect } from './start-connect.js';

/**
 * "Connect with Payments": sends a merchant to the payment service's dashboard to approve the platform's
 * app (OAuth 2.0 authorization code with PKCE). State and verifier stay in this tab's sessionStorage.
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
  static override properties = {
    ...BusyButton.properties,
    clientId: { attribute: 'client-id' },
    redirectUri: { attribute: 'redirect-uri' },
    scope: {},
    dashboardUrl: { attribute: 'dashboard-url' },
  };

  /** The platform app's client id. */
  declare clientId: string;
  /** One of the app's registered redirect URIs: the page with `<paykit-return>`. */
  declare redirectUri: string;
  /** Space-separated scopes, such as `payments business:read`. */
  declare scope: string;
  /** The dashboard's origin, such as `http://127.0.0.1:4010` for the local sandbox. */
  declare dashboardUrl: string;

  protected get defaultLabel(): string {
    return text(this).connect;
  }

  constructor() {
    super();
    this.clientId = this.redirectUri = this.scope = this.dashboardUrl = '';
  }

  protected async act(): Promise<boolean> {
    const { url } = await startConnect({
      clientId: this.clientId,
      redirectUri: this.redirectUri,
      scope: this.scope,
      dashboardUrl: this.dashboardUrl,
    });
    if (!this.dispatchEvent(new PaykitConnectEvent({ url }))) return false;
    location.assign(url);
    return true;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'paykit-connect-button': PaykitConnectButton;
  }
}
