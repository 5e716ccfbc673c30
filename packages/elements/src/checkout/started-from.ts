/**
 * The page that started this tab's latest checkout, in sessionStorage: `<paykit-return>` offers "Try again" to it
 * (same origin only, as sessionStorage is) when the page sets no `retry-url`. The key's one owner: the writer and
 * the reader are both here.
 */

/** The sessionStorage key. */
const STARTED_FROM = 'paykit:checkout-from';

/** Keeps this page as the one the checkout started from (nothing where the browser refuses storage). */
export function rememberStartedFrom(): void {
  try {
    sessionStorage[STARTED_FROM] = location.href;
  } catch {
    // Blocked: nothing is kept, and "Try again" falls back to the referrer.
  }
}

/** The page that started this tab's latest checkout, if the browser allows storage. */
export function startedFrom(): string | undefined {
  try {
    // Storage's index is typed `any`: a string where rememberStartedFrom set it.
    return sessionStorage[STARTED_FROM] as string | undefined;
  } catch {
    return undefined;
  }
}
