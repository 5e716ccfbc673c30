/**
 * The one way the merchant views (`<paykit-connection>`, `<paykit-merchant-payments>`, `<paykit-merchant-payouts>`)
 * call the platform's handler: the routes of `@paykit/core`'s merchant-view contract (merchant-view-routes.ts),
 * under `endpoint`. Every failure becomes a `PaykitError` with the backend's stable `code`, its HTTP `status` and its
 * field `errors` (a refund's amount), so that the element can say what the platform should check.
 */
import {
  merchantViewPath,
  PaykitError,
  type ErrorCode,
  type FieldError,
  type MERCHANT_VIEW_PATHS,
} from '@paykit/core/browser';
import { trimSlash } from '../http.js';

/** A view of the contract: `connection`, `payments`, `refunds` or `payouts`. */
export type MerchantViewName = keyof typeof MERCHANT_VIEW_PATHS;

/** One call of {@link fetchView}. */
export interface ViewCall {
  /** Where the platform's paykit handler is mounted (`/paykit`). */
  endpoint: string;
  /** The connected merchant's business id. */
  merchant: string;
  view: MerchantViewName;
  /** A path segment after the view (a payment's id for its detail), encoded here. */
  id?: string | undefined;
  /** A page's `next`, sent as `?cursor=`. */
  cursor?: string | undefined;
  /** A JSON body: the call is a POST with it, else a GET. */
  body?: unknown;
  /** Sent as `Idempotency-Key` (a POST). */
  idempotencyKey?: string | undefined;
  signal?: AbortSignal | undefined;
  /** Time limit, body included. Default 15 s. */
  timeoutMs?: number;
}

/**
 * Calls a merchant-view route and resolves with its JSON answer, typed as the contract says (the server writes it
 * from the same types). Throws a `PaykitError`: the backend's code, status and field errors; `network_error` or
 * `timeout` (origin `upstream`) when no answer came; `upstream_invalid_response` for an answer that is not a JSON
 * object. The caller's abort rejects with its reason. An `AbortController` with a timer, not `AbortSignal.timeout`
 * or `.any`: Safari 15.4 has neither.
 */
export async function fetchView<Answer>(call: ViewCall): Promise<Answer> {
  const { signal } = call;
  const controller = new AbortController();
  const abort = () => controller.abort(signal?.reason);
  const timer = setTimeout(abort, call.timeoutMs ?? 15_000);
  signal?.addEventListener('abort', abort);
  if (signal?.aborted) abort();
  const post = call.body !== undefined;
  const url =
    trimSlash(call.endpoint) +
    merchantViewPath(call.merchant, call.view) +
    (call.id === undefined ? '' : `/${encodeURIComponent(call.id)}`) +
    (call.cursor === undefined ? '' : `?cursor=${encodeURIComponent(call.cursor)}`);
  let response: Response;
  let body: unknown;
  try {
    response = await fetch(url, {
      method: post ? 'POST' : 'GET',
      headers: post
        ? {
            'content-type': 'application/json',
            ...(call.idempotencyKey ? { 'idempotency-key': call.idempotencyKey } : {}),
          }
        : {},
      body: post ? JSON.stringify(call.body) : null,
      signal: controller.signal,
    });
    body = await response.json().catch(() => undefined);
  } catch {
    if (signal?.aborted) throw signal.reason;
    const timedOut = controller.signal.aborted;
    throw new PaykitError(timedOut ? 'timeout' : 'network_error', timedOut ? 'timeout' : 'network error', {
      origin: 'upstream',
    });
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
  const object =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (!response.ok) {
    const errors = Array.isArray(object?.errors) ? (object.errors as FieldError[]) : undefined;
    // The backend's code as it came (a newer server may send one this build does not list).
    throw new PaykitError(
      (typeof object?.code === 'string' ? object.code : 'upstream_error') as ErrorCode,
      typeof object?.message === 'string' ? object.message : `HTTP ${response.status}`,
      { status: response.status, ...(errors ? { errors } : {}) },
    );
  }
  if (!object) throw new PaykitError('upstream_invalid_response', 'not a JSON object', { status: response.status });
  // The contract's shape: written by the server from the same types (merchant-view-routes.ts).
  return object as Answer;
}
