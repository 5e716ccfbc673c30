/**
 * The headless return flow: read the payment reference from the return URL and ask the merchant's backend
 * for the real status. The `status` in the URL is a claim anyone can type; it is never believed.
 */
import { PaykitError, type PAYMENT_REQUESTS_PATH } from '@paykit/core/browser';
import { callBackend, paymentOf, repeats, trimSlash } from '../http.js';
import { text } from '../messages.js';
import type { PaymentStatus } from '../types.js';
import { FINAL_STATUSES } from './statuses.js';

export { FINAL_STATUSES } from './statuses.js';

/** Options of {@link handleReturn}. */
export interface HandleReturnOptions {
  /** Where the backend's paykit handler is mounted, such as `/paykit`. */
  endpoint: string;
  /** The return URL. Default: the page's. */
  url?: string;
  /** The first wait between checks; each next wait is twice as long, at most 30 s. Default 1 s. */
  pollIntervalMs?: number;
  /** How long to keep checking a pending payment, or retrying a backend that is down. Default 3 minutes. */
  maxWaitMs?: number | undefined;
  /** Told of each status while polling. */
  onStatus?: (status: PaymentStatus) => void;
  /** Told of each failed check that will be tried again (the backend or the network is down, a 5xx, a 429). */
  onRetry?: (error: PaykitError) => void;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

/**
 * Resolves with the confirmed status: final, or `pending` once `maxWaitMs` is spent. A backend that fails
 * for a while (see {@link isTransient}) is asked again within the same budget; its last error is thrown when
 * the budget runs out, and any other error at once.
 */
export async function handleReturn(options: HandleReturnOptions): Promise<PaymentStatus> {
  const query = new URL(options.url ?? location.href).searchParams;
  if (repeats(query, ['reference', 'merchant'])) throw new PaykitError('duplicate_parameter', text().noReference);
  const reference = query.get('reference');
  if (!/^[A-Za-z0-9_-]{1,255}$/.test(reference ?? '')) throw new PaykitError('validation_failed', text().noReference);
  const merchant = query.get('merchant');
  // The reference is URL-safe as checked above: it goes in the path as it is. Core's path, written out (see
  // create-checkout.ts).
  const path: typeof PAYMENT_REQUESTS_PATH = '/payment-requests';
  const url =
    `${trimSlash(options.endpoint)}${path}/${reference}` +
    (merchant === null ? '' : `?merchant=${encodeURIComponent(merchant)}`);
  const deadline = Date.now() + (options.maxWaitMs ?? 180_000);
  let wait = options.pollIntervalMs ?? 1_000;
  for (;;) {
    let status: PaymentStatus | undefined;
    try {
      status = paymentOf(await callBackend(url, { signal: options.signal, fetch: options.fetch }));
      options.onStatus?.(status);
      if (FINAL_STATUSES.has(status.status)) return status;
    } catch (error) {
      if (!isTransient(error) || Date.now() + wait > deadline) throw error;
      options.onRetry?.(error);
    }
    if (status && Date.now() + wait > deadline) return status;
    await sleep(wait, options.signal);
    wait = Math.min(wait * 2, 30_000);
  }
}

/**
 * True when asking again may help: no answer (network, time limit), an unreadable one, a 5xx, a 408 or a 429.
 * An unknown reference (404), a refusal (403), a malformed request (4xx) or a bad return URL will not get better.
 */
export function isTransient(error: unknown): error is PaykitError {
  if (!(error instanceof PaykitError)) return false;
  const status = error.status;
  return status
    ? status > 499 || status === 408 || status === 429
    : /^(network_error|timeout|upstream_invalid_response)$/.test(error.code);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}
