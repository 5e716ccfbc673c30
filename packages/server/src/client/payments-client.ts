/**
 * The whole Payments API as one typed client, grouped by resource (spec section 4 and the table of 4.10).
 * Every request body is validated before it is sent; every answer is parsed by `@paykit/core`'s schemas;
 * every list is also an async iterator that follows cursors. Works the same with an API key, an OAuth
 * connection (`auth`) and a platform key.
 *
 * This is the `@paykit/server/client` entry: a shop that only takes payments does not load it.
 */
import {
  accountStatusSchema,
  balanceTransactionListSchema,
  balanceTransactionQuerySchema,
  beneficiarySchema,
  businessInfoSchema,
  chargeSchema,
  customerCreateSchema,
  customerSchema,
  invoiceCreateSchema,
  invoiceSchema,
  listOf,
  orderSchema,
  parseOrThrow,
  paymentRequestCreateSchema,
  paymentRequestSchema,
  payoutSchema,
  productCreateSchema,
  productSchema,
  refundCreateSchema,
  refundSchema,
  resourceId,
  savedCardChargeSchema,
  savedCardSchema,
  staffMemberSchema,
  staticQrCodeSchema,
  subscriptionPlanCreateSchema,
  subscriptionPlanSchema,
  terminalSchema,
  transferCreateSchema,
  transferSchema,
  type BalanceTransactionQuery,
  type Page,
} from '@paykit/core';
import * as z from 'zod';
import { resolveApiConfig, type ApiConfig, type ResolvedApiConfig } from '../api/config.js';
import { callApi, type CallOptions } from '../api/transport.js';
import { followCursors } from './paginate.js';

/** Options of {@link createPaymentsClient}. */
export interface PaymentsClientConfig extends ApiConfig {
  /**
   * The fixed path segment of the balance-transactions list, `GET /v1/balances/{segment}/transactions`
   * (spec 4.6 withholds the processor's name). paykit's default, also the sandbox's: `processor`.
   */
  balanceProcessorSegment?: string;
}

/** A page request. */
export interface PageQuery {
  cursor?: string;
  perPage?: number;
}

/** A list operation: one page, or every item by `for await`. */
export interface ListOperation<Q, T> {
  (query?: Q & PageQuery, options?: CallOptions): Promise<Page<T>>;
  /** Every item of every page, following `next_cursor`; `perPage` sets the size of each page fetched. */
  all(query?: Q & { perPage?: number }, options?: CallOptions): AsyncGenerator<T>;
}

type Out<S extends z.ZodType> = z.output<S>;
type In<S extends z.ZodType> = z.input<S>;

/** Builds the client. */
export function createPaymentsClient(config: PaymentsClientConfig) {
  const resolved = resolveApiConfig(config);
  const segment = config.balanceProcessorSegment ?? 'processor';
  const id = (value: string, what: string) => parseOrThrow(resourceId, value, what);
  const call = <S extends z.ZodType>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string[],
    schema: S,
    extra: {
      body?: Record<string, unknown>;
      query?: Record<string, string | number | undefined>;
      encoding?: 'form' | 'json';
    } = {},
    options?: CallOptions,
  ) => callApi(resolved, { method, path: ['v1', ...path], schema, ...extra }, options);

  const get =
    <S extends z.ZodType>(path: string[], schema: S) =>
    async (itemId: string, options?: CallOptions): Promise<Out<S>> =>
      call('GET', [...path, id(itemId, 'The id')], schema, {}, options);

  const create =
    <B extends z.ZodType, S extends z.ZodType>(
      path: string[],
      body: B,
      schema: S,
      what: string,
      encoding?: 'form' | 'json',
    ) =>
    async (input: In<B>, options?: CallOptions): Promise<Out<S>> =>
      call(
        'POST',
        path,
        schema,
        { body: parseOrThrow(body, input, what) as Record<string, unknown>, ...(encoding ? { encoding } : {}) },
        options,
      );

  const list = <S extends z.ZodType, Q extends object = Record<never, never>>(
    path: string[],
    item: S,
    pageSchema: z.ZodType<Page<Out<S>>> = listOf(item),
    checkQuery: (query: Q) => Record<string, string | number | undefined> = (query) =>
      query as Record<string, string | number | undefined>,
  ): ListOperation<Q, Out<S>> => {
    const page = async (query: Q & PageQuery = {} as Q & PageQuery, options?: CallOptions) => {
      const { cursor, perPage, ...rest } = query;
      return call(
        'GET',
        path,
        pageSchema,
        { query: pageQuery(resolved, checkQuery(rest as unknown as Q), cursor, perPage) },
        options,
      );
    };
    return Object.assign(page, {
      all: (query: Q & { perPage?: number } = {} as Q, options?: CallOptions) =>
        followCursors((cursor) => page({ ...query, ...(cursor ? { cursor } : {}) }, options)),
    });
  };

  return {
    /** `GET /v1/info`: the business profile; any scope. */
    info: { get: (options?: CallOptions) => call('GET', ['info'], businessInfoSchema, {}, options) },
    paymentRequests: {
      /** `POST /v1/payment-requests` (4.7). Never retried. */
      create: create(['payment-requests'], paymentRequestCreateSchema, paymentRequestSchema, 'Payment request'),
      get: get(['payment-requests'], paymentRequestSchema),
      list: list(['payment-requests'], paymentRequestSchema),
      /** `PUT /v1/payment-requests/{id}` (scope `payments:create`). */
      update: async (requestId: string, input: In<typeof paymentRequestCreateSchema>, options?: CallOptions) =>
        call(
          'PUT',
          ['payment-requests', id(requestId, 'The id')],
          paymentRequestSchema,
          { body: parseOrThrow(paymentRequestCreateSchema, input, 'Payment request') },
          options,
        ),
      /** `DELETE /v1/payment-requests/{id}` (scope `payments:cancel`). */
      cancel: async (requestId: string, options?: CallOptions) =>
        call('DELETE', ['payment-requests', id(requestId, 'The id')], paymentRequestSchema, {}, options),
    },
    charges: { get: get(['charges'], chargeSchema), list: list(['charges'], chargeSchema) },
    refunds: {
      /** `POST /v1/refunds` (JSON, 4.5). `amount` must not exceed what remains refundable. */
      create: create(['refunds'], refundCreateSchema, refundSchema, 'Refund', 'json'),
      get: get(['refunds'], refundSchema),
    },
    payouts: { get: get(['payouts'], payoutSchema) },
    savedCards: {
      /** `GET /v1/recurring-billing/{id}` (4.2). */
      get: get(['recurring-billing'], savedCardSchema),
      /** `POST /v1/charge/recurring-billing/{id}`: charges the saved card. Never retried. */
      charge: async (cardId: string, input: In<typeof savedCardChargeSchema> = {}, options?: CallOptions) =>
        call(
          'POST',
          ['charge', 'recurring-billing', id(cardId, 'The id')],
          chargeSchema,
          { body: parseOrThrow(savedCardChargeSchema, input, 'Charge'), encoding: 'json' },
          options,
        ),
      /** `DELETE /v1/recurring-billing/{id}`: cancels the record. */
      cancel: async (cardId: string, options?: CallOptions) =>
        call('DELETE', ['recurring-billing', id(cardId, 'The id')], savedCardSchema, {}, options),
    },
    subscriptionPlans: {
      create: create(
        ['subscription-plan'],
        subscriptionPlanCreateSchema,
        subscriptionPlanSchema,
        'Subscription plan',
        'json',
      ),
      list: list(['subscription-plan'], subscriptionPlanSchema),
    },
    beneficiaries: { get: get(['beneficiaries'], beneficiarySchema) },
    staff: { get: get(['staffs'], staffMemberSchema) },
    balances: {
      transactions: {
        /** `GET /v1/balances/{segment}/transactions` (4.6): by date range, at most 100 a page. */
        list: list<typeof balanceTransactionListSchema.shape.data.element, BalanceTransactionRange>(
          ['balances', segment, 'transactions'],
          balanceTransactionListSchema.shape.data.element,
          balanceTransactionListSchema,
          (range) => {
            const checked = parseOrThrow(balanceTransactionQuerySchema, range as BalanceTransactionQuery, 'The query');
            return { created_at_from: checked.created_at_from, created_at_to: checked.created_at_to };
          },
        ),
      },
    },
    products: {
      create: create(['products'], productCreateSchema, productSchema, 'Product', 'json'),
      list: list(['products'], productSchema),
      /** `DELETE /v1/products/{id}` (scope `commerce:delete`). */
      delete: async (productId: string, options?: CallOptions) =>
        call('DELETE', ['products', id(productId, 'The id')], z.unknown(), {}, options).then(() => undefined),
    },
    invoices: {
      create: create(['invoices'], invoiceCreateSchema, invoiceSchema, 'Invoice', 'json'),
      list: list(['invoices'], invoiceSchema),
    },
    orders: { list: list(['orders'], orderSchema) },
    customers: {
      create: create(['customers'], customerCreateSchema, customerSchema, 'Customer', 'json'),
      list: list(['customers'], customerSchema),
    },
    transfers: {
      create: create(['transfers'], transferCreateSchema, transferSchema, 'Transfer', 'json'),
      get: get(['transfers'], transferSchema),
      list: list(['transfers'], transferSchema),
    },
    accountStatus: {
      get: (options?: CallOptions) => call('GET', ['account-status'], accountStatusSchema, {}, options),
    },
    terminals: { list: list(['terminals'], terminalSchema) },
    qrCodes: { list: list(['static-qr-codes'], staticQrCodeSchema) },
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
