/**
 * The contract between the elements and `@paykit/server`'s handler: the paths under its prefix and the shape of
 * each answer, written once and read by both sides. Plain strings and types, no zod: the browser gets a few bytes.
 *
 * | route | caller | answers |
 * |---|---|---|
 * | `POST {prefix}` + {@link PAYMENT_REQUESTS_PATH} | `<paykit-pay-button>` | {@link CheckoutStarted} |
 * | `GET {prefix}` + {@link PAYMENT_REQUESTS_PATH} + `/{id}` | `<paykit-return>` | {@link PaymentStatus} |
 * | `POST {prefix}` + {@link OAUTH_CALLBACK_PATH} | `<paykit-return>` (platforms) | {@link OAuthCallbackAnswer} |
 * | `POST {prefix}` + {@link WEBHOOKS_PATH} | the Payments API | `{ received: true }` |
 */
import type { BusinessInfo } from './schemas/oauth.js';

/** Creates a payment request (POST); with `/{id}` appended, its confirmed status (GET). */
export const PAYMENT_REQUESTS_PATH = '/payment-requests';
/** Exchanges a platform's OAuth code (POST). */
export const OAUTH_CALLBACK_PATH = '/oauth/callback';
/** The Payments API's notifications (POST). */
export const WEBHOOKS_PATH = '/webhooks';

/**
 * The fields of a payment the handler answers with, as non-empty strings: the first
 * {@link REQUIRED_PAYMENT_FIELDS} always, the others when the payment has them. The types below are made from
 * this list, so adding a field here is a type error in each place that builds an answer.
 */
export const PAYMENT_FIELDS = ['id', 'status', 'amount', 'currency', 'purpose', 'reference'] as const;
/** How many of {@link PAYMENT_FIELDS}, from the first, every payment answer has. */
export const REQUIRED_PAYMENT_FIELDS = 4;

/** The first `N` names of `T`. */
type First<T extends readonly unknown[], N extends number, Taken extends unknown[] = []> = Taken['length'] extends N
  ? Taken[number]
  : T extends readonly [infer Head, ...infer Rest]
    ? First<Rest, N, [...Taken, Head]>
    : Taken[number];
type Always = First<typeof PAYMENT_FIELDS, typeof REQUIRED_PAYMENT_FIELDS>;
type Shown = Exclude<(typeof PAYMENT_FIELDS)[number], Always>;

/** The part of every payment answer: `{ id, status, amount, currency }`, the currency in capitals. */
export type PaymentAnswer = { [name in Always]: string };

/**
 * On a platform's handler, the business id of the connected merchant a payment request was created for and read
 * with: the API's payment request names no business, so the handler says which one it used. Absent for a shop.
 */
export type ForMerchant = { merchant?: string };

/** What `POST {prefix}/payment-requests` answers: enough to navigate and to show, nothing secret. */
export type CheckoutStarted = PaymentAnswer & { url: string } & ForMerchant;

/**
 * What `GET {prefix}/payment-requests/{id}` answers: the status as the API confirms it, with what the return page
 * may show: `purpose` (set by the merchant's backend) and `reference` (the API's `reference_number`).
 */
export type PaymentStatus = PaymentAnswer & { [name in Shown]?: string } & ForMerchant;

/** The connected business's fields that `POST {prefix}/oauth/callback` answers with. */
export type ConnectedBusinessAnswer = Pick<BusinessInfo, 'id' | 'name' | 'country' | 'currency' | 'payments_enabled'>;

/** What `POST {prefix}/oauth/callback` answers: the business that is now connected. */
export interface OAuthCallbackAnswer {
  business: ConnectedBusinessAnswer;
}
