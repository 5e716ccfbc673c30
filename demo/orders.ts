/**
 * The demo shop's order book, written only by confirmed webhook events: what a real shop would ship.
 */
import type { ConfirmedEvent } from '@paykit/server';

/** One payment request the shop heard about, with how many times each confirmed event reached the hook. */
export interface Order {
  id: string;
  status: string;
  amount: string;
  currency: string;
  /** Confirmed events by type: each should be 1, however often the API delivered it. */
  events: Record<string, number>;
}

/** Orders in memory, keyed by payment request id. */
export class OrderBook {
  readonly #orders = new Map<string, Order>();

  /** Records a confirmed payment-request event (charge events are not orders). */
  record(event: ConfirmedEvent): void {
    if (!('paymentRequest' in event)) return;
    const { id, status, amount, currency } = event.paymentRequest;
    const order = this.#orders.get(id) ?? { id, status, amount, currency: currency.toUpperCase(), events: {} };
    order.status = status;
    order.events[event.type] = (order.events[event.type] ?? 0) + 1;
    this.#orders.set(id, order);
  }

  /** Every order, oldest first. */
  list(): Order[] {
    return [...this.#orders.values()];
  }
}
