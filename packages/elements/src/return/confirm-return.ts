/**
 * `<paykit-return>`'s check, run when it starts (and on "Check again"): on a platform's OAuth callback, the
 * connection; on a shop's return page, the payment's status as the backend confirms it, never the URL's. What it
 * finds is shown through the element's {@link ReturnHost} and announced with the element's events. Part of the
 * element's lazy chunk (lazy-confirm-return.ts), which it fetches as it starts: no other page downloads it.
 */
import type { PaykitError } from '@paykit/core/browser';
import { dev } from '#dev';
import { ConnectAgainError, ConnectDeniedError } from '../connect/connect-errors.js';
import { isConnectReturn } from '../connect/is-connect-return.js';
import { handleConnectReturn } from '../connect/lazy-connect-return.js';
import {
  PaykitConnectDeniedEvent,
  PaykitConnectedEvent,
  PaykitErrorEvent,
  PaykitPaymentCompletedEvent,
  PaykitPaymentFailedEvent,
} from '../events.js';
import { describeFailure } from '../http.js';
import { text } from '../messages.js';
import type { PaymentStatus } from '../types.js';
import { handleReturn, isTransient } from './handle-return.js';
import type { ReturnHost, ReturnState } from './return-host.js';
import { FINAL_STATUSES } from './statuses.js';

/** Runs one check for `host`, until it ends or `signal` aborts (the element left the page, or checks again). */
export async function confirmReturn(host: ReturnHost, signal: AbortSignal): Promise<void> {
  host.stall(false);
  host.show('checking', 'checking');
  await host.updateComplete;
  // Still confirming: the payment is pending, or the backend cannot say yet. Never an error to the shopper.
  const calm = (payment?: PaymentStatus | PaykitError) => {
    if (payment && 'amount' in payment) host.showPayment(payment);
    host.show('pending', 'stillConfirming');
  };
  const connect = isConnectReturn(location.href);
  try {
    if (connect) {
      host.show('checking', 'connecting');
      const business = await handleConnectReturn({ endpoint: host.endpoint });
      host.show('connected', `${text(host).connected}${business.name}.`, new PaykitConnectedEvent({ business }));
      return;
    }
    // The shopper left the checkout ("back to the shop"): one check, and a still pending payment was not made.
    const left = new URL(location.href).searchParams.get('status') === 'canceled';
    const status = await handleReturn({
      endpoint: host.endpoint,
      signal,
      maxWaitMs: left ? 0 : host.maxWaitMs,
      onStatus: calm,
      onRetry: calm,
    });
    host.showPayment(status);
    const state = status.status;
    if (state === 'completed') host.show(state, state, new PaykitPaymentCompletedEvent(status));
    else if (FINAL_STATUSES.has(state))
      // FINAL_STATUSES holds three of the element's states, and `expired` (the link's time ran out), shown as a
      // payment not completed.
      host.show(
        state === 'expired' ? 'canceled' : (state as ReturnState),
        state === 'failed' ? 'failedPayment' : state === 'expired' ? 'notCompleted' : state,
        new PaykitPaymentFailedEvent(status),
      );
    else if (left) host.show('canceled', 'notCompleted');
    else host.stall(true);
  } catch (error) {
    if (signal.aborted) return;
    dev?.failure(host, error);
    const failure = describeFailure(error);
    if (!connect && isTransient(error)) {
      calm();
      host.stall(true);
    } else if (error instanceof ConnectDeniedError)
      host.show('canceled', failure.message, new PaykitConnectDeniedEvent({ description: error.description }));
    else {
      // state_unknown or state_expired, when this browser knows the origin's latest authorization request.
      host.offerConnectAgain(error instanceof ConnectAgainError ? error.connectAgain : undefined);
      host.show('error', failure.message, new PaykitErrorEvent(failure));
    }
  }
}
