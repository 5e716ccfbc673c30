/**
 * What a merchant configures when mounting paykit's handler: how to reach the API, how to price what the
 * shopper chose, and what to do when a payment is confirmed.
 */
import type { Charge, PaymentRequest, PaymentRequestCreateInput, ShopperChoice } from '@paykit/core';
import type { ApiConfig } from '../api/config.js';
import type { MerchantApi } from '../api/merchant-api.js';
import type { ConnectedBusiness, Platform } from '../platform/platform.js';
import type { EventStore } from './event-store.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { Logger } from './logger.js';

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

/**
 * A webhook event whose claim the API confirmed: the resource was fetched from the API and is in the state
 * the event names. `paymentRequest` or `charge` is the fetched resource, never the delivered payload.
 */
export type ConfirmedEvent =
  | {
      type: 'payment_request.completed' | 'payment_request.failed';
      eventId: string;
      paymentRequest: PaymentRequest;
    }
  | {
      type: 'charge.created' | 'charge.updated' | 'charge.failed';
      eventId: string;
      charge: Charge;
    };

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
   * in production (the local sandbox also delivers to loopback http). Used when the hook sets none.
   */
  webhookUrl?: string;
  /**
   * Runs once per confirmed fact (a payment request completed or failed, a charge created, updated or failed),
   * however often the event is delivered. Throwing makes the handler answer 500, so the API delivers again.
   */
  onEvent?(event: ConfirmedEvent, context: HookContext): void | Promise<void>;
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
   * Remembers which webhook facts were handled. Default: in memory, one process. With several instances, use
   * `stores.events` of `createPostgresStores` (`@paykit/server/postgres`) so that a fact runs `onEvent` once.
   */
  eventStore?: EventStore;
  /**
   * Keeps each `Idempotency-Key`'s payment request. Default: in memory, one process. With several instances,
   * use `stores.idempotency` of `createPostgresStores` so that a click retried on another instance gets the
   * same payment request.
   */
  idempotencyStore?: IdempotencyStore;
  /** Where failures are written. Default `console`. */
  logger?: Logger;
}
