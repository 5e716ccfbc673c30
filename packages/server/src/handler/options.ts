/**
 * What a merchant configures when mounting paykit's handler: how to reach the API, how to price what the
 * shopper chose, and what to do when a payment is confirmed.
 */
import type { PaymentRequestCreateInput, ShopperChoice } from '@paykit/core';
import type { ApiConfig } from '../api/config.js';
import type { MerchantApi } from '../api/merchant-api.js';
import type { ConnectedBusiness, Platform } from '../platform/platform.js';
import type { EventStore } from './event-store.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { Logger } from './logger.js';
import type { WebhookFormat } from '../webhooks/received-webhook.js';
import type { ConfirmedEvent, EventContext } from '../facts/confirmed-event.js';

export type { ConfirmedEvent, CreatedFrom, EventContext, FactSource } from '../facts/confirmed-event.js';

/** What a hook is told about the request that triggered it. */
export interface HookContext {
  /**
   * The incoming request, with its original headers: read its cookies to know who the shopper or the platform's
   * user is. It is a web-standard `Request`, also under Express (`paykitMiddleware`), so what a middleware put on
   * Express's `req` (`req.session`, `req.user`) is not on it: look the session up from its cookie. A page on
   * another origin (`allowedOrigins`) sends no cookies, since the handler does not allow credentials in CORS.
   */
  request: Request;
}

/** Who a webhook says it is from, for choosing the salt that must have signed it (see `webhookSalt`). */
export interface WebhookSaltContext {
  /** `event` (a registered endpoint's JSON) or `notification` (a payment request's `webhook`, a form). */
  format: WebhookFormat;
  /** The kind of object: an event's `Hitpay-Event-Object` as sent (unchecked), `payment_request` for a notification. */
  object: string | null;
  /**
   * The business it names, unverified: an event body's `business_id`, or the `merchant` the handler put on a
   * platform's `webhook` URL. A forger can name any business, but not sign with its salt.
   */
  businessId: string | undefined;
}

/** What the platform's `merchantView` hook allows one caller for one merchant. */
export interface MerchantViewAccess {
  /** May see the merchant's connection, payments and payouts. `false`: every merchant-view route is 403 `view_refused`. */
  view: boolean;
  /**
   * May refund the merchant's payments (only with `view`). `false`: `POST …/refunds` is 403 `refund_refused` and the
   * answers say `can_refund: false`.
   */
  refund: boolean;
}

/** Options of {@link createPaykitHandler}. */
export interface PaykitHandlerOptions {
  /** The path the routes live under. Default `/paykit`. */
  prefix?: string;
  /** A shop: how to reach the Payments API as itself (a configuration, or a client from `createMerchantApi`). */
  api?: ApiConfig | MerchantApi;
  /**
   * A platform: its connected merchants (`createPlatform`). Give this or `api`. The pay routes then act for
   * the merchant the page names (`merchant`), with the platform key; `POST {prefix}/oauth/callback` connects
   * new merchants.
   */
  platform?: Platform;
  /**
   * Runs after a merchant connected through `POST {prefix}/oauth/callback`: attach it to the platform's user
   * named by `context.request`'s cookies. The merchant's credentials are already kept when it runs; throwing
   * answers the callback with that error (a `PaykitError`'s status and message, anything else a logged 500) but
   * does not undo the connection: call `platform.disconnect` for that. It runs again when the merchant connects
   * again.
   */
  onConnected?(connected: ConnectedBusiness, context: HookContext): void | Promise<void>;
  /**
   * A platform: who may see a connected merchant in the platform's own pages (`<paykit-connection>`,
   * `<paykit-merchant-payments>`, `<paykit-merchant-payouts>`), and refund its payments. Given this, the handler
   * serves the merchant-view routes under `{prefix}/merchants/{merchant}/` (core's `merchant-view-routes.ts`),
   * which read with that merchant's own credentials; without it they do not exist (404, as any unknown route).
   *
   * It runs first on every such request, before any store read or API call: look the platform's user up from
   * `context.request`'s cookies and answer whether that user manages `merchant` (a business id from the URL,
   * which anyone can type). `view: false` is 403 `view_refused`; `refund: false` makes the refund route 403
   * `refund_refused`. Throwing a `PaykitError` answers with it (`unauthorized` for no session, say); anything
   * else, or an answer that is not two booleans, is a logged 500.
   *
   * @example
   * ```ts
   * merchantView: async (merchant, { request }) => {
   *   const user = await sessions.userOf(request.headers.get('cookie'));
   *   const role = user && (await db.roleOf(user.id, merchant));
   *   return { view: role !== undefined, refund: role === 'owner' };
   * },
   * ```
   */
  merchantView?(merchant: string, context: HookContext): MerchantViewAccess | Promise<MerchantViewAccess>;
  /**
   * Turns what the shopper chose into the payment request to create. This is where the price is decided,
   * from the merchant's own catalogue or cart: the browser never sets it. Throw a `PaykitError` (say
   * `validation_failed` for an unknown product) to refuse; its message is shown to the shopper. A platform
   * also decides its `platform_commission_amount` here, for the merchant named by `choice.merchant`.
   */
  createPaymentRequest(
    choice: ShopperChoice,
    context: HookContext,
  ): PaymentRequestCreateInput | Promise<PaymentRequestCreateInput>;
  /**
   * The default `redirect_url`: the page with `<paykit-return>`, https (http only on a loopback host). Used when
   * the hook sets none. On a platform the handler adds `merchant=<business id>` to it.
   */
  returnUrl?: string;
  /**
   * The default `webhook`: where this handler's `/webhooks` route is reachable by the API, so a public https URL
   * in production (the local sandbox also delivers to loopback http). Used when the hook sets none. On a platform
   * the handler adds `merchant=<business id>` to it: the service's payment notification names no business.
   */
  webhookUrl?: string;
  /**
   * Runs once per confirmed fact (a payment request completed or failed, a charge created, updated or failed, a
   * payout, order, invoice or transfer event), however often and by whichever path it is learnt: either webhook
   * format, the shopper's return (the status route read a final status from the API), or `handler.reconcile`
   * (`event.source` says which). The paths race; the event store lets one of them run the hook. Throwing from a
   * webhook answers 500, so the API delivers again; from a return, the shopper still sees the status and the
   * claim is given back for the next path. Keep it idempotent in other systems with `event.fact` as the key.
   */
  onEvent?(event: ConfirmedEvent, context: EventContext): void | Promise<void>;
  /**
   * The salt webhooks are signed with (shown beside the API key in the service's dashboard; the sandbox's
   * `seed.salt`), or a function that picks it for each delivery. With a salt, `POST {prefix}/webhooks` checks the
   * signature first (HMAC-SHA256 over the exact bytes of an event webhook, or over the fields of a payment
   * notification, compared in constant time) and refuses a missing or wrong one with 401 before anything else
   * happens: no claim, no API call, no hook. The resource is still re-fetched before the hook runs.
   *
   * A platform knows its own salt, which signs its unified stream (charge events of payments made with its key),
   * not its merchants', which sign their payment notifications: return `undefined` for those, and the re-fetch
   * alone is the proof, as without any salt. Without `webhookSalt` at all, a handler in production logs a warning.
   *
   * @example
   * ```ts
   * webhookSalt: ({ format, object }) => (format === 'event' && object === 'charge' ? process.env.PLATFORM_SALT : undefined)
   * ```
   */
  webhookSalt?: string | ((from: WebhookSaltContext) => string | undefined | Promise<string | undefined>);
  /**
   * The origin where the shop's pages and this handler are served (`https://shop.example`): the one origin
   * whose pages may call the POST routes without CORS. The request's `Host` is not trusted for this (a domain
   * rebound to the shop's address makes `Host` and `Origin` agree). Without it, only a handler reached on a
   * loopback host (`localhost`, `127.0.0.1`, `[::1]`, for development) takes its own origin from the request;
   * anywhere else every browser call is refused until this or `allowedOrigins` names the page's origin.
   * Setting it switches that loopback rule off. Behind a reverse proxy, the public origin (the proxy's `Host` and
   * `X-Forwarded-*` are not read); behind a dev-server proxy that rewrites `Host` (Vite's `changeOrigin`), the
   * dev page's origin, such as `http://localhost:5173`.
   */
  publicOrigin?: string;
  /**
   * Origins of other sites whose pages may call the handler, with CORS: their preflight `OPTIONS` is answered 204
   * with `Access-Control-Allow-Origin` (that origin), `-Methods: GET, POST`, `-Headers: content-type,
   * idempotency-key` and `-Max-Age: 600`, and every answer to them carries the same headers. No
   * `Access-Control-Allow-Credentials`: their calls carry no cookies. `publicOrigin` is always allowed.
   */
  allowedOrigins?: readonly string[];
  /** The largest request body accepted, in bytes. Default 16 KiB. */
  maxBodyBytes?: number;
  /**
   * How long a request's body may take to arrive, in milliseconds from when the handler got the request.
   * A body still arriving then is answered 408 `request_timeout` and no longer read. Default 10 s (bodies are
   * at most `maxBodyBytes`; only a client trickling on purpose needs longer).
   */
  bodyTimeoutMs?: number;
  /**
   * Who is asking, for `Idempotency-Key`: a key is stored per scope, so the same key and body sent from another
   * shopper's session makes that shopper's own payment request and never answers with someone else's.
   * Default: a SHA-256 of the request's `Cookie` and `Authorization` headers. With the default, a retry whose
   * cookies changed in between (a session cookie rotated, a tracking cookie rewritten) counts as another caller
   * and makes a second payment request (pending, never paid twice by one click); return your own session or
   * user id here to keep retries together across such changes. Return a constant only if every caller is one
   * party (a server-to-server client).
   */
  idempotencyScope?(request: Request): string | Promise<string>;
  /**
   * Remembers which facts were acted on, and from when (see the README's "Event stores"). A fact that happened
   * before the store remembers (it was created later, or forgot it: a size limit, a retention) is shown and
   * answered but not offered to `onEvent`, since it may have been acted on already. Default: in memory, one
   * process, remembering from its start; a production handler (`NODE_ENV=production`) refuses that unless
   * `singleProcess` is set. Several instances: `stores.events` of `createPostgresStores`
   * (`@paykit/server/postgres`); one process that restarts: `FileEventStore`.
   */
  eventStore?: EventStore;
  /**
   * Says that this one process is all there is and it is not restarted while a payment may still be reported
   * (webhooks are retried for hours; return links are reloaded for weeks): only then is a `MemoryEventStore` (the
   * default) accepted in production. A restart forgets every fact, and the new store acts on nothing paid before
   * it started.
   */
  singleProcess?: boolean;
  /**
   * Keeps each `Idempotency-Key`'s payment request. Default: in memory, one process. With several instances,
   * use `stores.idempotency` of `createPostgresStores` so that a click retried on another instance gets the
   * same payment request.
   */
  idempotencyStore?: IdempotencyStore;
  /** Where failures are written. Default `console`. */
  logger?: Logger;
}
