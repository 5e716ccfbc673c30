/**
 * A sandbox card reader (spec 5.4.8): `/terminal/{terminal_id}` shows the payment requests waiting on this
 * terminal; "Tap card" pays one with `wifi_card_reader`, as a shopper tapping a card would.
 */
import { formatMinor, formatPrice } from '@paykit/core';
import { Hono } from 'hono';
import { html } from 'hono/html';
import type { SandboxContext } from '../context.js';
import { completePayment } from '../payments.js';
import { page } from './layout.js';
import { readPageForm } from '../body.js';

/** The `/terminal` pages. */
export function terminalPages(sandbox: SandboxContext) {
  const pages = new Hono();
  const waiting = (terminalId: string) =>
    [...sandbox.state.paymentRequests.values()].filter(
      (r) => r.wifiTerminalId === terminalId && r.status === 'pending',
    );

  pages.get('/:id', (c) => {
    const terminal = sandbox.state.resources.find('terminals', c.req.param('id'));
    if (!terminal) return c.html(page('Not found', html`<h1>No such terminal</h1>`), 404);
    const requests = waiting(terminal.json.id);
    return c.html(
      page(
        'Card reader',
        html`<h1>${String(terminal.json.name)}</h1>
          <p class="muted">A sandbox card reader: "Tap card" pays as a shopper tapping a card would.</p>
          ${requests.length === 0 ? html`<p role="status">Waiting for a payment…</p>` : ''}
          ${requests.map(
            (r) =>
              html`<form method="post" class="card">
                <p class="amount">${formatPrice(formatMinor(r.amountMinor), r.currency)}</p>
                ${r.purpose ? html`<p>${r.purpose}</p>` : ''}
                <input type="hidden" name="payment_request_id" value="${r.id}" />
                <div class="actions"><button class="pay">Tap card</button></div>
              </form>`,
          )}`,
      ),
    );
  });

  pages.post('/:id', async (c) => {
    const id = (await readPageForm(c.req.raw)).get('payment_request_id') ?? '';
    const request = waiting(c.req.param('id')).find((r) => r.id === id);
    if (request) completePayment(sandbox, request, 'succeeded', 'wifi_card_reader');
    return c.redirect(`/terminal/${encodeURIComponent(c.req.param('id'))}`, 303);
  });

  return pages;
}
