/**
 * `handler.check()`'s look at the return page (issue 35 item 2): the page a shopper is sent to after paying is
 * fetched once, so that a path the shop does not serve ("Cannot GET /thanks") or a host that does not resolve is
 * found at start, not by the first shopper who paid. A warning, not an error: the page may be served by another
 * process that is not up yet, or only behind the shop's sign-in.
 */
import { systemReason } from '../api/transport.js';

/** How long the return page may take to answer the check. */
const CHECK_TIMEOUT_MS = 5_000;

/** A warning naming `returnUrl` and what it answered, or `undefined` when the page answered. */
export async function returnPageWarning(returnUrl: string): Promise<string | undefined> {
  let status: number;
  try {
    const answer = await fetch(returnUrl, {
      redirect: 'follow',
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
      headers: { accept: 'text/html' },
    });
    status = answer.status;
    await answer.body?.cancel();
  } catch (error) {
    return (
      `paykit: returnUrl ${returnUrl} could not be fetched (${reasonOf(error)}): shoppers are sent there after ` +
      'paying. Check the host name and that the page is served; if this server serves it, call check() after it ' +
      'listens.'
    );
  }
  if (status === 404 || status === 410 || status >= 500) {
    return (
      `paykit: returnUrl ${returnUrl} answered ${status}: shoppers are sent there after paying. Serve the page ` +
      'with <paykit-return> at that path, or set returnUrl to the page that has it.'
    );
  }
  return undefined;
}

/** The system's code of a failed fetch (`ECONNREFUSED`), or the error's own words. */
function reasonOf(error: unknown): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${CHECK_TIMEOUT_MS / 1000} s`;
  return systemReason(error) ?? (error instanceof Error ? error.message : String(error));
}
