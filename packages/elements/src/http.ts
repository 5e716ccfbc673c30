/**
 * One JSON call to the merchant's backend. Every failure becomes a `PaykitError` with a stable code and a
 * message a shopper can read: the backend's own, or one of ours when the backend could not be understood.
 */
import { PaykitError, type ErrorCode, type PAYMENT_FIELDS, type REQUIRED_PAYMENT_FIELDS } from '@paykit/core/browser';
import { text } from './messages.js';
import type { PaymentStatus } from './types.js';

/** Options of {@link callBackend}. */
export interface BackendCall {
  /** A JSON body: the call is a POST with it, else a GET. */
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  /** Time limit. Default 15 s. */
  timeoutMs?: number | undefined;
  fetch?: typeof fetch | undefined;
}

/**
 * Calls `url` and returns its JSON body, or throws a `PaykitError`. The time limit covers the body too. Built on
 * an `AbortController` with a timer (cleared) and a listener on the caller's signal (removed): `AbortSignal.timeout`
 * and `AbortSignal.any` came with Safari 16.0 and 17.4, after the oldest supported one (15.4).
 */
export async function callBackend(url: string, call: BackendCall): Promise<Record<string, unknown>> {
  const { signal } = call;
  const controller = new AbortController();
  // The caller's reason when it aborts (fetch rejects with it); on the timer, signal is not aborted: a timeout.
  const abort = () => controller.abort(signal?.reason);
  const timer = setTimeout(abort, call.timeoutMs ?? 15_000);
  signal?.addEventListener('abort', abort);
  if (signal?.aborted) abort();
  const post = call.body !== undefined;
  let response: Response;
  // What JSON can be (`response.json()` is typed `any`).
  let body: Record<string, unknown> | unknown[] | string | number | boolean | null | undefined;
  try {
    response = await (call.fetch ?? fetch)(url, {
      method: post ? 'POST' : 'GET',
      // Same-origin cookies are fetch's default; the answer is JSON whatever the request accepts. A GET has no
      // content-type: a cross-origin one (a metadata document) stays a simple request, without a preflight.
      headers: post ? { 'content-type': 'application/json', ...call.headers } : call.headers,
      body: post ? JSON.stringify(call.body) : null,
      signal: controller.signal,
    });
    body = await response.json().catch(() => undefined);
  } catch {
    // The caller's own reason (an AbortError when it gave none): WebKit's fetch (Safari 15.4, WebKitGTK 2.50) rejects
    // with a plain AbortError instead.
    if (signal?.aborted) throw signal.reason;
    // The backend gave no answer: its failure (upstream), not this page's.
    throw new PaykitError(
      controller.signal.aborted ? 'timeout' : 'network_error',
      text()[controller.signal.aborted ? 'timeout' : 'network'],
      { origin: 'upstream' },
    );
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
  }
  const object = typeof body === 'object' && body !== null && !Array.isArray(body) ? body : undefined;
  if (!response.ok) {
    const code = typeof object?.code === 'string' ? object.code : 'upstream_error';
    // A refused origin is the developer's to fix (the development build says how), not the shopper's to read.
    const message =
      typeof object?.message === 'string' && code !== 'cross_site_request' ? object.message : text().failed;
    // The backend's code passed on as it came (a newer server may send one this build does not list).
    throw new PaykitError(code as ErrorCode, message, { status: response.status });
  }
  if (!object) throw new PaykitError('upstream_invalid_response', text().failed, { status: response.status });
  return object;
}

/**
 * The payment of an answer: core's `PAYMENT_FIELDS`, each a non-empty string (the required ones, or
 * `upstream_invalid_response`; the others when the backend sends them). Both the checkout's start and the return
 * page read these.
 */
export function paymentOf(answer: Record<string, unknown>): PaymentStatus {
  const payment: Record<string, string> = {};
  // Core's list, written out: importing it would cost every page its bytes; the types hold it to core's.
  const fields: typeof PAYMENT_FIELDS = ['id', 'status', 'amount', 'currency', 'purpose', 'reference'];
  const required: typeof REQUIRED_PAYMENT_FIELDS = 4;
  fields.forEach((name, index) => {
    const value = answer[name];
    if (typeof value === 'string' && value) payment[name] = value;
    else if (index < required) throw new PaykitError('upstream_invalid_response', text().failed);
  });
  // Checked just above, field by field against the same list the type is made from.
  return payment as PaymentStatus;
}

/**
 * True when one of `names` appears more than once in `query`: such a URL is refused, since two readers (this
 * page, a proxy, the backend) could pick different values.
 */
export function repeats(query: URLSearchParams, names: readonly string[]): boolean {
  return names.some((name) => query.getAll(name).length > 1);
}

/** `{ code, message }` of any thrown value, for events and for display. */
export function describeFailure(error: unknown): { code: string; message: string } {
  if (error instanceof PaykitError) return { code: error.code, message: error.message };
  return { code: 'internal_error', message: text().failed };
}

/** The endpoint without a trailing slash, for a path to be added. */
export function trimSlash(endpoint: string): string {
  return endpoint.replace(/\/+$/, '');
}
