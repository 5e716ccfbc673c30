/**
 * The whole Payments API as one typed client, grouped by resource (spec section 4 and the table of 4.10).
 * Every request body is validated before it is sent; every answer is parsed by `@paykit/core`'s schemas;
 * every list is also an async iterator that follows cursors. Works the same with an API key, an OAuth
 * connection (`auth`) and a platform key.
 *
 * This is the `@paykit/server/client` entry: a shop that only takes payments does not load it.
 */
import { resolveApiConfig, type ApiConfig } from '../api/config.js';
import type { CallOptions } from '../api/transport.js';
import { operationMethods } from './operation-methods.js';

/** Options of {@link createPaymentsClient}. */
export interface PaymentsClientConfig extends ApiConfig {
  /**
   * The fixed path segment of the balance-transactions list, `GET /v1/balances/{segment}/transactions`
   * (spec 4.6 withholds the processor's name). paykit's default, also the sandbox's: `processor`.
   */
  balanceProcessorSegment?: string;
}

/**
 * Builds the client. Each method is one row of `@paykit/core`'s operation table: the row gives its method,
 * path, request and response schemas, body encoding, filters and pagination; the methods below only choose
 * names and argument order.
 */
export function createPaymentsClient(config: PaymentsClientConfig) {
  const resolved = resolveApiConfig(config);
  const segment = config.balanceProcessorSegment ?? 'processor';
  const { read, byId, create, update, list } = operationMethods(resolved);

  return {
    /** `GET /v1/info`: the business profile; any scope. */
    info: { get: read('info.get') },
    paymentRequests: {
      /** `POST /v1/payment-requests` (4.7). Never retried. */
      create: create('paymentRequests.create'),
      get: byId('paymentRequests.get'),
      /** One page (`page` is sent as `current_page`, the name this list takes), or every item by `.all()`. */
      list: list('paymentRequests.list'),
      /** `PUT /v1/payment-requests/{id}` (scope `payments:create`). */
      update: update('paymentRequests.update'),
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
    recurringBilling: {
      /**
       * `POST /v1/recurring-billing`: with `save_card: true` (and `name`, `amount`, `customer_email`) a record
       * whose `url` is a checkout that saves the customer's card; without it, a subscription (`start_date`, and
       * a `plan_id` or `name`, `amount` and `cycle`). Send the customer to `url`. Never retried.
       */
      create: create('recurringBilling.create'),
      /**
       * `GET /v1/recurring-billing`: the records with `status` (default `active`, as the service filters), by
       * `customer_email`, `reference` and `business_recurring_plans_id`.
       */
      list: list('recurringBilling.list'),
      /** `GET /v1/recurring-billing/{id}` (4.2): with the saved card's brand and last four once it is saved. */
      get: byId('recurringBilling.get'),
      /**
       * `PUT /v1/recurring-billing/{id}`: changes the fields given (a `plan_id` takes the plan's cycle and
       * amount, refused on a saved-card record); answers the record. Never retried.
       */
      update: update('recurringBilling.update'),
      /**
       * `POST /v1/charge/recurring-billing/{id}`: charges the saved card `amount` in `currency` (the service
       * requires both) and answers `{ payment_id, recurring_billing_id, amount, currency, status }`. Never retried.
       */
      charge: update('recurringBilling.charge'),
      /** `DELETE /v1/recurring-billing/{id}`: cancels the record (status `canceled`); answers the record. */
      cancel: byId('recurringBilling.cancel'),
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
      update: update('subscriptionPlans.update'),
      /** `DELETE /v1/subscription-plan/{id}`. */
      delete: async (planId: string, options?: CallOptions): Promise<void> => {
        await byId('subscriptionPlans.delete')(planId, options);
      },
    },
    beneficiaries: { get: byId('beneficiaries.get') },
    staff: { get: byId('staff.get') },
    balances: {
      transactions: {
        /** `GET /v1/balances/{segment}/transactions` (4.6): by date range (`created_at_from`, `created_at_to`), at most 100 a page. */
        list: list('balances.transactions.list', { segment }),
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
    /** `GET /v1/invoices`: by `customer_email`, `status` and `reference`, page-numbered. */
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
      /** `GET /v1/transfers`: by `beneficiary_id` and `status`. */
      list: list('transfers.list'),
    },
    accountStatus: { get: read('accountStatus.get') },
    /**
     * The service's webhook-events API: the endpoints a business's events are posted to, each with the events it
     * listens to (`webhookEventTypes`). API key only: no OAuth scope grants them, so a Bearer client is refused.
     */
    webhookEvents: {
      /** `GET /v1/webhook-events`: every endpoint of the business, in one plain array (the service pages none). */
      list: read('webhookEvents.list'),
      /** `POST /v1/webhook-events` (JSON): `{ name, url, event_types }`, url https; answers the endpoint. Never retried. */
      create: create('webhookEvents.create'),
      /** `GET /v1/webhook-events/{id}`. */
      get: byId('webhookEvents.get'),
      /** `PUT /v1/webhook-events/{id}` (JSON): any of `name`, `url`, `event_types`; answers the endpoint. */
      update: update('webhookEvents.update'),
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

/** The client of {@link createPaymentsClient}. */
export type PaymentsClient = ReturnType<typeof createPaymentsClient>;
