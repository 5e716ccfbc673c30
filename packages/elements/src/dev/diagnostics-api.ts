/**
 * What the development build tells a developer, and where the elements call it. The production build exports
 * `undefined` in its place (`#dev` resolves by the `development` export condition, as Lit's own dev mode), so
 * every call site is `dev?.…(…)` and none of the words below reach a shopper's download.
 */
/** The diagnostics of the development build. */
export interface Diagnostics {
  /** Checks a pay button's attributes before its click sends anything; warns for each problem. */
  payButton(element: PayButtonConfig): void;
  /** Checks a connect button's attributes before its click sends anything; warns for each problem. */
  connectButton(element: ConnectButtonConfig): void;
  /** Watches a `<paykit-return>` as it joins the page, and warns if it still has no `endpoint` a little later. */
  returnPage(element: HTMLElement & { endpoint: string }): void;
  /** Explains a failure of `element`'s call to its `endpoint` (a 403 for this origin, CORS, a wrong checkout origin). */
  failure(element: HTMLElement, error: unknown): void;
  /**
   * Explains why a pay button's drop-in could not be shown (its script refused by the page's policy, a blocker or
   * the network; its frame refused by `frame-src`; a script URL not on `checkout-origins`), so that the shopper
   * went to the checkout page instead: the directives to add.
   */
  dropInUnavailable(element: PayButtonConfig, result: { url: string; script?: string | undefined }): void;
  /** Says that the browser blocked a connect button's popup, so that the merchant was sent by redirect instead. */
  popupBlocked(element: ConnectButtonConfig): void;
  /**
   * Called by every button as it joins the page: when it is inside a frame, says how its click leaves the frame
   * (the top window, or a new tab when the frame's sandbox forbids it) and what the embedding page's iframe needs.
   */
  framed(element: HTMLElement): void;
  /**
   * Called by a merchant view (`<paykit-connection>`, `<paykit-merchant-payments>`, `<paykit-merchant-payouts>`) as
   * it joins the page (warns when it still lacks `endpoint` or `merchant` a little later), and with the `error` its
   * routes answered: the attribute, or the handler's option, to fix.
   */
  merchantView(element: MerchantViewConfig, error?: unknown): void;
}

/** A merchant view's attributes the diagnostics read. */
export interface MerchantViewConfig extends HTMLElement {
  endpoint: string;
  merchant: string;
}

/** The pay button's attributes the diagnostics read. */
export interface PayButtonConfig extends HTMLElement {
  endpoint: string;
  amount?: string | undefined;
  currency?: string | undefined;
  checkoutOrigins?: string | undefined;
  dropIn?: string | boolean | null | undefined;
  returnUrl?: string | undefined;
}

/** The connect button's attributes the diagnostics read. */
export interface ConnectButtonConfig extends HTMLElement {
  clientId: string;
  redirectUri: string;
  scope: string;
  dashboardUrl?: string | undefined;
  issuer?: string | undefined;
  authorizationEndpoint?: string | undefined;
  storage?: string | undefined;
  popup?: boolean | undefined;
  endpoint?: string | undefined;
}
