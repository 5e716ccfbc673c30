/**
 * Waiting that a caller can give up: the read retries' backoff and the token budgets' waits.
 */

/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as `signal` aborts. The abort listener is
 * removed either way, so a long-lived signal does not gather one per wait.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const abort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort, { once: true });
  });
}
