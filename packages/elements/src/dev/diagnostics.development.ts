/**
 * The development build's `#dev`: console messages for the developer wiring paykit into a page, each naming the
 * element, the attribute, the value received and the fix (as Stripe.js and Lit's dev mode do). Selected by the
 * `development` export condition, which Vite's dev server and webpack's development mode set by themselves
 * (esbuild: `--conditions=development`); the script-tag file with them is `paykit.development.js`.
 *
 * Shoppers never read these: the elements show their own short words, and these go to the console only.
 */
import { parseWebUrl, PaykitError } from '@paykit/core/browser';
import { latestRequest, type LatestRequest } from '../connect/latest-request.js';
import { topAllowed } from '../framed/top-allowed.js';
import type { ConnectButtonConfig, Diagnostics, PayButtonConfig } from './diagnostics-api.js';
import { merchantView } from './merchant-view.development.js';

/** How long `<paykit-return>` may wait for a framework to set its `endpoint` before the console is told. */
export const RETURN_ENDPOINT_GRACE_MS = 2_000;

/** The example origin of the payment service's checkout in the messages. */
const CHECKOUT_EXAMPLE = 'https://checkout.example';

function say(level: 'warn' | 'error', element: Element, words: string): void {
  // The element goes last, so that the console links to it in the page. The console is this module's purpose.
  // eslint-disable-next-line no-console
  console[level](`[paykit] <${element.localName}>${words}`, element);
}

const quoted = (value: unknown) => (value === undefined || value === null ? 'nothing' : JSON.stringify(value));

function words(value: unknown): string[] {
  return (typeof value === 'string' ? value : '').split(/\s+/).filter(Boolean);
}

function payButton(element: PayButtonConfig): void {
  const { amount, currency } = element;
  const given = /\.(\d*[1-9])/.exec(amount ?? '')?.[1]?.length ?? 0;
  // Intl's own, not core's currencyMinorUnit (the same rule): importing core's amounts here made Rolldown split
  // paykit.development.js, which then imported a shared chunk at load (test/chunk-load-words.test.ts).
  let digits: number | undefined;
  try {
    if (currency)
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits;
  } catch {
    // An unknown currency: the backend says so.
  }
  if (digits !== undefined && given > digits)
    say(
      'error',
      element,
      ` has amount="${amount}" in ${currency!.toUpperCase()}, which has ${digits === 0 ? 'no decimals' : `${digits} decimal places`} ` +
        `(ISO 4217), so a click sends nothing: paykit never rounds a price. ` +
        `Write the price as the currency has it${digits === 0 ? `, such as amount="${amount!.split('.')[0]}"` : ''}.`,
    );
  if (!element.endpoint)
    say(
      'error',
      element,
      ` has no endpoint (received ${quoted(element.getAttribute('endpoint'))}), so a click sends nothing. ` +
        'Set it to the path where your paykit handler is mounted: endpoint="/paykit".',
    );
  const origins = words(element.checkoutOrigins);
  if (origins.length === 0)
    say(
      'error',
      element,
      ` has no checkout-origins (received ${quoted(element.checkoutOrigins || undefined)}), so a click sends nothing. ` +
        `Set it to the origin of the payment service's checkout: checkout-origins="${CHECKOUT_EXAMPLE}" ` +
        "(for the local sandbox, the sandbox's own URL, such as http://127.0.0.1:4010).",
    );
  for (const origin of origins) {
    const url = parseWebUrl(origin);
    if (!url)
      say(
        'error',
        element,
        `'s checkout-origins has ${quoted(origin)}, which is not an https origin (http only on localhost), so a ` +
          `click sends nothing. Write scheme, host and port only: "${CHECKOUT_EXAMPLE}".`,
      );
    else if (url.href !== `${url.origin}/`)
      say(
        'warn',
        element,
        `'s checkout-origins has ${quoted(origin)}: only its origin counts. Write ${quoted(url.origin)}.`,
      );
  }
  dropInAttributes(element, origins);
}

/** The pay button's `drop-in` and `return-url`, checked before a click sends anything. */
function dropInAttributes(element: PayButtonConfig, origins: readonly string[]): void {
  const dropIn = element.dropIn;
  if (typeof dropIn === 'string' && dropIn) {
    const script = parseWebUrl(dropIn);
    if (!script)
      say(
        'error',
        element,
        `'s drop-in is ${quoted(dropIn)}, which is not an absolute https URL (http only on localhost), so the ` +
          'drop-in is not loaded and a click takes the shopper to the checkout page. Leave it empty for /hitpay.js ' +
          `on the checkout's origin, or write the script's full URL: drop-in="${CHECKOUT_EXAMPLE}/hitpay.js".`,
      );
    else if (!origins.some((origin) => parseWebUrl(origin)?.origin === script.origin))
      say(
        'error',
        element,
        `'s drop-in script is on ${script.origin}, which is not in checkout-origins (${quoted(element.checkoutOrigins)}), ` +
          'so it is not loaded and a click takes the shopper to the checkout page. If it is the payment ' +
          `service's script, add its origin: checkout-origins="${[...origins, script.origin].join(' ')}".`,
      );
  }
  if (!element.returnUrl) return;
  if (dropIn === undefined || dropIn === null || dropIn === false)
    say(
      'warn',
      element,
      ` has return-url (${quoted(element.returnUrl)}) but no drop-in: return-url is where the button goes after a ` +
        "payment made in the drop-in overlay; a redirect to the checkout comes back to your backend's returnUrl.",
    );
  let page: URL | undefined;
  try {
    page = new URL(element.returnUrl, location.href);
  } catch {
    // Not a URL: said below.
  }
  if (page?.origin !== location.origin)
    say(
      'error',
      element,
      `'s return-url is ${quoted(element.returnUrl)}, which is not a page of this origin (${location.origin}), so ` +
        'after a payment in the drop-in the button stays on this page and shows the outcome instead of going ' +
        'there. Write the path of your return page, the one with <paykit-return>: return-url="/return".',
    );
}

function dropInUnavailable(element: PayButtonConfig, result: { url: string; script?: string | undefined }): void {
  const checkout = new URL(result.url).origin;
  if (!result.script) {
    say(
      'error',
      element,
      ` could not show the drop-in: its script URL is not an https URL on checkout-origins (see the message above), ` +
        `so the shopper was taken to the checkout page (${result.url}) instead.`,
    );
    return;
  }
  const script = new URL(result.script).origin;
  say(
    'error',
    element,
    ` could not show the drop-in: its script ${result.script} did not load within 10 s, or the page refused the ` +
      `overlay's frame of ${checkout}, so the shopper was taken to the checkout page instead. If this page has a ` +
      `Content-Security-Policy, allow both: script-src 'self' ${script}; frame-src ${checkout} (the payment ` +
      'service asks the same of pages with its drop-in). If it enforces Trusted Types (require-trusted-types-for ' +
      "'script'), add paykit's policy to its list: trusted-types lit-html paykit-drop-in. Otherwise a content " +
      'blocker or the network kept the script out.',
  );
}

function popupBlocked(element: ConnectButtonConfig): void {
  say(
    'warn',
    element,
    ' could not open its popup: the browser refused the window (a popup blocker; a sandboxed frame without ' +
      'allow-popups; a click that did not reach the button as a click of the person), so the merchant was sent by ' +
      'redirect instead, and comes back to the redirect-uri page. The popup opens only in the click itself: call ' +
      "nothing before it (this button does not), and let this origin's popups through.",
  );
}

/** The `sandbox` an embedding iframe needs for every way out of it, as the messages below advise it. */
const SANDBOX_ADVICE =
  'sandbox="allow-scripts allow-same-origin allow-forms allow-top-navigation-by-user-activation allow-popups allow-popups-to-escape-sandbox"';

const isPayButton = (element: HTMLElement): element is PayButtonConfig => element.localName === 'paykit-pay-button';

function framed(element: HTMLElement): void {
  if (top === self) return;
  const allowed = topAllowed();
  const pay = isPayButton(element);
  const page = pay ? 'the checkout' : 'the authorization page';
  const how =
    allowed === false
      ? ` is inside a frame whose sandbox attribute has neither allow-top-navigation-by-user-activation nor ` +
        `allow-top-navigation, so a click cannot take the top window to ${page} (which refuses to be framed): it ` +
        'opens it in a new tab, which needs allow-popups (and allow-popups-to-escape-sandbox, or the page runs ' +
        'sandboxed too), and without them the shopper is told that the page cannot open. Give the iframe '
      : allowed
        ? ` is inside a frame: a click takes the top window to ${page} (which refuses to be framed), and the return ` +
          'page opens in the top window, not in this frame. A sandboxed iframe needs '
        : ` is inside a frame of another origin, whose sandbox this page cannot read: a click takes the top window to ${page} ` +
          '(which refuses to be framed); if the sandbox refuses, it opens a new tab (allow-popups), or asks the shopper to ' +
          'press again. If you control the embedding page, give the iframe no sandbox, or ';
  say(
    'warn',
    element,
    how +
      `${SANDBOX_ADVICE} (allow-top-navigation-by-user-activation lets only a click move the top window, and only ` +
      'while the click is recent: keep the backend fast).' +
      (pay && (element.dropIn === '' || element.dropIn)
        ? ' Its drop-in is not used in a frame (the overlay would be confined to the frame): the checkout page opens instead.'
        : '') +
      (pay
        ? ''
        : " With a parent of another site, the browser partitions this frame's storage, so the attempt kept here is " +
          'not found by the callback in the top window: put the connect button on a page of its own, or in a frame of the same site.'),
  );
}

function connectButton(element: ConnectButtonConfig): void {
  const missing = (attribute: string, value: string, example: string) => {
    if (!value.trim())
      say(
        'error',
        element,
        ` has no ${attribute} (received ${quoted(value)}), so a click goes nowhere. Set ${example}.`,
      );
  };
  missing('client-id', element.clientId, 'it to your platform app\'s client id: client-id="app_123"');
  missing(
    'redirect-uri',
    element.redirectUri,
    'it to one of your app\'s registered redirect URIs, the page with <paykit-return>: redirect-uri="https://platform.example/connected"',
  );
  missing('scope', element.scope, 'it to the scopes your app asks for: scope="payments business:read"');
  if (element.redirectUri && !parseWebUrl(element.redirectUri))
    say(
      'error',
      element,
      `'s redirect-uri is ${quoted(element.redirectUri)}, which is not an absolute https URL (http only on ` +
        'localhost), so a click goes nowhere. Write the full registered redirect URI.',
    );
  if (!element.authorizationEndpoint && !element.issuer && !element.dashboardUrl)
    say(
      'error',
      element,
      ' has none of issuer, authorization-endpoint or dashboard-url, so it does not know where to send the ' +
        'merchant. Set issuer="https://auth.example" (a standard OAuth server) or dashboard-url (the Payments dashboard).',
    );
  const callback = parseWebUrl(element.redirectUri);
  if (callback && callback.origin !== location.origin)
    say(
      'warn',
      element,
      `'s redirect-uri is on ${callback.origin}, another origin than this page (${location.origin}). The attempt ` +
        "(its state and PKCE verifier) is kept in this origin's storage, which a page of another origin cannot " +
        'read, so every callback there ends in state_unknown ("The connection did not go through"). Put the ' +
        `button on a page of ${callback.origin}, or register a redirect URI on ${location.origin}.`,
    );
  if (element.popup && !element.endpoint)
    say(
      'error',
      element,
      ` has popup but no endpoint (received ${quoted(element.getAttribute('endpoint'))}), so it cannot exchange the ` +
        "code on this page and connects by redirect instead. Set it to the path where your platform's paykit " +
        'handler is mounted: endpoint="/paykit".',
    );
  if (element.storage && !/^(local|session)$/.test(element.storage))
    say(
      'warn',
      element,
      `'s storage is ${quoted(element.storage)}, which is neither "local" (the origin's localStorage, so that a ` +
        'callback in another tab of this browser completes) nor "session" (the default), so this tab\'s ' +
        'sessionStorage keeps the attempt.',
    );
}

function returnPage(element: HTMLElement & { endpoint: string }): void {
  setTimeout(() => {
    if (element.isConnected && !element.endpoint)
      say(
        'error',
        element,
        ` has had no endpoint for ${RETURN_ENDPOINT_GRACE_MS / 1000} s, so it confirms nothing and the page keeps ` +
          'saying "Confirming your payment". Set endpoint="/paykit", the path where your paykit handler is mounted.',
      );
  }, RETURN_ENDPOINT_GRACE_MS);
}

/**
 * Why a connection callback was refused, by code. The page shows one sentence for all of them ("The connection
 * did not go through"), since the merchant's remedy is the same; the developer reads the cause here.
 */
const CALLBACK_REFUSALS: { readonly [code: string]: string } = {
  state_missing: 'the callback URL has no state (or no code), so it was not sent anywhere',
  state_unknown:
    "this browser tab did not start the connection (the callback's state is not among the attempts this origin " +
    'keeps here: sessionStorage, and localStorage for storage="local"), so the code was not sent anywhere',
  state_expired: 'the connection was started more than ten minutes ago; its state has expired',
  code_reused: 'the backend refused an authorization code it has already exchanged or tried (a replay)',
  issuer_mismatch:
    "the callback's iss is not the authorization server the backend is configured with (RFC 9207 mix-up " +
    'defence); the code was sent nowhere',
  upstream_error: 'the authorization server sent the merchant back with an error other than access_denied',
};

/**
 * Why a callback's attempt was not found, from what this tab and this browser remember of the latest connection
 * (latest-request.ts: kept by every attempt where the attempt is, this tab's sessionStorage, or the origin's
 * localStorage with storage="local").
 */
function likelyCause(): string {
  let latest: LatestRequest | undefined;
  for (const place of ['sessionStorage', 'localStorage'] as const)
    try {
      latest ??= latestRequest(globalThis[place]);
    } catch {
      // That storage is refused: nothing is known of it.
    }
  if (!latest)
    return (
      ' No connection was started from this origin in this tab, nor one with storage="local" in this browser, so ' +
      'the likely cause is another tab (an email link opened in a new tab: set storage="local" on ' +
      "<paykit-connect-button>, storage: 'local' for startConnect, so that any tab of this browser completes it), " +
      'another browser (an in-app browser handing the link over to the system browser), or a ' +
      '<paykit-connect-button> on a page of another origin than this one: its redirect-uri must be on the origin ' +
      "of the button's page, whose storage is the only one that holds the attempt."
    );
  return latest.local
    ? ' The latest connection from this origin kept its attempt in localStorage (storage="local"), which every tab ' +
        'of this browser reads, so the likely cause is another browser, an attempt over ten minutes old that was ' +
        'already pruned, or cleared site data.'
    : ' This tab started a connection of its own, and this callback is not of it, so the likely cause is another ' +
        'tab: the merchant finished in a tab that did not start it (an email link opened in a new tab, a new window). Set ' +
        'storage="local" on <paykit-connect-button> (storage: \'local\' for startConnect) so that any tab of this ' +
        'browser completes it. Otherwise: another browser.';
}

function failure(element: HTMLElement, error: unknown): void {
  if (!(error instanceof PaykitError)) return;
  const refusal = element.localName === 'paykit-return' ? CALLBACK_REFUSALS[error.code] : undefined;
  if (refusal && error.status === undefined) {
    const again =
      'connectAgain' in error && error.connectAgain
        ? 'The page offers "Connect again", which starts the latest connection of this origin again.'
        : 'The page asks to connect again.';
    say(
      'warn',
      element,
      `: the connection was refused (${error.code}): ${refusal}.${error.code === 'state_unknown' ? likelyCause() : ''} ${again}`,
    );
    return;
  }
  if (error.code === 'insecure_context') {
    say(
      'error',
      element,
      `: this page (${location.origin}) is not a secure context, so the browser gives it no crypto.subtle (Web ` +
        'Crypto), which connecting needs for PKCE; nothing was started. Serve the page over https (plain http is ' +
        'a secure context on localhost and 127.0.0.1 only), or open it as http://localhost while you develop.',
    );
    return;
  }
  const endpoint = 'endpoint' in element && typeof element.endpoint === 'string' ? element.endpoint : '';
  const handler = endpoint ? new URL(endpoint, location.href).href : 'the handler';
  const page = location.origin;
  if (error.code === 'cross_site_request')
    say(
      'error',
      element,
      `: the handler at ${handler} refused this page's origin ${page} (403 cross_site_request). If ${page} ` +
        `is the shop's own site, set publicOrigin: '${page}' in createPaykitHandler (behind a proxy, such as ` +
        `Vite's dev server, the handler cannot tell it from the Host header); if it is another site of yours, ` +
        `add allowedOrigins: ['${page}'].`,
    );
  else if (error.code === 'network_error')
    say(
      'error',
      element,
      ` could not reach ${handler}. Check that your server is running and that endpoint is the path where the ` +
        `handler is mounted. If the handler is on another origin than this page (${page}), the browser hides ` +
        `its answers unless the handler allows ${page}: add it to allowedOrigins, which sends the CORS headers ` +
        '(the console message above and the Network tab say which it is).',
    );
  else if (error.code === 'api_unreachable' || error.code === 'api_key_refused')
    // The handler did answer: the page and the endpoint are right, the shop's server is not.
    say(
      'error',
      element,
      `: ${handler} answered, but the shop's server ` +
        (error.code === 'api_unreachable'
          ? 'could not reach the Payments API (502 api_unreachable). Check apiBaseUrl in createPaykitHandler and ' +
            "that the API, or the local sandbox, is running; the server's log names the address it tried."
          : 'was refused by the Payments API: its API key was not accepted (502 api_key_refused). Check apiKey in ' +
            "createPaykitHandler: the business's key for the environment apiBaseUrl points to. The server's log says more."),
    );
  else if (error.code === 'checkout_misconfigured') {
    const currency = 'currency' in element && typeof element.currency === 'string' ? element.currency : '';
    say(
      'error',
      element,
      `: ${handler} answered, but the shop's server cannot charge the price its createPaymentRequest decided ` +
        '(500 checkout_misconfigured): a currency that is no ISO 4217 code, an amount with more decimals than ' +
        `its currency has, or another currency than this button's${currency ? ` (currency="${currency}")` : ''}. ` +
        "The server's log names the value to fix; the shopper reads that the shop cannot take the payment now.",
    );
  } else if (error.code === 'unsafe_url' && 'checkoutOrigins' in element && typeof error.cause === 'string') {
    const received = parseWebUrl(error.cause);
    say(
      'error',
      element,
      received
        ? `: the backend sent a checkout URL on ${received.origin}, which is not in checkout-origins ` +
            `(${quoted(element.checkoutOrigins)}), so the shopper stays here and that payment request stays ` +
            `pending. If ${received.origin} is the payment service's checkout, add it: ` +
            `checkout-origins="${[...words(element.checkoutOrigins), received.origin].join(' ')}".`
        : `: the backend sent a checkout URL that is not https (${quoted(error.cause)}); it was refused.`,
    );
  } else if ((error.status === 404 || error.status === 405) && error.code !== 'not_found')
    say(
      'error',
      element,
      `: ${handler} answered ${error.status}. Is endpoint the path where your paykit handler is mounted?`,
    );
}

/** The diagnostics of the development build. */
export const dev: Diagnostics | undefined = {
  payButton,
  connectButton,
  returnPage,
  failure,
  dropInUnavailable,
  popupBlocked,
  framed,
  merchantView,
};
