/**
 * What a merchant's backend needs to take payments: create, read, list and cancel payment requests
 * (spec 4.7, 4.10), read a charge (to confirm `charge.*` webhooks) and the business profile. Each method is
 * one row of `@paykit/core`'s operation table, made by the same operation methods as the typed client.
 */
import type { BusinessInfo, Charge, PaymentRequest, PaymentRequestCreateInput, PaymentRequestList } from '@paykit/core';
import { operationMethods, type PageQuery } from '../client/operation-methods.js';
import { resolveApiConfig, type ApiConfig, type ResolvedApiConfig } from './config.js';
import type { CallOptions } from './transport.js';

/** The payment operations of one merchant, authenticated by API key or OAuth connection. */
export interface MerchantApi {
  /**
   * Creates a payment request (spec 4.7). The body is validated before anything is sent (`validation_failed`
   * names each bad field); the call is never retried, so a payment request is never created twice by paykit.
   */
  createPaymentRequest(body: PaymentRequestCreateInput, options?: CallOptions): Promise<PaymentRequest>;
  /** Reads a payment request; `not_found` when it is not this merchant's. Retried on transient failures. */
  getPaymentRequest(id: string, options?: CallOptions): Promise<PaymentRequest>;
  /** One page of payment requests, newest first (a page number is sent as `current_page`, as this list names it). */
  listPaymentRequests(query?: PageQuery, options?: CallOptions): Promise<PaymentRequestList>;
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
 * A {@link MerchantApi} over the given configuration: six methods of the typed client
 * (`@paykit/server/client`), under the names a merchant's backend reads them by, made of the same
 * operation methods without loading the rest of the client.
 *
 * @example
 * ```ts
 * const api = createMerchantApi({ apiBaseUrl: 'http://127.0.0.1:4010', apiKey: process.env.PAYMENTS_API_KEY });
 * const request = await api.createPaymentRequest({ amount: '12.50', currency: 'SGD', redirect_url: 'https://shop.example/return' });
 * ```
 */
export function createMerchantApi(config: ApiConfig): MerchantApi {
  const resolved = resolveApiConfig(config);
  const { read, byId, create, list } = operationMethods(resolved);
  return {
    config: resolved,
    createPaymentRequest: create('paymentRequests.create'),
    getPaymentRequest: byId('paymentRequests.get'),
    listPaymentRequests: list('paymentRequests.list'),
    cancelPaymentRequest: byId('paymentRequests.cancel'),
    getCharge: byId('charges.get'),
    getBusinessInfo: read('info.get'),
  };
}
