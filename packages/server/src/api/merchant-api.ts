/**
 * What a merchant's backend needs to take payments: create, read, list and cancel payment requests
 * (spec 4.7, 4.10), read a charge (to confirm `charge.*` webhooks) and the business profile. Each method is
 * one row of `@paykit/core`'s operation table (path, method, schemas), called through `callOperation`.
 */
import {
  parseOrThrow,
  resourceId,
  type BusinessInfo,
  type Charge,
  type OperationId,
  type PaymentRequest,
  type PaymentRequestCreateInput,
  type PaymentRequestList,
} from '@paykit/core';
import { callOperation, type OperationArgs } from '../client/call-operation.js';
import { resolveApiConfig, type ApiConfig, type ResolvedApiConfig } from './config.js';
import type { CallOptions } from './transport.js';

/** A page request of a list. */
export interface ListQuery {
  /** A `next_cursor` or `prev_cursor` from the previous page. */
  cursor?: string;
  /** Items per page, at most 100. */
  perPage?: number;
  /**
   * A page number from 1, for the real service's numbered answer (`meta.current_page` of `meta.last_page`);
   * sent as `current_page`, the name its payment-request list takes.
   */
  page?: number;
}

/** The payment operations of one merchant, authenticated by API key or OAuth connection. */
export interface MerchantApi {
  /**
   * Creates a payment request (spec 4.7). The body is validated before anything is sent (`validation_failed`
   * names each bad field); the call is never retried, so a payment request is never created twice by paykit.
   */
  createPaymentRequest(body: PaymentRequestCreateInput, options?: CallOptions): Promise<PaymentRequest>;
  /** Reads a payment request; `not_found` when it is not this merchant's. Retried on transient failures. */
  getPaymentRequest(id: string, options?: CallOptions): Promise<PaymentRequest>;
  /** One page of payment requests, newest first. */
  listPaymentRequests(query?: ListQuery, options?: CallOptions): Promise<PaymentRequestList>;
  /** Cancels (deletes) a pending payment request (scope `payments:cancel`). */
  cancelPaymentRequest(id: string, options?: CallOptions): Promise<PaymentRequest>;
  /** Reads a charge. */
  getCharge(id: string, options?: CallOptions): Promise<Charge>;
  /** The profile of the business these credentials act on (`GET /v1/info`; any scope will do). */
  getBusinessInfo(options?: CallOptions): Promise<BusinessInfo>;
  /** The resolved configuration, for clients built on the same transport. */
  readonly config: ResolvedApiConfig;
}

/**
 * A {@link MerchantApi} over the given configuration.
 *
 * @example
 * ```ts
 * const api = createMerchantApi({ apiBaseUrl: 'http://127.0.0.1:4010', apiKey: process.env.PAYMENTS_API_KEY });
 * const request = await api.createPaymentRequest({ amount: '12.50', currency: 'SGD', redirect_url: 'https://shop.example/return' });
 * ```
 */
export function createMerchantApi(config: ApiConfig): MerchantApi {
  const resolved = resolveApiConfig(config);
  const id = (value: string) => ({ id: parseOrThrow(resourceId, value, 'id') });

  // Bound to this configuration; the row of `op` does the rest.
  const call = <K extends OperationId>(op: K, args: OperationArgs, options: CallOptions | undefined) =>
    callOperation(resolved, op, args, options);

  return {
    config: resolved,
    createPaymentRequest: async (body, options) => call('paymentRequests.create', { body }, options),
    getPaymentRequest: async (requestId, options) => call('paymentRequests.get', { params: id(requestId) }, options),
    listPaymentRequests: async (query = {}, options) =>
      call(
        'paymentRequests.list',
        {
          query: {
            [resolved.pagination.cursorParam]: query.cursor,
            [resolved.pagination.pageSizeParam]: query.perPage,
            current_page: query.page,
          },
        },
        options,
      ),
    cancelPaymentRequest: async (requestId, options) =>
      call('paymentRequests.cancel', { params: id(requestId) }, options),
    getBusinessInfo: async (options) => call('info.get', {}, options),
    getCharge: async (chargeId, options) => call('charges.get', { params: id(chargeId) }, options),
  };
}
