/**
 * What the return page decides with before and after the status call: which statuses are final, and which
 * failures are worth asking again about. Apart from handle-return.ts, whose code is a lazy chunk (see
 * lazy-handle-return.ts), because the element and the drop-in need these at once.
 */
import { PaykitError } from '@paykit/core/browser';

/** Final statuses; anything else (`pending`, or a status paykit does not know) is still processing. */
export const FINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'failed', 'canceled']);

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
