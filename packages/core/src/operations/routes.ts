/**
 * The operations of the Payments API as HTTP routes: for each one its method, path template, the OAuth scope a
 * Bearer token needs, whether a failed call may be sent again, and how its lists page. This half of the
 * operation table has no zod, so that the scope map built from it (`scopes.ts`) stays browser-safe; the
 * schemas of each operation are the other half (`payloads.ts`), keyed by the same ids, and `index.ts` joins
 * the two into one row per operation.
 *
 * Ids are `<group>.<verb>`, the same names as the typed client's methods (`paymentRequests.create` is
 * `client.paymentRequests.create`).
 *
 * @see spec sections 4 (endpoints), 4.10 (the other operations) and 5.2 (scopes)
 */
import type { Scope } from '../scope-names.js';

/** The HTTP methods the API uses. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call an operation: a Bearer token holding this scope (or its family, spec 5.2), `any-token` (any
 * valid token, rule 2: `GET /v1/info`), or `api-key-only` (no scope of spec 5.2 grants it: the business API
 * key must be used).
 */
export type OperationScope = Scope | 'any-token' | 'api-key-only';

/**
 * Whether a call that failed in transit may be sent again: `safe` for reads, which change nothing; `never`
 * for anything that creates, changes or moves money, since the first try may have arrived (a payment request
 * must never be created twice by paykit).
 */
export type RetryPolicy = 'safe' | 'never';

/**
 * How an operation's answer pages, the shape the real service documents for it (the sandbox answers it so, and
 * its `operation-answers` test checks every list against its row):
 * - `none`: one resource;
 * - `spec-cursor`: spec 2.6, `{ data, meta: { per_page, next_cursor, prev_cursor } }` with `per_page` a string
 *   (the names of the cursor and page-size parameters are configuration: spec 4.6 withholds them);
 * - `cursor`: the service's cursor lists, the same cursors plus `links` and `meta.path`, `per_page` a number;
 * - `numbered`: its page-numbered lists, `meta.current_page` of `meta.last_page`, `per_page` a number, `total`.
 *
 * The client reads all three and its `.all()` follows cursors or page numbers, whichever the answer carries.
 */
export type PaginationKind = 'none' | 'spec-cursor' | 'cursor' | 'numbered';

/** The list shapes of {@link PaginationKind}. */
export type ListKind = Exclude<PaginationKind, 'none'>;

/** One operation's route. */
export interface OperationRoute {
  readonly method: HttpMethod;
  /** The path, with `{name}` for each path parameter (one whole segment), e.g. `/v1/payment-requests/{id}`. */
  readonly path: `/v1/${string}`;
  /** Other path forms the API answers for the same operation (spec 4.5 `POST /v1/refund` beside 5.2's `/v1/refunds`). */
  readonly aliases?: readonly `/v1/${string}`[];
  readonly scope: OperationScope;
  readonly retry: RetryPolicy;
  readonly pagination: PaginationKind;
  /** A list's page size when the call asks none: what the service documents for it (the sandbox answers so). */
  readonly perPage?: number;
  /**
   * The query parameter a page number goes in, for the lists the client may walk by number: `page` unless the
   * service names it otherwise (its payment-request list takes `current_page`).
   */
  readonly pageParam?: 'page' | 'current_page';
  /**
   * `json` when the operation's body is JSON whatever the client is configured to send (spec 4.5 shows JSON
   * for refunds; paykit sends JSON to the operations whose bodies the spec does not show). Absent: the
   * configured encoding, form by default (spec 4.7).
   */
  readonly encoding?: 'json';
}

const read = { method: 'GET', retry: 'safe', pagination: 'none' } as const;
const list = <P extends ListKind, N extends number>(pagination: P, perPage: N) =>
  ({ method: 'GET', retry: 'safe', pagination, perPage }) as const;
const write = <M extends 'POST' | 'PUT' | 'DELETE'>(method: M) =>
  ({ method, retry: 'never', pagination: 'none' }) as const;

/**
 * Every operation of the API that paykit calls or the sandbox serves. The scopes of 4.10 and 5.2 are the
 * spec's; where it names none, the choice is paykit's and said beside the row. Payments scopes also cover
 * subscription plans and recurring billing (5.2 rule 1). A list's `perPage` is the default its OpenAPI documents
 * (charges 25; payment requests, customers, transfers, invoices, products and card readers 10); where it shows
 * none, 20, as spec 2.6's ledger.
 */
export const OPERATION_ROUTES = {
  'info.get': { ...read, path: '/v1/info', scope: 'any-token' },

  'paymentRequests.create': { ...write('POST'), path: '/v1/payment-requests', scope: 'payments:create' },
  'paymentRequests.list': {
    ...list('cursor', 10),
    path: '/v1/payment-requests',
    scope: 'payments:read',
    pageParam: 'current_page',
  },
  'paymentRequests.get': { ...read, path: '/v1/payment-requests/{id}', scope: 'payments:read' },
  'paymentRequests.update': { ...write('PUT'), path: '/v1/payment-requests/{id}', scope: 'payments:create' },
  'paymentRequests.cancel': { ...write('DELETE'), path: '/v1/payment-requests/{id}', scope: 'payments:cancel' },

  'charges.list': { ...list('cursor', 25), path: '/v1/charges', scope: 'payments:read' },
  'charges.get': { ...read, path: '/v1/charges/{id}', scope: 'payments:read' },

  'refunds.create': {
    ...write('POST'),
    path: '/v1/refunds',
    aliases: ['/v1/refund'],
    scope: 'payments:refund',
    encoding: 'json',
  },
  // Reading a refund is "viewing payment details" (payments:read), paykit's reading of 5.2.
  'refunds.get': { ...read, path: '/v1/refunds/{id}', scope: 'payments:read' },

  'payouts.get': { ...read, path: '/v1/payouts/{id}', scope: 'payments:read' },
  'balances.transactions.list': {
    ...list('spec-cursor', 20),
    path: '/v1/balances/{segment}/transactions',
    scope: 'payments:read',
  },

  // Creating a recurring billing (with save_card: a record whose checkout saves a card) starts payments.
  'recurringBilling.create': { ...write('POST'), path: '/v1/recurring-billing', scope: 'payments:create' },
  'recurringBilling.list': { ...list('cursor', 20), path: '/v1/recurring-billing', scope: 'payments:read' },
  'recurringBilling.get': { ...read, path: '/v1/recurring-billing/{id}', scope: 'payments:read' },
  'recurringBilling.update': { ...write('PUT'), path: '/v1/recurring-billing/{id}', scope: 'payments:create' },
  'recurringBilling.charge': {
    ...write('POST'),
    path: '/v1/charge/recurring-billing/{id}',
    scope: 'payments:create',
    encoding: 'json',
  },
  'recurringBilling.cancel': { ...write('DELETE'), path: '/v1/recurring-billing/{id}', scope: 'payments:cancel' },

  'subscriptionPlans.create': {
    ...write('POST'),
    path: '/v1/subscription-plan',
    scope: 'payments:create',
    encoding: 'json',
  },
  'subscriptionPlans.list': { ...list('numbered', 20), path: '/v1/subscription-plan', scope: 'payments:read' },
  'subscriptionPlans.get': { ...read, path: '/v1/subscription-plan/{id}', scope: 'payments:read' },
  'subscriptionPlans.update': {
    ...write('PUT'),
    path: '/v1/subscription-plan/{id}',
    scope: 'payments:create',
    encoding: 'json',
  },
  // Deleting a plan is "cancel or delete" (payments:cancel), paykit's reading of 5.2.
  'subscriptionPlans.delete': { ...write('DELETE'), path: '/v1/subscription-plan/{id}', scope: 'payments:cancel' },

  'beneficiaries.get': { ...read, path: '/v1/beneficiaries/{id}', scope: 'business:read' },
  'staff.get': { ...read, path: '/v1/staffs/{id}', scope: 'business:read' },
  // Account status is "account info" (business:read, spec 5.2).
  'accountStatus.get': { ...read, path: '/v1/account-status', scope: 'business:read' },

  'products.create': { ...write('POST'), path: '/v1/products', scope: 'commerce:create', encoding: 'json' },
  'products.list': { ...list('numbered', 10), path: '/v1/products', scope: 'commerce:read' },
  'products.delete': { ...write('DELETE'), path: '/v1/products/{id}', scope: 'commerce:delete' },
  'invoices.create': { ...write('POST'), path: '/v1/invoices', scope: 'commerce:create', encoding: 'json' },
  'invoices.list': { ...list('numbered', 10), path: '/v1/invoices', scope: 'commerce:read' },
  'orders.list': { ...list('cursor', 20), path: '/v1/orders', scope: 'commerce:read' },
  // The service's "get-order" (its orders OpenAPI); what a server re-fetches when an `order.*` webhook names one.
  'orders.get': { ...read, path: '/v1/orders/{id}', scope: 'commerce:read' },

  'customers.create': { ...write('POST'), path: '/v1/customers', scope: 'customer:create', encoding: 'json' },
  'customers.list': { ...list('cursor', 10), path: '/v1/customers', scope: 'customer:read' },

  // Transfers move money out of the business and no scope of spec 5.2 grants them: API key only.
  'transfers.create': { ...write('POST'), path: '/v1/transfers', scope: 'api-key-only', encoding: 'json' },
  // An estimate is a POST that changes nothing (the service's estimate-fee operation), so it may be sent again.
  'transfers.estimate': {
    method: 'POST',
    retry: 'safe',
    pagination: 'none',
    path: '/v1/transfers/estimate',
    scope: 'api-key-only',
    encoding: 'json',
  },
  'transfers.get': { ...read, path: '/v1/transfers/{id}', scope: 'api-key-only' },
  'transfers.list': { ...list('cursor', 10), path: '/v1/transfers', scope: 'api-key-only' },

  // Webhook endpoints (the service's webhook-events API) decide where a business's events, payments included, are
  // sent: no scope of spec 5.2 grants managing them, and the service documents only X-BUSINESS-API-KEY for them.
  // API key only. The list is a plain array (its OpenAPI), not a page.
  'webhookEvents.list': { ...read, path: '/v1/webhook-events', scope: 'api-key-only' },
  'webhookEvents.create': { ...write('POST'), path: '/v1/webhook-events', scope: 'api-key-only', encoding: 'json' },
  'webhookEvents.get': { ...read, path: '/v1/webhook-events/{id}', scope: 'api-key-only' },
  'webhookEvents.update': {
    ...write('PUT'),
    path: '/v1/webhook-events/{id}',
    scope: 'api-key-only',
    encoding: 'json',
  },
  'webhookEvents.delete': { ...write('DELETE'), path: '/v1/webhook-events/{id}', scope: 'api-key-only' },

  // Terminals and static QR codes are the in-person side of payments (spec 5.4.8): payments:read.
  'terminals.list': { ...list('numbered', 10), path: '/v1/terminals', scope: 'payments:read' },
  'qrCodes.list': { ...list('cursor', 20), path: '/v1/static-qr-codes', scope: 'payments:read' },
} as const satisfies Record<string, OperationRoute>;

/**
 * The token endpoint (spec 4.8) under the API's base URL. Not a row: it takes client credentials in its body, not
 * an API key or a token, and the server's OAuth client reaches it through configuration or discovery.
 */
export const OAUTH_TOKEN_PATH = '/v1/open/oauth/token';

/** The id of an operation, e.g. `paymentRequests.create`. */
export type OperationId = keyof typeof OPERATION_ROUTES;

/** Every operation id, in the table's order. */
// Object.keys types its keys as strings; the table is a literal, so its keys are the ids.
export const OPERATION_IDS = Object.keys(OPERATION_ROUTES) as OperationId[];
