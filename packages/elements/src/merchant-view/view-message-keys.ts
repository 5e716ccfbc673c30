/**
 * The merchant views' texts (their English is in view-messages.ts): a locale table (`registerMessages`) may carry
 * them. A leaf module of types, so that messages.ts can name them without importing the views.
 */
export interface MerchantViewMessages {
  readonly viewLoading: string;
  readonly viewRetry: string;
  readonly viewForbidden: string;
  readonly viewNotFound: string;
  readonly viewNotConnected: string;
  readonly viewServiceDown: string;
  readonly viewUnreachable: string;
  readonly viewFailed: string;
  readonly connectionChecking: string;
  readonly connectionTo: string;
  readonly connectionSince: string;
  readonly connectionHealthy: string;
  readonly connectionExpired: string;
  readonly connectionNone: string;
  readonly connectionPaymentsOff: string;
  readonly paymentsCaption: string;
  readonly payoutsCaption: string;
  readonly columnDate: string;
  readonly columnAmount: string;
  readonly columnStatus: string;
  readonly columnMethod: string;
  readonly columnDescription: string;
  readonly columnType: string;
  readonly columnDetails: string;
  readonly columnArrival: string;
  readonly paymentsNone: string;
  readonly payoutsNone: string;
  readonly loadMore: string;
  readonly rowsShown: string;
  readonly details: string;
  readonly refundsTitle: string;
  readonly refundsNone: string;
  readonly refundedSoFar: string;
  readonly refundableLeft: string;
  readonly refundOpen: string;
  readonly refundQuestion: string;
  readonly refundAmount: string;
  readonly refundUpTo: string;
  readonly refundConfirm: string;
  readonly refundCancel: string;
  readonly refundDone: string;
  readonly requestNotPaid: string;
  readonly payout: string;
  readonly transfer: string;
  readonly arrives: string;
  readonly recipient: string;
  readonly statusSucceeded: string;
  readonly statusPending: string;
  readonly statusFailed: string;
  readonly statusRefunded: string;
  readonly statusPartiallyRefunded: string;
  readonly statusCanceled: string;
  readonly statusExpired: string;
  readonly statusScheduled: string;
  readonly statusProcessing: string;
  readonly statusPaid: string;
}
