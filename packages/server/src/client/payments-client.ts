/**
 * The whole Payments API as one typed client, grouped by resource (spec section 4 and the table of 4.10).
 * Every request body is validated before it is sent; every answer is parsed by `@paykit/core`'s schemas;
 * every list is also an async iterator that follows cursors. Works the same with an API key, an OAuth
 * connection (`auth`) and a platform key.
 *
 * This is the `@paykit/server/client` entry: a shop that only takes payments does not load it.
 */
import {
  operations,
  parseOrThrow,
  resourceId,
  type OperationId,
  type OperationInput,
  type OperationItem,
  type Page,
} from '@paykit/core';
import { resolveApiConfig, type ApiConfig, type ResolvedApiConfig } from '../api/config.js';
import type { CallOptions } from '../api/transport.js';
import { callOperation, type OperationArgs } from './call-operation.js';
import { followPages } from './paginate.js';

/** Options of {@link createPaymentsClient}. */
export interface PaymentsClientConfig extends ApiConfig {
  /**
   * The fixed path segment of the balance-transactions list, `GET /v1/balances/{segment}/transactions`
   * (spec 4.6 withholds the processor's name). paykit's default, also the sandbox's: `processor`.
   */
  balanceProcessorSegment?: string;
}

/** A page request: a cursor (cursor lists) or a page number from 1 (numbered lists), and the page size. */
export interface PageQuery {
  cursor?: string;
  page?: number;
  perPage?: number;
}

/** A list operation: one page, or every item by `for await`. */
export interface ListOperation<Q, T> {
  (query?: Q & PageQuery, options?: CallOptions): Promise<Page<T>>;
  /**
   * Every item of every page, following `next_cursor` or the page numbers up to `last_page`, whichever the
   * answer carries; `perPage` sets the size of each page fetched.
   */
  all(query?: Q & { perPage?: number }, options?: CallOptions): AsyncGenerator<T>;
}

/** Operations that take a body. */
type WithBody = { [K in OperationId]: [OperationInput<K>] extends [never] ? never : K }[OperationId];
/** Operations that answer a page. */
type Lists = { [K in OperationId]: (typeof operations)[K]['pagination'] extends 'none' ? never : K }[OperationId];
type Query = Record<string, string | number | undefined>;

/** Filters of `savedCards.list` (the service's query parameters of "Get All Recurring Billing"). */
export interface SavedCardListQuery {
  status?: 'active' | 'scheduled' | 'retrying' | 'inactive' | 'canceled';
  customer_email?: string;
  reference?: string;
  business_recurring_plans_id?: string;
}

/**
 * Builds the client. Each method is one row of `@paykit/core`'s operation table: the row gives its method,
 * path, request and response schemas, body encoding and pagination; the methods below only choose names and
 * argument order.
 */
export function createPaymentsClient(config: PaymentsClientConfig) {
  const resolved = resolveApiConfig(config);
  const segment = config.balanceProcessorSegment ?? 'processor';
  const id = (value: string) => parseOrThrow(resourceId, value, 'The id');

  // Bound to this configuration; the row of `op` does the rest.
  const call = <K extends OperationId>(op: K, args: OperationArgs, options: CallOptions | undefined) =>
    callOperation(resolved, op, args, options);

  /** A read of one resource by its id. */
  const byId =
    <K extends OperationId>(op: K) =>
    async (itemId: string, options?: CallOptions) =>
      call(op, { params: { id: id(itemId) } }, options);

  /** An operation that takes a body and no path parameter. */
  const create =
    <K extends WithBody>(op: K) =>
    async (input: OperationInput<K>, options?: CallOptions) =>
      call(op, { body: input }, options);

  /** A list: one page by cursor, or every item by `.all()`. */
  const list = <K extends Lists, Q extends object = Record<never, never>>(
    op: K,
    params: Record<string, string> = {},
    checkQuery: (query: Q) => Query = (query) => query as Query,
    // The real service's numbered lists take `page`; its payment-request list names it `current_page`.
    pageParam = 'page',
  ): ListOperation<Q, OperationItem<K>> => {
    const page = async (query: Q & PageQuery = {} as Q & PageQuery, options?: CallOptions) => {
      const { cursor, perPage, page: pageNumber, ...rest } = query;
      const q = pageQuery(resolved, checkQuery(rest as unknown as Q), cursor, perPage);
      if (pageNumber !== undefined) q[pageParam] = pageNumber;
      return call(op, { params, query: q }, options) as Promise<Page<OperationItem<K>>>;
    };
    return Object.assign(page, {
      // Cursors or page numbers, whichever the answer carries (core's listOf reads both shapes).
      all: (query: Q & { perPage?: number } = {} as Q, options?: CallOptions) =>
        followPages((at) => page({ ...query, ...(at === undefined ? {} : at) }, options)),
    });
  };

  return {
    /** `GET /v1/info`: the business profile; any scope. */
    info: { get: (options?: CallOptions) => call('info.get', {}, options) },
    paymentRequests: {
      /** `POST /v1/payment-requests` (4.7). Never retried. */
      create: create('paymentRequests.create'),
      get: byId('paymentRequests.get'),
      list: list('paymentRequests.list', {}, undefined, 'current_page'),
      /** `PUT /v1/payment-requests/{id}` (scope `payments:create`). */
      update: async (requestId: string, input: OperationInput<'paymentRequests.update'>, options?: CallOptions) =>
        call('paymentRequests.update', { params: { id: id(requestId) }, body: input }, options),
      /** `DELETE /v1/payment-requests/{id}` (scope `payments:cancel`). */
      cancel: byId('paymentRequests.cancel'),
    },
    charges: { get: byId('charges.get'), list: list('charges.list') },
    refunds: {
      /** `POST /v1/refunds` (JSON, 4.5). `amount` must not exceed what remains refundable. */
      create: create('refunds.create'),
      get: byId('refunds.get'),
    },
    payouts: { get: byId('payouts.get') },
    savedCards: {
      /**
       * `POST /v1/recurring-billing`: with `save_card: true` (and `name`, `amount`, `customer_email`) a record
       * whose `url` is a checkout that saves the customer's card; without it, a subscription (`start_date`, and
       * a `plan_id` or `name`, `amount` and `cycle`). Send the customer to `url`. Never retried.
       */
      create: create('savedCards.create'),
      /** `GET /v1/recurring-billing`: the records with `status` (default `active`, as the service filters). */
      list: list<'savedCards.list', SavedCardListQuery>('savedCards.list'),
      /** `GET /v1/recurring-billing/{id}` (4.2): with the saved card's brand and last four once it is saved. */
      get: byId('savedCards.get'),
      /**
       * `PUT /v1/recurring-billing/{id}`: changes the fields given (a `plan_id` takes the plan's cycle and
       * amount, refused on a saved-card record); answers the record. Never retried.
       */
      update: async (cardId: string, input: OperationInput<'savedCards.update'>, options?: CallOptions) =>
        call('savedCards.update', { params: { id: id(cardId) }, body: input }, options),
      /**
       * `POST /v1/charge/recurring-billing/{id}`: charges the saved card `amount` in `currency` (the service
       * requires both) and answers `{ payment_id, recurring_billing_id, amount, currency, status }`. Never retried.
       */
      charge: async (cardId: string, input: OperationInput<'savedCards.charge'>, options?: CallOptions) =>
        call('savedCards.charge', { params: { id: id(cardId) }, body: input }, options),
      /** `DELETE /v1/recurring-billing/{id}`: cancels the record (status `canceled`); answers the record. */
      cancel: byId('savedCards.cancel'),
    },
    subscriptionPlans: {
      /**
       * `POST /v1/subscription-plan`: `name`, `amount`, `cycle` (`weekly`, `monthly`, `yearly`, or `custom` with
       * `cycle_repeat` and `cycle_frequency`: every 2 weeks is `{ cycle_repeat: 2, cycle_frequency: 'week' }`).
       */
      create: create('subscriptionPlans.create'),
      list: list('subscriptionPlans.list'),
      get: byId('subscriptionPlans.get'),
      /** `PUT /v1/subscription-plan/{id}`: the whole plan again; current subscriptions keep the old terms. */
      update: async (planId: string, input: OperationInput<'subscriptionPlans.update'>, options?: CallOptions) =>
        call('subscriptionPlans.update', { params: { id: id(planId) }, body: input }, options),
      /** `DELETE /v1/subscription-plan/{id}`. */
      delete: async (planId: string, options?: CallOptions): Promise<void> => {
        await byId('subscriptionPlans.delete')(planId, options);
      },
    },
    beneficiaries: { get: byId('beneficiaries.get') },
    staff: { get: byId('staff.get') },
    balances: {
      transactions: {
        /** `GET /v1/balances/{segment}/transactions` (4.6): by date range, at most 100 a page. */
        list: list<'balances.transactions.list', BalanceTransactionRange>(
          'balances.transactions.list',
          { segment },
          (range) => {
            const checked = parseOrThrow(operations['balances.transactions.list'].query, range, 'The query');
            return { created_at_from: checked.created_at_from, created_at_to: checked.created_at_to };
          },
        ),
      },
    },
    products: {
      create: create('products.create'),
      list: list('products.list'),
      /** `DELETE /v1/products/{id}` (scope `commerce:delete`). */
      delete: async (productId: string, options?: CallOptions): Promise<void> => {
        await byId('products.delete')(productId, options);
      },
    },
    invoices: { create: create('invoices.create'), list: list('invoices.list') },
    orders: {
      list: list('orders.list'),
      /** `GET /v1/orders/{id}` (scope `commerce:read`): one order, as an `order.*` webhook names it. */
      get: byId('orders.get'),
    },
    customers: { create: create('customers.create'), list: list('customers.list') },
    transfers: {
      /**
       * `POST /v1/transfers` (API key only): `source_amount` in `source_currency` (or the `payment_amount` the
       * beneficiary receives) to a saved beneficiary; answers the transfer with its exchange rate and fee.
       */
      create: create('transfers.create'),
      /** `POST /v1/transfers/estimate` (API key only): what a transfer would cost; changes nothing, so retried. */
      estimate: create('transfers.estimate'),
      get: byId('transfers.get'),
      list: list('transfers.list'),
    },
    accountStatus: { get: (options?: CallOptions) => call('accountStatus.get', {}, options) },
    /**
     * The service's webhook-events API: the endpoints a business's events are posted to, each with the events it
     * listens to (`webhookEventTypes`). API key only: no OAuth scope grants them, so a Bearer client is refused.
     */
    webhookEvents: {
      /** `GET /v1/webhook-events`: every endpoint of the business, in one plain array (the service pages none). */
      list: (options?: CallOptions) => call('webhookEvents.list', {}, options),
      /** `POST /v1/webhook-events` (JSON): `{ name, url, event_types }`, url https; answers the endpoint. Never retried. */
      create: create('webhookEvents.create'),
      /** `GET /v1/webhook-events/{id}`. */
      get: byId('webhookEvents.get'),
      /** `PUT /v1/webhook-events/{id}` (JSON): any of `name`, `url`, `event_types`; answers the endpoint. */
      update: async (endpointId: string, input: OperationInput<'webhookEvents.update'>, options?: CallOptions) =>
        call('webhookEvents.update', { params: { id: id(endpointId) }, body: input }, options),
      /** `DELETE /v1/webhook-events/{id}`: no more events go to it. */
      delete: async (endpointId: string, options?: CallOptions): Promise<void> => {
        await byId('webhookEvents.delete')(endpointId, options);
      },
    },
    terminals: { list: list('terminals.list') },
    qrCodes: { list: list('qrCodes.list') },
    /** The resolved configuration. */
    config: resolved,
  };
}

/** The date range of the balance-transactions list (`created_at_to` >= `created_at_from`). */
export interface BalanceTransactionRange {
  created_at_from?: string;
  created_at_to?: string;
}

/** The client of {@link createPaymentsClient}. */
export type PaymentsClient = ReturnType<typeof createPaymentsClient>;

function pageQuery(
  config: ResolvedApiConfig,
  query: Record<string, string | number | undefined>,
  cursor: string | undefined,
  perPage: number | undefined,
): Record<string, string | number | undefined> {
  return { ...query, [config.pagination.cursorParam]: cursor, [config.pagination.pageSizeParam]: perPage };
}
