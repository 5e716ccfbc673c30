/**
 * The development build's words for the merchant views (`<paykit-connection>`, `<paykit-merchant-payments>`,
 * `<paykit-merchant-payouts>`): each names the element, the attribute or the handler's option, and the fix. The
 * views show platform staff their own words; these go to the console only, and never into production bytes
 * (`#dev`, see diagnostics.ts; `pnpm bench:sizes` checks the bundles).
 */
import { PaykitError } from '@paykit/core/browser';
import type { MerchantViewConfig } from './diagnostics-api.js';

/** How long a view may wait for a framework to set `endpoint` and `merchant` before the console is told. */
export const VIEW_ATTRIBUTES_GRACE_MS = 2_000;

function say(element: Element, words: string): void {
  // eslint-disable-next-line no-console
  console.error(`[paykit] <${element.localName}>${words}`, element);
}

/** See `Diagnostics.merchantView`. */
export function merchantView(element: MerchantViewConfig, error?: unknown): void {
  if (error === undefined) {
    setTimeout(() => {
      if (!element.isConnected) return;
      if (!element.endpoint)
        say(
          element,
          ` has had no endpoint for ${VIEW_ATTRIBUTES_GRACE_MS / 1000} s, so it shows nothing. Set endpoint="/paykit", ` +
            "the path where the platform's paykit handler is mounted.",
        );
      if (!element.merchant)
        say(
          element,
          ` has had no merchant for ${VIEW_ATTRIBUTES_GRACE_MS / 1000} s, so it shows nothing. Set merchant to the ` +
            "connected merchant's business id (the business.id that the connection's paykit-connected event carried).",
        );
    }, VIEW_ATTRIBUTES_GRACE_MS);
    return;
  }
  if (!(error instanceof PaykitError)) return;
  const handler = element.endpoint ? new URL(element.endpoint, location.href).href : 'the handler';
  const merchant = JSON.stringify(element.merchant);
  const { code, status } = error;
  if (code === 'forbidden' || status === 403)
    say(
      element,
      code === 'cross_site_request'
        ? `: ${handler} refused this page's origin ${location.origin} (403 cross_site_request): add it to ` +
            "allowedOrigins in createPaykitHandler, or set publicOrigin when this page is the platform's own site."
        : `: the merchantView hook of createPaykitHandler refused this request for merchant=${merchant} (403 ` +
            `${code}). The hook decides from the request (the platform's session) whether this user may see this ` +
            'merchant, and separately whether they may refund: allow it there if this user should.',
    );
  else if (code === 'not_found' || status === 404 || status === 405)
    say(
      element,
      `: ${handler} answered ${status} ${code}. Check that endpoint is the path where your paykit handler is ` +
        'mounted and that createPaykitHandler has a merchantView hook (without one there are no merchant routes: ' +
        `404); then that merchant=${merchant} is the business id of a merchant this platform connected.`,
    );
  else if (code === 'unauthorized' || code === 'conflict' || status === 401 || status === 409)
    say(
      element,
      `: merchant=${merchant} is not connected, or its connection expired (${status} ${code}). ` +
        '<paykit-connection> shows the connect button for it; the merchant must authorize the app again.',
    );
  else if (code === 'network_error')
    say(
      element,
      ` could not reach ${handler}. Check that the platform's server is running and that endpoint is the path where ` +
        'the handler is mounted (on another origin, allowedOrigins must list this page).',
    );
  else if (code === 'api_unreachable' || code === 'api_key_refused')
    say(
      element,
      `: ${handler} answered, but the platform's server ${code === 'api_unreachable' ? 'could not reach the Payments API (check apiBaseUrl)' : 'was refused by the Payments API (check platformKey and the OAuth client)'}: 502 ${code}. The server's log says more.`,
    );
  else if (code === 'validation_failed' && error.errors?.some((field) => field.path === 'amount'))
    say(
      element,
      `: the refund's amount was refused (422: ${error.errors.map((field) => field.message).join('; ')}); the ` +
        'field says so. The server bounds a refund by what is left to refund.',
    );
  else if (code === 'upstream_invalid_response')
    say(
      element,
      `: ${handler} answered something that is not a JSON object. Is endpoint the paykit handler (not a page of the site)?`,
    );
}
