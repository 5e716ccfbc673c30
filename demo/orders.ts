/**
 * The demo shop's order book, written only by confirmed webhook events: what a real shop would ship.
 */
import type { ConfirmedEvent } from '@paykit/server';
import { isJsonObject } from '@paykit/core';
import { isVersionOne, JsonFileWriter, readDataFile } from './data-file.js';

/** One payment request the shop heard about, with how many times each confirmed event reached the hook. */
export interface Order {
  id: string;
  status: string;
  amount: string;
  currency: string;
  /** Confirmed events by type: each should be 1, however often the API delivered it. */
  events: Record<string, number>;
}

/** What `orders.json` holds. */
interface OrdersFile {
  version: 1;
  orders: Order[];
}

/** Orders keyed by payment request id: in memory, or kept in a file with {@link OrderBook.open}. */
export class OrderBook {
  readonly #orders = new Map<string, Order>();
  #file: JsonFileWriter | undefined;

  /** An order book kept in `file`: the orders in it are read now, and each change is written back. */
  static async open(file: string): Promise<OrderBook> {
    const book = new OrderBook();
    for (const order of (await readDataFile(file, isOrdersFile))?.orders ?? []) book.#orders.set(order.id, order);
    book.#file = new JsonFileWriter(file);
    return book;
  }

  /** Records a confirmed payment-request event (charge events are not orders). */
  record(event: ConfirmedEvent): void {
    if (!('paymentRequest' in event)) return;
    const { id, status, amount, currency } = event.paymentRequest;
    const order = this.#orders.get(id) ?? { id, status, amount, currency: currency.toUpperCase(), events: {} };
    order.status = status;
    order.events[event.type] = (order.events[event.type] ?? 0) + 1;
    this.#orders.set(id, order);
    this.#file?.save({ version: 1, orders: structuredClone(this.list()) } satisfies OrdersFile);
  }

  /** Every order, oldest first. */
  list(): Order[] {
    return [...this.#orders.values()];
  }

  /** Resolves once every change is in the file (at once for a book in memory). */
  async flush(): Promise<void> {
    await this.#file?.flush();
  }
}

function isOrdersFile(value: unknown): value is OrdersFile {
  return (
    isVersionOne(value) &&
    Array.isArray(value.orders) &&
    value.orders.every(
      (o: unknown) =>
        isJsonObject(o) &&
        [o.id, o.status, o.amount, o.currency].every((field) => typeof field === 'string') &&
        typeof o.events === 'object' &&
        o.events !== null,
    )
  );
}
