/**
 * The checkout page a payment request's `url` points to. A person (or a test) chooses a method and presses
 * "Pay" or "Fail payment"; the request completes and the browser goes to `redirect_url` with
 * `reference=<id>&status=<completed|failed>` added, as the real checkout does. "Cancel and return" goes back
 * to `redirect_url` with `status=canceled` and changes nothing: the request stays pending (the shopper may
 * come back to it), and the shop asks its server for the real status as it does after a payment.
 *
 * In drop-in mode (`?mode=drop-in&parent=<origin>`, see drop-in.ts) the same page is the drop-in overlay's frame:
 * framed by that origin only, without the way back (the overlay has its close button), and paying or failing
 * answers a page that tells the overlay the outcome instead of redirecting.
 */
import { expireIfDue } from '../payment-request-expiry.js';
import { formatMinor, formatPrice } from '@paykit/core';
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import type { SandboxContext } from '../context.js';
import { completePayment } from '../payments.js';
import type { PaymentRequestRecord } from '../state.js';
import { CSP_REPORT, page } from './layout.js';
import { paymentMethodLabel } from './payment-methods.js';
import { recurringCheckoutPages } from './recurring-checkout.js';
import { readPageForm } from '../body.js';
import {
  dropInData,
  dropInModeOf,
  outcomeOf,
  setDropInHeaders,
  type DropInMode,
  type DropInOutcome,
} from './drop-in.js';

/** The `/checkout` pages. */
export function checkoutPages(sandbox: SandboxContext) {
  const pages = new Hono();
  // A recurring billing's checkout saves a card (its `url`); two segments, so `/:id` below never takes it.
  pages.route('/recurring-plan', recurringCheckoutPages(sandbox));

  pages.get('/:id', (c) => {
    const mode = dropInModeOf(c);
    if (mode === 'refused') return refusedFramePage(c);
    const request = sandbox.state.paymentRequests.get(c.req.param('id'));
    if (!request)
      return mode ? dropInOutcomePage(c, mode, c.req.param('id'), NOT_FOUND, 404) : c.html(notFoundPage(), 404);
    if (mode) setDropInHeaders(c, mode);
    else setPageHeaders(c, request);
    expireIfDue(sandbox, request);
    const merchant = sandbox.state.businesses.get(request.businessId)?.name ?? 'Merchant';
    const amount = formatPrice(formatMinor(request.amountMinor), request.currency);
    // The drop-in's `HitPay.toggle({ method })` preselects a method the request offers; else the first one.
    const chosen =
      request.paymentMethods.find((method) => method === (mode && mode.method)) ?? request.paymentMethods[0];
    // The merchant's mark and name head the page, as on a real checkout: the shopper checks whom they pay.
    const heading = (text: string) =>
      html`<div class="merchant">
        <span class="merchant-mark" aria-hidden="true">${initial(merchant)}</span>
        <h1>${text}</h1>
      </div>`;
    if (request.status !== 'pending') {
      if (mode) return dropInOutcomePage(c, mode, request.id, outcomeOf(request));
      return c.html(
        page(
          `Pay ${merchant}`,
          html`${heading(merchant)}
            <p role="status">
              ${
                request.status === 'expired'
                  ? 'This payment link has expired.'
                  : `This payment request is already ${request.status}.`
              }
            </p>
            ${
              request.redirectUrl
                ? html`<p class="back"><a href="${returnUrl(request, request.status)}">Back to ${merchant}</a></p>`
                : ''
            }`,
        ),
      );
    }
    return c.html(
      page(
        `Pay ${merchant}`,
        html`${heading(`Pay ${merchant}`)}
          <p class="amount" data-testid="amount">${amount}</p>
          ${
            request.purpose || request.email
              ? html`<dl class="summary">
                  ${
                    request.purpose
                      ? html`<dt>For</dt>
                          <dd data-testid="purpose">${request.purpose}</dd>`
                      : ''
                  }
                  ${
                    request.email
                      ? html`<dt>Receipt to</dt>
                          <dd>${request.email}</dd>`
                      : ''
                  }
                </dl>`
              : ''
          }
          <form method="post">
            <fieldset>
              <legend>Payment method</legend>
              ${request.paymentMethods.map((method) => {
                const label = paymentMethodLabel(method);
                return html`<label class="choice">
                  <input type="radio" name="payment_method" value="${method}" ${method === chosen ? 'checked' : ''} />
                  <span class="choice-text"
                    ><span>${label.name}</span
                    >${label.hint ? html`<span class="choice-hint">${label.hint}</span>` : ''}</span
                  >
                </label>`;
              })}
            </fieldset>
            <div class="actions">
              <button class="pay" name="outcome" value="succeeded">Pay ${amount}</button>
              <button class="fail" name="outcome" value="failed">Fail payment</button>
            </div>
          </form>
          ${
            request.redirectUrl && !mode
              ? html`<p class="back">
                  <a href="${returnUrl(request, 'canceled')}">Cancel and return to ${merchant}</a>
                </p>`
              : ''
          }
          <p class="note">
            Sandbox: "Pay" completes the payment, "Fail payment" declines it. No card details are asked.
          </p>
          ${mode ? dropInData(mode, request.id) : ''}`,
      ),
    );
  });

  pages.post('/:id', async (c) => {
    const mode = dropInModeOf(c);
    if (mode === 'refused') return refusedFramePage(c);
    const request = sandbox.state.paymentRequests.get(c.req.param('id'));
    if (!request)
      return mode ? dropInOutcomePage(c, mode, c.req.param('id'), NOT_FOUND, 404) : c.html(notFoundPage(), 404);
    const form = await readPageForm(c.req.raw);
    const outcome = form.get('outcome') === 'succeeded' ? 'succeeded' : 'failed';
    // An expired link takes no payment: the shopper is sent back with the request's status, as for any other end.
    expireIfDue(sandbox, request);
    if (request.status === 'pending')
      completePayment(sandbox, request, outcome, form.get('payment_method') ?? undefined);
    // In the overlay the outcome goes to the drop-in script (its onSuccess or onError), not to redirect_url.
    if (mode) return dropInOutcomePage(c, mode, request.id, outcomeOf(request));
    if (!request.redirectUrl) {
      return c.html(
        page(
          'Checkout',
          html`<h1>Payment ${request.status}</h1>
            <p role="status">You can close this page.</p>`,
        ),
      );
    }
    return c.redirect(returnUrl(request, request.status), 303);
  });

  return pages;
}

const notFoundPage = () =>
  page(
    'Not found',
    html`<h1>This payment link is not valid</h1>
      <p>Go back to the shop and start the payment again.</p>`,
  );

/** What the overlay is told of a payment link that is not valid. */
const NOT_FOUND: DropInOutcome = { outcome: 'not_found', message: 'This payment link is not valid.' };

/** A drop-in page that tells the overlay an outcome (its script does), and says it to the shopper meanwhile. */
function dropInOutcomePage(c: Context, mode: DropInMode, id: string, outcome: DropInOutcome, status: 200 | 404 = 200) {
  setDropInHeaders(c, mode);
  const words =
    outcome.outcome === 'completed'
      ? 'Payment completed. Thank you!'
      : `${outcome.message} Close this window to go back.`;
  return c.html(
    page(
      'Checkout',
      html`<h1>${outcome.outcome === 'completed' ? 'Payment completed' : 'Payment not completed'}</h1>
        <p role="status">${words}</p>
        ${dropInData(mode, id, outcome)}`,
    ),
    status,
  );
}

/**
 * Answered to a drop-in request that names no parent origin, or that is loaded as a page of its own; framed by
 * nobody, as every page but the drop-in.
 */
function refusedFramePage(c: Context) {
  c.header(
    'content-security-policy',
    `default-src 'none'; style-src 'self'; img-src data:; frame-ancestors 'none'; base-uri 'none'; ${CSP_REPORT}`,
  );
  return c.html(
    page(
      'Not available',
      html`<h1>This checkout cannot be shown here</h1>
        <p>
          The drop-in checkout opens only inside the shop's page. Go back to the shop and start the payment again.
        </p>`,
    ),
    400,
  );
}

/** The merchant's initial for its round mark (the sandbox has no logos). */
function initial(name: string): string {
  return [...name.trim()][0]?.toUpperCase() ?? '?';
}

/**
 * `redirect_url` with `reference` and `status` added, keeping its own query. `status` is a hint for the shop's
 * page only; the shop asks its server for the truth.
 */
function returnUrl(request: PaymentRequestRecord, status: string): string {
  const url = new URL(request.redirectUrl ?? '');
  url.searchParams.set('reference', request.id);
  url.searchParams.set('status', status);
  return url.href;
}

/** A strict policy: no script at all; forms may post here and the redirect may go to the merchant's origin. */
function setPageHeaders(c: Context, request: PaymentRequestRecord): void {
  const returnOrigin = request.redirectUrl ? new URL(request.redirectUrl).origin : '';
  c.header(
    'content-security-policy',
    `default-src 'none'; style-src 'self'; img-src data:; form-action 'self' ${returnOrigin}; frame-ancestors 'none'; base-uri 'none'; ${CSP_REPORT}`,
  );
  c.header('referrer-policy', 'no-referrer');
}
