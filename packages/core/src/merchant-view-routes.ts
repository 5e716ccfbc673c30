/**
 * The contract between a platform's merchant-view elements (`<paykit-connection>`, `<paykit-merchant-payments>`,
 * `<paykit-merchant-payouts>`) and `@paykit/server`'s handler: the routes under its prefix that read, with a
 * connected merchant's own credentials, what the platform shows that merchant, and the shape of each answer.
 * Plain strings and types, no zod, as in `handler-routes.ts`: the browser gets a few bytes.
 *
 * Every route needs the platform's `merchantView` hook to allow the caller (no hook, no route: 404), and the
 * merchant connected for a read (the connection route answers either way). The browser holds no secret and decides
 * nothing: amounts are the API's, formatted by the server in the currency's digits; a refund's bounds are the
 * server's.
 *
 * | route | caller | answers |
 * |---|---|---|
 * | `GET {prefix}/merchants/{merchant}/connection` | `<paykit-connection>` | {@link MerchantConnectionAnswer} |
 * | `GET {prefix}/merchants/{merchant}/payments[?cursor=]` | `<paykit-merchant-payments>` | {@link MerchantPaymentsAnswer}: charges and uncharged payment requests, merged |
 * | `GET {prefix}/merchants/{merchant}/payments/{charge}` | `<paykit-merchant-payments>` (a charge row's detail) | {@link MerchantPaymentDetail} |
 * | `POST {prefix}/merchants/{merchant}/refunds` {@link MerchantRefundRequest}, `Idempotency-Key` | `<paykit-merchant-payments>` | {@link MerchantRefundAnswer} |
 * | `GET {prefix}/merchants/{merchant}/payouts[?cursor=]` | `<paykit-merchant-payouts>` | {@link MerchantPayoutsAnswer} |
 */
import type { ConnectedBusinessAnswer } from './handler-routes.js';

/** The path of the merchant-view routes, before the merchant's business id. */
export const MERCHANTS_PATH = '/merchants';

/** What follows `{prefix}/merchants/{merchant}` for each view. */
export const MERCHANT_VIEW_PATHS = {
  connection: '/connection',
  payments: '/payments',
  refunds: '/refunds',
  payouts: '/payouts',
} as const;

/** `{prefix}` + this: the route of `view` for `merchant` (its id encoded as a path segment). */
export function merchantViewPath(merchant: string, view: keyof typeof MERCHANT_VIEW_PATHS): string {
  return `${MERCHANTS_PATH}/${encodeURIComponent(merchant)}${MERCHANT_VIEW_PATHS[view]}`;
}

/**
 * How the platform's connection to a merchant stands:
 * - `connected`: the handler holds a refresh token that works (or an access token still live);
 * - `connect_again`: it held one, and the service no longer takes it (expired, revoked, the app's secret
 *   regenerated): the merchant must authorize again, and the element shows the connect button;
 * - `not_connected`: the handler holds nothing for this merchant.
 */
export type MerchantConnectionState = 'connected' | 'connect_again' | 'not_connected';

/** What `GET …/connection` answers. */
export interface MerchantConnectionAnswer {
  merchant: string;
  state: MerchantConnectionState;
  /** The connected business as the API describes it; absent unless `connected`. */
  business?: ConnectedBusinessAnswer;
  /** When the connection was made (the code exchange), ISO 8601; absent when `not_connected`. */
  connected_at?: string;
}

/**
 * An amount as the server formats it: the API's number in the currency's minor digits (`12.50` SGD, `1250` JPY),
 * with its currency in capitals. The element shows it with `Intl.NumberFormat`, never computes with it.
 */
export interface MerchantMoney {
  amount: string;
  currency: string;
}

/**
 * What a row of the payments list is:
 * - `charge`: a payment made, paid or failed (`GET /v1/charges`);
 * - `payment_request`: a payment request nothing has charged (`GET /v1/payment-requests`, status `pending`,
 *   `expired` or `canceled`). A completed or failed request is listed as its charge, not again as a request.
 *
 * A request row has no refunds (`refunded` and `refundable` are zero), no method, and no detail route: the element
 * shows what the row has. Its checkout URL is never sent to the view.
 */
export type MerchantPaymentKind = 'charge' | 'payment_request';

/** One payment of a merchant: a charge, or a payment request not charged (see {@link MerchantPaymentKind}), newest first. */
export interface MerchantPaymentRow extends MerchantMoney {
  /** The charge's id, or the payment request's for a `payment_request` row. */
  id: string;
  /** A charge, or a payment request nothing has charged. An element reading an answer without it takes a charge. */
  kind: MerchantPaymentKind;
  /**
   * The API's status, as text: a charge's (`succeeded`, `failed`, `refunded`, `partially_refunded`, …), or a
   * request's (`pending`, `expired`, `canceled`).
   */
  status: string;
  /** The payment method's code (`card`, `paynow_online`, …), when the API names one (a charge's, never a request's). */
  method?: string;
  /** The payment request a charge paid, when it paid one. */
  payment_request?: string;
  /** What the merchant wrote (the request's purpose), when there is one. */
  description?: string;
  /** ISO 8601 (a request's, which the API writes without an offset, in UTC with `Z`). */
  created_at: string;
  /** Refunded so far, in the payment's currency (`0.00` when nothing). */
  refunded: string;
  /** What a refund may still take, in the payment's currency (`0.00` when nothing). */
  refundable: string;
}

/** A page of a list, newest first. `next` (opaque) asks for the following page; absent on the last. */
export interface MerchantPage<Row> {
  items: Row[];
  next?: string;
}

/** What `GET …/payments` answers: a page of payments, and whether this caller may refund them. */
export interface MerchantPaymentsAnswer extends MerchantPage<MerchantPaymentRow> {
  can_refund: boolean;
}

/** One refund of a payment. */
export interface MerchantRefundRow extends MerchantMoney {
  id: string;
  /** ISO 8601. */
  created_at: string;
}

/** What `GET …/payments/{charge}` answers: the charge's row (`kind: 'charge'`) and its refunds, oldest first. */
export interface MerchantPaymentDetail extends MerchantPaymentRow {
  refunds: MerchantRefundRow[];
  can_refund: boolean;
}

/**
 * What `POST …/refunds` takes (JSON), with an `Idempotency-Key` header made once per confirmed click: the charge
 * and the amount in its currency's digits. The server refuses more than the payment's `refundable` with a field
 * error on `amount`, whatever the browser sent.
 */
export interface MerchantRefundRequest {
  charge: string;
  amount: string;
}

/** What `POST …/refunds` answers: the refund as the API made it, and the payment as the API now reads it. */
export interface MerchantRefundAnswer {
  refund: MerchantRefundRow;
  payment: MerchantPaymentDetail;
}

/** One payout (to the merchant's bank) or transfer (to a beneficiary), newest first. */
export interface MerchantPayoutRow extends MerchantMoney {
  id: string;
  kind: 'payout' | 'transfer';
  /** The API's status (`scheduled`, `processing`, `paid`, `failed`, `canceled`, …), as text. */
  status: string;
  /** ISO 8601. */
  created_at: string;
  /** A payout's expected arrival, `YYYY-MM-DD`. */
  arrival_date?: string;
  /** A transfer's beneficiary, as the API names them (holder or nickname). */
  beneficiary?: string;
}

/** What `GET …/payouts` answers. */
export type MerchantPayoutsAnswer = MerchantPage<MerchantPayoutRow>;
