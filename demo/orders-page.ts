/**
 * `/orders`: the shop's order book as a page a merchant reads (a table, newest first), where `/orders.json`
 * (or `/orders` asked for `Accept: application/json`) gives the same orders as data for scripts.
 */
import { formatPrice } from '@paykit/core';
import type { Order } from './orders.js';
import { escape, layout } from './pages.js';

/** The words a merchant reads for a payment request's status. */
const STATUS_WORDS: Readonly<Record<string, string>> = {
  pending: 'Waiting for payment',
  completed: 'Paid',
  failed: 'Failed',
  canceled: 'Canceled',
};

/** The orders page. `orders` oldest first, as {@link OrderBook.list} gives them. */
export function ordersPage(orders: readonly Order[]): string {
  const rows = [...orders]
    .reverse()
    .map((order) => {
      const events = Object.entries(order.events)
        .map(([type, count]) => `${escape(type)}${count === 1 ? '' : ` ×${count}`}`)
        .join(', ');
      return `<tr data-order="${escape(order.id)}">
        <td data-label="Reference"><code>${escape(order.id)}</code></td>
        <td data-label="Status"><span class="status status-${escape(order.status)}">${escape(STATUS_WORDS[order.status] ?? order.status)}</span></td>
        <td data-label="Amount" class="num">${escape(formatPrice(order.amount, order.currency))}</td>
        <td data-label="Confirmed events">${events}</td>
      </tr>`;
    })
    .join('');
  return layout(
    'Orders',
    `<h1>Orders</h1>
    <p class="lead">What the payment webhooks confirmed, newest first. A redelivered event is counted, never
    recorded twice. As data: <a href="/orders.json">orders.json</a>.</p>
    ${
      orders.length === 0
        ? '<p>No orders yet. <a href="/">Buy something</a> and pay on the sandbox checkout.</p>'
        : `<div class="table-wrap" role="region" aria-label="Orders" tabindex="0"><table class="orders">
      <thead><tr><th scope="col">Reference</th><th scope="col">Status</th><th scope="col" class="num">Amount</th><th scope="col">Confirmed events</th></tr></thead>
      <tbody>${rows}</tbody>
    </table></div>`
    }`,
  );
}

/** True when a request for `/orders` asks for JSON rather than a page. */
export function wantsJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const json = /application\/json/i.test(accept);
  const html = /text\/html/i.test(accept);
  return json && !html;
}
