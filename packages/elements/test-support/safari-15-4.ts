/**
 * This page's JavaScript surface as an iPhone on iOS 15.4-15.8 (or any browser on a shop served over plain http
 * on a LAN address) gives it, for what paykit used to call: no `AbortSignal.any` (Safari 17.4), no
 * `AbortSignal.timeout` (Safari 16.0), no `crypto.randomUUID` (Safari 15.4, secure contexts only). A test file
 * imports this first, so that it runs before any module of the elements is evaluated; each test file has its own
 * page, so nothing leaks into other files.
 */
delete (AbortSignal as { any?: unknown }).any;
delete (AbortSignal as { timeout?: unknown }).timeout;
delete (Crypto.prototype as { randomUUID?: unknown }).randomUUID;

/** What was removed, as the page sees it now: every entry must be `'undefined'`. */
export const removed = (): Record<string, string> => ({
  'AbortSignal.any': typeof (AbortSignal as { any?: unknown }).any,
  'AbortSignal.timeout': typeof (AbortSignal as { timeout?: unknown }).timeout,
  'crypto.randomUUID': typeof (crypto as { randomUUID?: unknown }).randomUUID,
});
