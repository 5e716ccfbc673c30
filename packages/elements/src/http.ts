/**
 * One JSON call to the merchant's backend. Every failure becomes a `PaykitError` with a stable code and a
 * message a shopper can read: the backend's own, or one of ours when the backend could not be understood.
 */
import { PaykitError, type ErrorCode } from '@paykit/core/browser';
import { text } from './messages.js';

/** Options of {@link callBackend}. */
export interface BackendCall {
  method: 'GET' | 'POST';
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal | undefined;
  /** Time limit. Default 15 s. */
  timeoutMs?: number | undefined;
  fetch?: typeof fetch | undefined;
}

/** Calls `url` and returns its JSON body, or throws a `PaykitError`. */
export async function callBackend(url: string, call: BackendCall): Promise<Record<string, unknown>> {
  const timeout = AbortSignal.timeout(call.timeoutMs ?? 15_000);
  let response: Response;
  let body: unknown;
  try {
    response = await (call.fetch ?? fetch)(url, {
      method: call.method,
      // Same-origin cookies are fetch's default; the answer is JSON whatever the request accepts.
      headers: { ...(call.body === undefined ? {} : { 'content-type': 'application/json' }), ...call.headers },
      body: call.body === undefined ? null : JSON.stringify(call.body),
      signal: call.signal ? AbortSignal.any([call.signal, timeout]) : timeout,
    });
    body = await response.json().catch(() => undefined);
  } catch (error) {
    if (call.signal?.aborted) throw error;
    throw timeout.aborted
      ? new PaykitError('timeout', text().timeout)
      : new PaykitError('network_error', text().network);
  }
  const object =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
  if (!response.ok) {
    const code = typeof object?.code === 'string' ? object.code : 'upstream_error';
    const message = typeof object?.message === 'string' ? object.message : text().failed;
    throw new PaykitError(code as ErrorCode, message, { status: response.status });
  }
  if (!object) throw new PaykitError('upstream_invalid_response', text().invalidAnswer, { status: response.status });
  return object;
}

/** A string field of an answer, or `upstream_invalid_response`. */
export function field(answer: Record<string, unknown>, name: string): string {
  const value = answer[name];
  if (typeof value !== 'string' || value.length === 0)
    throw new PaykitError('upstream_invalid_response', text().invalidAnswer);
  return value;
}

/** `{ code, message }` of any thrown value, for events and for display. */
export function describeFailure(error: unknown): { code: string; message: string } {
  if (error instanceof PaykitError) return { code: error.code, message: error.message };
  return { code: 'internal_error', message: text().failed };
}
