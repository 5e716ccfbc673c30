/**
 * The checkout of a recurring billing (`/checkout/recurring-plan/{id}`, the record's `url`): the shopper types
 * a test card number and presses "Save card"; the record becomes `active` and 4.2 shows the card's brand and
 * last four. Any number passing the Luhn check is a test card (4242 4242 4242 4242 is a Visa, 5555 5555 5555
 * 4444 a Mastercard); nothing is charged here, the merchant charges the saved card later. The browser then goes
 * to `redirect_url` with `reference=<record id>&status=active` (the service sends "reference (subscription id)
 * and status"); "Fail" goes back with `status=failed` and changes nothing. Opening the url again replaces the
 * card, as the service lets a customer change the saved card.
 */
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import type { SandboxContext } from '../context.js';
import { saveCard, type RecurringBillingJson } from '../recurring-billing.js';
import { readTestCard } from '../test-cards.js';
import { sendCardSaved } from '../webhooks/recurring-billing-events.js';
import { CSP_REPORT, page } from './layout.js';
import { formatMinor, formatPrice, majorToMinor } from '@paykit/core';
import { readPageForm } from '../body.js';

/** The card number the form starts with: the sandbox's Visa test card. */
const DEFAULT_TEST_CARD = '4242 4242 4242 4242';

/** The `/checkout/recurring-plan` pages. */
export function recurringCheckoutPages(sandbox: SandboxContext) {
  const pages = new Hono();
  const find = (id: string) => sandbox.state.resources.find('recurring_billing', id);

  pages.get('/:id', (c) => {
    const found = find(c.req.param('id'));
    if (!found) return c.html(notFoundPage(), 404);
    setPageHeaders(c, found.json);
    return c.html(form(sandbox, found.businessId, found.json));
  });

  pages.post('/:id', async (c) => {
    const found = find(c.req.param('id'));
    if (!found) return c.html(notFoundPage(), 404);
    setPageHeaders(c, found.json);
    const record = found.json;
    if (record.status === 'canceled') return c.html(form(sandbox, found.businessId, record), 409);
    const posted = await readPageForm(c.req.raw);
    if (posted.get('outcome') === 'failed') return back(c, record, 'failed');
    const typed = posted.get('card_number') ?? '';
    const card = readTestCard(typed);
    if (!card) {
      const error = 'This is not a card number: use a test card such as 4242 4242 4242 4242.';
      return c.html(form(sandbox, found.businessId, record, { error, typed }), 422);
    }
    const statusBefore = record.status;
    saveCard(record, card, sandbox.clocks.now(found.businessId));
    sendCardSaved(sandbox, found.businessId, record, statusBefore);
    return back(c, record, 'active');
  });

  return pages;
}

/** To `redirect_url` with the record's id and the status, or a closing page when it has none. */
function back(c: Context, record: RecurringBillingJson, status: string) {
  const redirect = typeof record.redirect_url === 'string' ? record.redirect_url : '';
  if (!redirect) {
    return c.html(
      page(
        'Checkout',
        html`<h1>${status === 'active' ? 'Card saved' : 'Card not saved'}</h1>
          <p role="status">You can close this page.</p>`,
      ),
    );
  }
  return c.redirect(returnUrl(redirect, record.id, status), 303);
}

function form(
  sandbox: SandboxContext,
  businessId: string,
  record: RecurringBillingJson,
  attempt: { error?: string; typed?: string } = {},
) {
  const merchant = sandbox.state.businesses.get(businessId)?.name ?? 'Merchant';
  const name = typeof record.name === 'string' ? record.name : '';
  const minor = majorToMinor(record.amount, { field: 'amount', allowZero: true });
  const amount = minor > 0 ? formatPrice(formatMinor(minor), String(record.currency)) : '';
  const redirect = typeof record.redirect_url === 'string' ? record.redirect_url : '';
  const card = record.payment_method;
  const heading = html`<div class="merchant">
    <span class="merchant-mark" aria-hidden="true">${[...merchant.trim()][0]?.toUpperCase() ?? '?'}</span>
    <h1>Save a card for ${merchant}</h1>
  </div>`;
  if (record.status === 'canceled') {
    return page(
      `Save a card for ${merchant}`,
      html`${heading}
        <p role="status">This recurring billing was canceled.</p>`,
    );
  }
  return page(
    `Save a card for ${merchant}`,
    html`${heading}
      <dl class="summary">
        ${
          name
            ? html`<dt>For</dt>
                <dd data-testid="purpose">${name}</dd>`
            : ''
        }
        ${
          amount
            ? html`<dt>Amount</dt>
                <dd data-testid="amount">${amount}</dd>`
            : ''
        }
        ${
          card?.card?.last4
            ? html`<dt>Saved card</dt>
                <dd data-testid="saved-card">${card.card.brand} ending ${card.card.last4}</dd>`
            : ''
        }
      </dl>
      ${attempt.error ? html`<p role="alert">${attempt.error}</p>` : ''}
      <form method="post">
        <label class="field"
          >Card number
          <input
            type="text"
            name="card_number"
            inputmode="numeric"
            autocomplete="cc-number"
            value="${attempt.typed ?? DEFAULT_TEST_CARD}"
          />
        </label>
        <div class="actions">
          <button class="pay" name="outcome" value="save">Save card</button>
          <button class="fail" name="outcome" value="failed">Fail</button>
        </div>
      </form>
      ${
        redirect
          ? html`<p class="back">
              <a href="${returnUrl(redirect, record.id, 'canceled')}">Cancel and return to ${merchant}</a>
            </p>`
          : ''
      }
      <p class="note">
        Sandbox: any number passing the Luhn check is a test card (4242 4242 4242 4242 Visa, 5555 5555 5555 4444
        Mastercard). Nothing is charged now: ${merchant} charges the saved card later.
      </p>`,
  );
}

const notFoundPage = () =>
  page(
    'Not found',
    html`<h1>This link is not valid</h1>
      <p>Go back to the shop and start again.</p>`,
  );

/** `redirect_url` with `reference` (the record's id) and `status` added, keeping its own query. */
function returnUrl(redirect: string, id: string, status: string): string {
  const url = new URL(redirect);
  url.searchParams.set('reference', id);
  url.searchParams.set('status', status);
  return url.href;
}

/** The checkout's strict policy: no script; the form posts here and the redirect may go to the merchant. */
function setPageHeaders(c: Context, record: RecurringBillingJson): void {
  const redirect = typeof record.redirect_url === 'string' && record.redirect_url ? record.redirect_url : '';
  const returnOrigin = redirect ? new URL(redirect).origin : '';
  c.header(
    'content-security-policy',
    `default-src 'none'; style-src 'self'; img-src data:; form-action 'self' ${returnOrigin}; frame-ancestors 'none'; base-uri 'none'; ${CSP_REPORT}`,
  );
  c.header('referrer-policy', 'no-referrer');
}
