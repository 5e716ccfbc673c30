/**
 * The handler the elements talk to: a web-standard `(Request) => Promise<Response>` that runs on any server
 * with the Fetch API (Node through the adapters, Deno, Bun, workers), mounted under a prefix. The paths and the
 * answers are core's (`handler-routes.ts`), which the elements read too.
 *
 * | route | caller | does |
 * |---|---|---|
 * | `POST {prefix}/payment-requests` | `<paykit-pay-button>` | hook decides the price, creates the payment request |
 * | `GET {prefix}/payment-requests/{id}` | `<paykit-return>` | the status as the API confirms it |
 * | `POST {prefix}/webhooks` | the Payments API | checks the signature, confirms with the API, de-duplicates, calls `onEvent` |
 * | `POST {prefix}/oauth/callback` | `<paykit-return>` (platforms) | exchanges the code, keeps the connection |
 * | `{prefix}/merchants/{merchant}/…` | the merchant-view elements (platforms with `merchantView`) | a connected merchant's connection, payments, refunds, payouts |
 */
import {
  MERCHANTS_PATH,
  OAUTH_CALLBACK_PATH,
  PAYMENT_REQUESTS_PATH,
  PaykitError,
  parseWebUrl,
  WEBHOOKS_PATH,
} from '@paykit/core';
import { createMerchantApi } from '../api/merchant-api.js';
import { reconcile, type ReconcileOptions, type ReconcileReport } from '../facts/reconcile.js';
import { apiFailureOf } from '../api/transport.js';
import { apiFailureLine, errorResponse } from './error-response.js';
import { MemoryEventStore } from './event-store.js';
import { MemoryIdempotencyStore } from './idempotency-store.js';
import type { Answer, Exchange } from './exchange.js';
import type { BodyLimits } from './http.js';
import { consoleLogger, redactingLogger, redactor } from './logger.js';
import { refusalNotices } from './refusal-notices.js';
import { returnPageWarning } from './return-page-check.js';
import { factActor } from '../facts/act-once.js';
import { merchantResolver } from './merchant-resolver.js';
import type { PaykitHandlerOptions } from './options.js';
import { assertSameSiteOrAllowed, assertServedOrigin, corsHeaders, originPolicy } from './origin-guard.js';
import { merchantViewRoute } from './routes/merchant-view.js';
import { oauthCallbackRoute } from './routes/oauth-callback.js';
import { paymentStatusRoute } from './routes/payment-status.js';
import { startCheckoutRoute } from './routes/start-checkout.js';
import { webhooksRoute } from './routes/webhooks.js';
import {
  memoryState,
  refuseMemoryEventStore,
  warnOfMemoryStores,
  warnOfUnsignedWebhooks,
} from './production-warnings.js';
import { refuseMemoryStateOnWorkers } from '../runtime.js';
import { webExchange, webResponse } from './web-exchange.js';

/** A mounted handler: call it with any request; `prefix` tells adapters which paths are its own. */
export interface PaykitHandler {
  (request: Request): Promise<Response>;
  /** The path prefix the routes live under, without a trailing slash. */
  readonly prefix: string;
  /**
   * Answers one request given as a plain {@link Exchange}, with a plain {@link Answer}: what calling the handler
   * does, without a web `Request` or `Response`. For adapters that build the exchange from their own request
   * type and write the answer themselves (`toNodeListener` and `paykitMiddleware` do); the merchant's hooks
   * still get a `Request`, made from the exchange when they read it.
   */
  answer(exchange: Exchange): Promise<Answer>;
  /**
   * Sweeps the payment requests of a period through the API and runs `onEvent` once for each completed or failed
   * one not acted on yet (webhooks lost during an outage), through the same event store: safe on a schedule, on
   * many instances at once. A platform names the merchants to sweep. See `paykit reconcile` for a cron job.
   *
   * @example
   * ```ts
   * const report = await paykit.reconcile({ since: Date.now() - 2 * 3_600_000 });
   * if (report.acted > 0) console.log(`fulfilled ${report.acted} orders the webhooks missed`);
   * ```
   */
  reconcile(options: ReconcileOptions): Promise<ReconcileReport>;
  /**
   * Calls the Payments API once with the configured credentials (`GET /v1/info`) and resolves with the business
   * they act for; rejects with `api_key_refused` (the key was refused), `api_unreachable` (nothing answers at
   * `apiBaseUrl`) or `upstream_invalid_response` (something answers there, but not the Payments API: a wrong
   * base URL), each message naming the setting to change. Then fetches `returnUrl` once: a 404, 410 or 5xx, or
   * no answer, is a warning in the report (and the log), not a rejection. Run it at start (after the server
   * listens, if it serves the return page) or in a deploy check, before a shopper finds out. A platform names one
   * connected merchant whose connection it checks.
   *
   * @example
   * ```ts
   * const { business } = await paykit.check();
   * console.log(`paykit: the Payments API at ${business.apiOrigin} accepts the key of ${business.name}`);
   * ```
   */
  check(options?: CheckOptions): Promise<CheckReport>;
}

/** Options of {@link PaykitHandler.check}. */
export interface CheckOptions {
  /** A platform's connected merchant (business id) whose connection to check. Required for a platform. */
  merchant?: string;
}

/** What {@link PaykitHandler.check} found: the API answered, and accepted the credentials of this business. */
export interface CheckReport {
  business: { name: string; id?: string | undefined; apiOrigin: string };
  /**
   * What the check found that does not stop the shop but will fail a shopper: `returnUrl` answering 404, 410 or
   * 5xx, or not reachable. Each is also written to the logger.
   */
  warnings: string[];
}

/**
 * Creates the handler.
 *
 * @example
 * ```ts
 * const paykit = createPaykitHandler({
 *   api: { apiBaseUrl: process.env.PAYMENTS_API_URL, apiKey: process.env.PAYMENTS_API_KEY },
 *   returnUrl: 'https://shop.example/thanks',
 *   createPaymentRequest: (choice) => ({ ...priceOf(choice.reference), purpose: 'Order', email: choice.email }),
 *   onEvent: (event) => { if (event.type === 'payment_request.completed') fulfil(event.paymentRequest.id) },
 * });
 * http.createServer(toNodeListener(paykit)).listen(3000);
 * ```
 */
export function createPaykitHandler(options: PaykitHandlerOptions): PaykitHandler {
  try {
    return buildHandler(options);
  } catch (error) {
    throw atCallSite(error, createPaykitHandler);
  }
}

/**
 * A wrong or missing option, thrown at start, as one line and the line of the caller that passed it (typically a
 * key read from an unset environment variable): the frames inside paykit tell the developer nothing to change.
 */
export function atCallSite(error: unknown, api: (...args: never[]) => unknown): unknown {
  if (!(error instanceof PaykitError) || error.code !== 'validation_failed') return error;
  // V8's (Node, Deno, Bun, workerd); typed optional, since the handler runs on any runtime.
  const capture = (Error as { captureStackTrace?: (target: object, fn: unknown) => void }).captureStackTrace;
  if (!capture) return error;
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 1;
  try {
    capture(error, api);
  } finally {
    Error.stackTraceLimit = limit;
  }
  return error;
}

function buildHandler(options: PaykitHandlerOptions): PaykitHandler {
  const prefix = normalisePrefix(options.prefix ?? '/paykit');
  if ((options.api === undefined) === (options.platform === undefined)) {
    throw new PaykitError(
      'validation_failed',
      'Give createPaykitHandler either "api" (a shop) or "platform" (a platform)',
    );
  }
  const logger = redactingLogger(options.logger ?? consoleLogger, knownSecrets(options));
  const redact = redactor(knownSecrets(options));
  const maxBodyBytes = options.maxBodyBytes ?? 16 * 1024;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 10_000;
  if (!(typeof bodyTimeoutMs === 'number' && bodyTimeoutMs > 0 && Number.isFinite(bodyTimeoutMs))) {
    throw new PaykitError('validation_failed', '"bodyTimeoutMs" must be a positive number of milliseconds', {
      errors: [{ path: 'bodyTimeoutMs', message: 'must be a positive number of milliseconds' }],
    });
  }
  // Checked here, not at the first click: a wrong one would otherwise fail every checkout with a 422 whose
  // words (the API's field rule) the shopper reads.
  for (const name of ['returnUrl', 'webhookUrl'] as const) {
    const value = options[name];
    if (value !== undefined && !parseWebUrl(value)) {
      throw new PaykitError(
        'validation_failed',
        `"${name}" must be an https URL (http only for localhost), not ${JSON.stringify(value)}`,
        { errors: [{ path: name, message: 'must be an https URL (http only for localhost)' }] },
      );
    }
  }
  const limits: BodyLimits = { maxBytes: maxBodyBytes, timeoutMs: bodyTimeoutMs };
  const origins = originPolicy(options.publicOrigin, options.allowedOrigins);
  const notices = refusalNotices(logger, origins);
  assertServedOrigin(options.returnUrl, 'returnUrl', origins);
  for (const uri of options.platform?.redirectUris ?? []) assertServedOrigin(uri, 'oauth.redirectUris', origins);
  const merchants = merchantResolver(
    options.platform
      ? { platform: options.platform }
      : { api: 'createPaymentRequest' in options.api! ? options.api : createMerchantApi(options.api!) },
  );
  refuseMemoryStateOnWorkers('createPaykitHandler', memoryState(options, { given: true }));
  refuseMemoryEventStore(options);
  warnOfMemoryStores(options, logger);
  warnOfUnsignedWebhooks(options, logger);
  if (options.merchantView && !options.platform) {
    throw new PaykitError('validation_failed', '"merchantView" is a platform\'s hook: give "platform" with it', {
      errors: [{ path: 'merchantView', message: 'needs "platform"' }],
    });
  }
  // One store for every keyed route (checkouts, refunds): a key is held across instances when it is shared.
  const idempotency = options.idempotencyStore ?? new MemoryIdempotencyStore();
  const startCheckout = startCheckoutRoute(merchants, options, limits, idempotency, logger);
  // One store for every path that learns a fact (the webhooks, the shopper's return, reconcile): the hook runs once.
  const facts = factActor(options.eventStore ?? new MemoryEventStore(), options.onEvent, logger);
  const paymentStatus = paymentStatusRoute(merchants, facts, logger, options.platform !== undefined);
  const webhooks = webhooksRoute(merchants, options, facts, limits);
  const oauthCallback = options.platform && oauthCallbackRoute(options.platform, options, limits);
  const merchantView =
    options.platform &&
    options.merchantView &&
    merchantViewRoute({
      platform: options.platform,
      hook: options.merchantView.bind(options),
      options,
      limits,
      idempotency,
      logger,
    });
  const sweep = (sweepOptions: ReconcileOptions) =>
    reconcile(
      {
        merchantApi: merchants,
        platform: options.platform !== undefined,
        facts,
        logger,
        redact,
      },
      sweepOptions,
    );

  const route = async (exchange: Exchange, path: string): Promise<Answer> => {
    if (path === PAYMENT_REQUESTS_PATH) {
      allow(exchange, ['POST']);
      assertSameSiteOrAllowed(exchange, origins);
      return startCheckout(exchange);
    }
    // `{PAYMENT_REQUESTS_PATH}/{id}`: one more segment, not empty.
    const id = path.startsWith(`${PAYMENT_REQUESTS_PATH}/`) ? path.slice(PAYMENT_REQUESTS_PATH.length + 1) : '';
    if (id && !id.includes('/')) {
      allow(exchange, ['GET']);
      return paymentStatus(exchange, decodeSegment(id), singleParam(exchange, 'merchant'));
    }
    if (path === WEBHOOKS_PATH) {
      allow(exchange, ['POST']);
      return webhooks(exchange);
    }
    if (path === OAUTH_CALLBACK_PATH && oauthCallback) {
      allow(exchange, ['POST']);
      // Only the return page posts here, and a browser's fetch always sends Origin: a post without it is a
      // replay tool, refused before the code could reach the token endpoint.
      assertSameSiteOrAllowed(exchange, origins, { requireOrigin: true });
      return oauthCallback(exchange);
    }
    // No hook, no route: a platform that did not say who may see its merchants serves none of them.
    if (merchantView && path.startsWith(`${MERCHANTS_PATH}/`)) {
      return merchantView(exchange, path.slice(MERCHANTS_PATH.length + 1), () =>
        assertSameSiteOrAllowed(exchange, origins),
      );
    }
    throw new PaykitError('not_found', 'There is no such paykit route');
  };

  const answer = async (exchange: Exchange): Promise<Answer> => {
    let answered: Answer;
    try {
      const path = exchange.url.pathname;
      if (path !== prefix && !path.startsWith(`${prefix}/`)) {
        throw new PaykitError('not_found', 'There is no such paykit route');
      }
      answered =
        exchange.method === 'OPTIONS'
          ? { status: 204, headers: {}, body: null }
          : await route(exchange, path.slice(prefix.length));
    } catch (error) {
      notices.refused(error, exchange);
      answered = errorResponse(error, logger);
    }
    // An answer is the handler's own, made for this request: the CORS headers go on it as they are.
    Object.assign(answered.headers, corsHeaders(exchange.headers, origins));
    return answered;
  };
  // Every runtime's Fetch API: the Request as an exchange, received now; the answer as a Response.
  const handler = async (request: Request): Promise<Response> => webResponse(await answer(webExchange(request)));
  const check = async ({ merchant }: CheckOptions = {}): Promise<CheckReport> => {
    if (options.platform && merchant === undefined)
      throw new PaykitError(
        'validation_failed',
        "check() of a platform's handler checks one connected merchant: call check({ merchant: '<business id>' })",
        { errors: [{ path: 'merchant', message: 'is required for a platform' }] },
      );
    const api = await merchants(merchant);
    const apiOrigin = api.config.baseUrl.origin;
    let business: CheckReport['business'];
    try {
      const info = await api.getBusinessInfo();
      business = { name: info.name, id: info.id, apiOrigin };
    } catch (error) {
      throw checkFailure(error, api.config.baseUrl.href);
    }
    const warnings: string[] = [];
    const returnPage = options.returnUrl && (await returnPageWarning(options.returnUrl));
    if (returnPage) warnings.push(returnPage);
    for (const warning of warnings) logger.warn(warning);
    return { business, warnings };
  };
  return Object.assign(handler, { prefix, reconcile: sweep, check, answer });
}

/** A failed {@link PaykitHandler.check} in words that name the setting: the key never, its option's name only. */
function checkFailure(error: unknown, baseUrl: string): unknown {
  const api = apiFailureOf(error);
  if (api) {
    const code = api.kind === 'unreachable' ? 'api_unreachable' : 'api_key_refused';
    return new PaykitError(code, apiFailureLine(api).replace(/^paykit: [a-z_]+: /, ''), { cause: error });
  }
  // Something answered, but not as the API answers /v1/info: an HTML page, another service's 404.
  if (error instanceof PaykitError && (error.code === 'not_found' || error.code === 'upstream_invalid_response'))
    return new PaykitError(
      'upstream_invalid_response',
      `${baseUrl} does not answer as the Payments API (GET /v1/info: ${error.message}). Check apiBaseUrl: the ` +
        "API's base URL, such as the local sandbox's http://127.0.0.1:4010, not the dashboard's or the shop's.",
      { cause: error, origin: 'upstream', ...(error.status === undefined ? {} : { status: error.status }) },
    );
  return error;
}

/** The secrets this handler was configured with, to be masked wherever they would be logged. */
function knownSecrets(options: PaykitHandlerOptions): string[] {
  const api = options.api && !('createPaymentRequest' in options.api) ? options.api : undefined;
  return [api?.apiKey, api?.platformKey, options.webhookSalt].filter(
    (secret): secret is string => typeof secret === 'string',
  );
}

function allow(exchange: Exchange, methods: readonly string[]): void {
  if (!methods.includes(exchange.method)) {
    throw new PaykitError('method_not_allowed', `Use ${methods.join(' or ')} on this route`);
  }
}

/** A query parameter that may appear at most once (two would let a cache and the handler disagree). */
function singleParam(exchange: Exchange, name: string): string | undefined {
  const values = exchange.url.searchParams.getAll(name);
  if (values.length > 1) throw new PaykitError('duplicate_parameter', `"${name}" appears more than once`);
  return values[0];
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new PaykitError('validation_failed', 'The payment reference is not valid', {
      errors: [{ path: 'id', message: 'is not a valid URL segment' }],
    });
  }
}

function normalisePrefix(prefix: string): string {
  if (!/^(\/[A-Za-z0-9._~-]+)+\/?$/.test(prefix)) {
    throw new PaykitError(
      'validation_failed',
      `"prefix" must be a path such as /paykit, not ${JSON.stringify(prefix)}`,
    );
  }
  return prefix.replace(/\/$/, '');
}
