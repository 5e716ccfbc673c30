/**
 * The checkout page a payment request's `url` points to. A person (or a test) chooses a method and presses
 * "Pay" or "Fail"; the request completes and the browser goes to `redirect_url` with
 * `reference=<id>&status=<completed|failed>` added, as the real checkout does.
 */
import { formatMinor } from '@paykit/core';
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import type { SandboxContext } from '../context.js';
import { completePayment } from '../payments.js';
import type { PaymentRequestRecord } from '../state.js';
import { page } from './layout.js';

/** The `/checkout` pages. */
export function checkoutPages(sandbox: SandboxContext) {
  const pages = new Hono();

  pages.get('/:id', (c) => {
    const request = sandbox.state.paymentRequests.get(c.req.param('id'));
    if (!request) return c.html(page('Not found', html`<h1>This payment link is not valid</h1>`), 404);
    setPageHeaders(c, request);
    const merchant = sandbox.state.businesses.get(request.businessId)?.name ?? 'Merchant';
    const amount = `${request.currency.toUpperCase()} ${formatMinor(request.amountMinor)}`;
    if (request.status !== 'pending') {
      return c.html(
        page(
          'Checkout',
          html`<h1>${merchant}</h1>
            <p role="status">This payment request is already ${request.status}.</p>
            ${request.redirectUrl ? html`<p><a href="${returnUrl(request)}">Back to ${merchant}</a></p>` : ''}`,
        ),
      );
    }
    return c.html(
      page(
        'Checkout',
        html`<h1>Pay ${merchant}</h1>
          <p class="amount" data-testid="amount">${amount}</p>
          <dl>
            ${
              request.purpose
                ? html`<dt>For</dt>
                    <dd data-testid="purpose">${request.purpose}</dd>`
                : ''
            }
            ${
              request.email
                ? html`<dt>Email</dt>
                    <dd>${request.email}</dd>`
                : ''
            }
          </dl>
          <form method="post">
            <fieldset>
              <legend>Payment method</legend>
              ${request.paymentMethods.map(
                (method, index) =>
                  html`<label
                      ><input type="radio" name="payment_method" value="${method}" ${index === 0 ? 'checked' : ''} />
                      ${method}</label
                    ><br />`,
              )}
            </fieldset>
            <div class="actions">
              <button class="pay" name="outcome" value="succeeded">Pay ${amount}</button>
              <button class="fail" name="outcome" value="failed">Fail payment</button>
            </div>
          </form>`,
      ),
    );
  });

  pages.post('/:id', async (c) => {
    const request = sandbox.state.paymentRequests.get(c.req.param('id'));
    if (!request) return c.html(page('Not found', html`<h1>This payment link is not valid</h1>`), 404);
    const form = new URLSearchParams(await c.req.text());
    const outcome = form.get('outcome') === 'succeeded' ? 'succeeded' : 'failed';
    if (request.status === 'pending')
      completePayment(sandbox, request, outcome, form.get('payment_method') ?? undefined);
    if (!request.redirectUrl) {
      return c.html(
        page(
          'Checkout',
          html`<h1>Payment ${request.status}</h1>
            <p>You can close this page.</p>`,
        ),
      );
    }
    return c.redirect(returnUrl(request), 303);
  });

  return pages;
}

/** `redirect_url` with `reference` and `status` added, keeping its own query. */
function returnUrl(request: PaymentRequestRecord): string {
  const url = new URL(request.redirectUrl ?? '');
  url.searchParams.set('reference', request.id);
  url.searchParams.set('status', request.status);
  return url.href;
}

/** A strict policy: no script at all; forms may post here and the redirect may go to the merchant's origin. */
function setPageHeaders(c: Context, request: PaymentRequestRecord): void {
  const returnOrigin = request.redirectUrl ? new URL(request.redirectUrl).origin : '';
  c.header(
    'content-security-policy',
    `default-src 'none'; style-src 'self'; form-action 'self' ${returnOrigin}; frame-ancestors 'none'; base-uri 'none'`,
  );
  c.header('referrer-policy', 'no-referrer');
}
