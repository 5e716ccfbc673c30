/**
 * Whether the page is a platform's OAuth callback. Kept apart from `handle-connect-return.ts` so that
 * `<paykit-return>` can ask this cheaply on every return page and fetch the callback's code (a lazy chunk) only
 * on the platform's callback page: a shop's return page never needs it.
 */

/** The parameters of an authorization response (RFC 6749 section 4.1.2, RFC 9207). */
export const CALLBACK_PARAMS = ['code', 'state', 'error', 'iss'];

/** Remembers the path of the last handled callback, whose URL was cleaned: a reload there is "already handled". */
export const HANDLED = 'paykit:connect-handled';

/**
 * True when `url` is an OAuth callback (`code`, `state`, `error` or `iss` in its query), or the cleaned URL of a
 * callback this tab already handled.
 */
export function isConnectReturn(url: string, storage: Storage = sessionStorage): boolean {
  const parsed = new URL(url);
  const query = parsed.searchParams;
  if (CALLBACK_PARAMS.some((name) => query.has(name))) return true;
  return parsed.search === '' && storage.getItem(HANDLED) === parsed.pathname;
}
