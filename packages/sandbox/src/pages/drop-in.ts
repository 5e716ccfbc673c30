/**
 * The checkout's drop-in mode: the same checkout page, shown in the overlay of the drop-in script
 * (`/hitpay.js`, drop-in-script.ts) as a frame of the merchant's page. It is the only mode that may be framed, and
 * only by the page that asked for it: `GET /checkout/{id}?mode=drop-in&parent=<the page's origin>` answers with
 * `frame-ancestors <that origin>` (every other checkout page keeps `frame-ancestors 'none'`), refuses a top-level
 * load (`Sec-Fetch-Dest` other than `iframe`), and talks to its parent only by `postMessage` to that exact origin
 * with the payment request's id (drop-in-frame-script.ts). Paying or failing answers a page in the frame that tells
 * the overlay the outcome, instead of the redirect to `redirect_url` of the normal checkout.
 */
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { PaymentRequestRecord } from '../state.js';
import { CSP_REPORT } from './layout.js';

/** The path of the frame's script, on the sandbox's origin. */
export const DROP_IN_FRAME_SCRIPT_PATH = '/_assets/drop-in-frame.js';

/** A checkout request in drop-in mode: the origin of the page whose overlay frames it, and the method to preselect. */
export interface DropInMode {
  parent: string;
  method: string | undefined;
}

/**
 * The drop-in mode of a checkout request, `undefined` for the normal checkout, or `'refused'` when the request asks
 * for the drop-in mode with a parent that is not an `http(s)` origin written as one (scheme, host, port: nothing
 * else), or comes as a top-level page: the drop-in is a frame, and a frame only of the page that asked for it.
 */
export function dropInModeOf(c: Context): DropInMode | 'refused' | undefined {
  if (c.req.query('mode') !== 'drop-in') return undefined;
  const parent = c.req.query('parent') ?? '';
  let origin: string | undefined;
  try {
    const url = new URL(parent);
    if (/^https?:$/.test(url.protocol)) origin = url.origin;
  } catch {
    // Not a URL: refused below.
  }
  // A browser says what it loads the page as; a client that says nothing (a test's fetch) is not a frame either way.
  const destination = c.req.header('sec-fetch-dest');
  if (origin !== parent || (destination !== undefined && destination !== 'iframe')) return 'refused';
  return { parent: origin, method: c.req.query('method') };
}

/**
 * The headers of a drop-in page: framed by the parent only, its one script from the sandbox, forms posting here
 * only (the outcome is told to the overlay, not redirected to the shop), no referrer.
 */
export function setDropInHeaders(c: Context, mode: DropInMode): void {
  c.header(
    'content-security-policy',
    [
      "default-src 'none'",
      "style-src 'self'",
      // The layout's empty data: icon, so that the browser fetches no /favicon.ico (see layout.ts).
      'img-src data:',
      "script-src 'self'",
      "form-action 'self'",
      `frame-ancestors ${mode.parent}`,
      "base-uri 'none'",
      "require-trusted-types-for 'script'",
      "trusted-types 'none'",
      CSP_REPORT,
    ].join('; '),
  );
  c.header('referrer-policy', 'no-referrer');
}

/** What a drop-in page tells the overlay once it has loaded: nothing yet (the checkout), or an outcome. */
export type DropInOutcome =
  | { outcome: 'completed'; reference: string | null }
  | { outcome: 'failed' | 'canceled' | 'not_found'; message: string };

/**
 * The element the frame's script reads: the parent's origin, the payment request's id and, on an outcome page,
 * the outcome. Data attributes, since the page runs no inline script.
 */
export function dropInData(mode: DropInMode, id: string, outcome?: DropInOutcome) {
  return html`<div
      hidden
      data-drop-in
      data-parent-origin="${mode.parent}"
      data-payment-request="${id}"
      data-outcome="${outcome?.outcome ?? ''}"
      data-reference="${outcome?.outcome === 'completed' ? (outcome.reference ?? '') : ''}"
      data-message="${outcome && outcome.outcome !== 'completed' ? outcome.message : ''}"
    ></div>
    <script src="${DROP_IN_FRAME_SCRIPT_PATH}" defer></script>`;
}

/** The outcome a payment request's status means to the overlay, for a request that is no longer pending. */
export function outcomeOf(request: PaymentRequestRecord): DropInOutcome {
  if (request.status === 'completed') return { outcome: 'completed', reference: request.extras.reference_number };
  if (request.status === 'failed') return { outcome: 'failed', message: 'The payment was declined.' };
  if (request.status === 'expired') return { outcome: 'canceled', message: 'This payment link has expired.' };
  return { outcome: 'canceled', message: 'This payment request was canceled.' };
}
