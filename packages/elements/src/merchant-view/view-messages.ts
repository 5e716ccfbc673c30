/**
 * The words of the merchant views. Their English is here, in the views' own modules, rather than in messages.ts's
 * table, which every shop page downloads (as the framed pages' words are in their chunk); a locale table carries
 * their translation (`locales/fr.ts`, `/ar`). The readers are the platform's staff, not shoppers: an error says
 * what to check, without developer words (the development build's console has those).
 *
 * `{0}` in a text is filled by {@link fill}: word order differs between languages.
 */
import { PaykitError } from '@paykit/core/browser';
import { text } from '../messages.js';
import type { MerchantViewMessages } from './view-message-keys.js';

export type { MerchantViewMessages };

/** English. A locale table may carry its own (see {@link MerchantViewMessages}). */
const EN: MerchantViewMessages = {
  viewLoading: 'Loading…',
  viewRetry: 'Try again',
  viewForbidden: "You don't have access to this merchant's account. Ask an administrator of the platform for access.",
  viewNotFound:
    "This merchant's account can't be shown here. Check the merchant's ID, and that the platform has turned these views on.",
  viewNotConnected: "This merchant isn't connected, or the connection has expired. Connect them again, then try again.",
  viewServiceDown:
    "The payment service couldn't be reached. Try again in a moment; if it keeps happening, check the platform's connection to the service.",
  viewUnreachable: "The platform's server couldn't be reached. Check your connection and try again.",
  viewFailed: 'Something went wrong. Please try again.',
  connectionChecking: 'Checking the connection…',
  connectionTo: 'Connected to {0}',
  connectionSince: 'Since {0}',
  connectionHealthy: 'The connection is working.',
  connectionExpired: 'The connection to this merchant has expired. Connect again to see their payments and payouts.',
  connectionNone: "This merchant isn't connected yet.",
  connectionPaymentsOff: "Payments aren't enabled on this account yet.",
  paymentsCaption: 'Payments',
  payoutsCaption: 'Payouts and transfers',
  columnDate: 'Date',
  columnAmount: 'Amount',
  columnStatus: 'Status',
  columnMethod: 'Method',
  columnDescription: 'Description',
  columnType: 'Type',
  columnDetails: 'Details',
  columnArrival: 'Arrival or recipient',
  paymentsNone: 'No payments yet.',
  payoutsNone: 'No payouts or transfers yet.',
  loadMore: 'Load more',
  rowsShown: '{0} shown.',
  details: 'Details',
  refundsTitle: 'Refunds',
  refundsNone: 'No refunds yet.',
  refundedSoFar: 'Refunded',
  refundableLeft: 'Left to refund',
  refundOpen: 'Refund…',
  refundQuestion: 'Refund this payment?',
  refundAmount: 'Amount to refund ({0})',
  refundUpTo: 'Up to {0}. The payment service decides the final amount.',
  refundConfirm: 'Refund {0}',
  refundCancel: 'Cancel',
  refundDone: 'Refunded {0}. Refunded in total: {1}; left to refund: {2}.',
  requestNotPaid: 'Payment request {0}: nothing has been paid, so there is nothing to refund.',
  payout: 'Payout',
  transfer: 'Transfer',
  arrives: 'Arrives {0}',
  recipient: 'To {0}',
  statusSucceeded: 'Succeeded',
  statusPending: 'Pending',
  statusFailed: 'Failed',
  statusRefunded: 'Refunded',
  statusPartiallyRefunded: 'Partially refunded',
  statusCanceled: 'Canceled',
  statusExpired: 'Expired',
  statusScheduled: 'Scheduled',
  statusProcessing: 'Processing',
  statusPaid: 'Paid',
};

/** The merchant views' texts for `element` (its nearest `lang`), English for a key its table lacks. */
export function viewText(element: Element): MerchantViewMessages {
  return { ...EN, ...(text(element) as Partial<MerchantViewMessages>) };
}

/** `words` with `{0}`, `{1}`… replaced by `values`, in order. */
export function fill(words: string, ...values: string[]): string {
  return words.replace(/\{(\d)\}/g, (_, index: string) => values[+index] ?? '');
}

/**
 * A status as the API writes it (`partially_refunded`), in words: the known ones translated, any other as the API's
 * word with spaces (a newer status is still shown, never hidden).
 */
export function statusWords(words: MerchantViewMessages, status: string): string {
  const key = `status${status.replace(/(^|_)([a-z])/g, (_, __, letter: string) => letter.toUpperCase())}`;
  return (words as unknown as Readonly<Record<string, string | undefined>>)[key] ?? status.replace(/_/g, ' ');
}

/** The staff's words for a failure: what the platform should check, by the backend's code (or status). */
export function failureWords(words: MerchantViewMessages, error: unknown): string {
  if (!(error instanceof PaykitError)) return words.viewFailed;
  const { code, status } = error;
  if (code === 'forbidden' || status === 403) return words.viewForbidden;
  if (code === 'not_found' || status === 404) return words.viewNotFound;
  if (code === 'unauthorized' || code === 'conflict' || status === 401 || status === 409) return words.viewNotConnected;
  if (code === 'network_error' || code === 'timeout') return words.viewUnreachable;
  if (status !== undefined && status >= 500) return words.viewServiceDown;
  return words.viewFailed;
}
