/**
 * `<paykit-return>` as the code of its check (confirm-return.ts, a lazy chunk) sees it: its settings, and what the
 * check may do to it. The chunk is typed on this, never on the element's class, so that it does not import the
 * element that loads it.
 */
import type { Messages } from '../messages.js';
import type { PaymentStatus } from '../types.js';

/** What the box shows: `pending` is "still confirming" (still processing, or the backend cannot say yet). */
export type ReturnState = 'checking' | 'completed' | 'failed' | 'canceled' | 'pending' | 'connected' | 'error';

/** The element's side of a check. */
export interface ReturnHost extends HTMLElement {
  /** Where the backend's paykit handler is mounted. */
  readonly endpoint: string;
  /** How long to keep checking; `undefined` for the default. */
  readonly maxWaitMs?: number | undefined;
  /** Resolves once the element has rendered what it was last told. */
  readonly updateComplete: Promise<boolean>;
  /**
   * Shows `state` with `message` (a key of the messages, read at render so that a locale registered later
   * applies, or the words themselves), and fires `event` if given.
   */
  show(state: ReturnState, message: keyof Messages | string, event?: Event): void;
  /** Shows the confirmed payment's amount, purpose and reference under the message. */
  showPayment(payment: PaymentStatus): void;
  /** The automatic checks stopped without a final status (`true`): "Check again" is offered. */
  stall(stalled: boolean): void;
  /** Offers "Connect again" (a callback whose attempt this tab cannot find or that expired), or no longer. */
  offerConnectAgain(again: (() => Promise<void>) | undefined): void;
}
