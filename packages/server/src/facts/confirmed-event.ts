/**
 * What a confirmed fact is, as the handler's `onEvent` is told it: a leaf that the facts' code (which acts on each
 * once) and the handler's options (which let a shop say what to do) both import.
 */
import type {
  Charge,
  Invoice,
  Order,
  PaymentRequest,
  Payout,
  RecurringBilling,
  ShopperChoice,
  Transfer,
  WebhookEventObject,
  WebhookEventType,
} from '@paykit/core';
import type { WebhookFormat } from '../webhooks/received-webhook.js';

/** The events of one kind of object: `EventOf<'charge'>` is `charge.created | charge.updated | charge.failed`. */
type EventOf<O extends WebhookEventObject> = Extract<WebhookEventType, `${O}.${string}`>;

/** What every confirmed event carries besides its resource. */
interface ConfirmedFact<O extends WebhookEventObject> {
  type: EventOf<O>;
  /**
   * The key the event was acted on once by: `payment_request.completed:<id>`, with the status for events that
   * repeat (`charge.updated:<id>:refunded`). Either format of one fact has the same key: use it as the
   * idempotency key of what the hook does in other systems.
   */
  fact: string;
  /**
   * Where the fact was learnt: a `webhook` (either format), the shopper's `return` (the return page asked for the
   * status, and the API answered a final one), or a `reconcile` sweep. Any of them may bring a fact first; the
   * hook runs once, for whichever does.
   */
  source: FactSource;
  /** For a webhook, how it arrived: an event webhook (`event`) or a payment request's notification (`notification`). */
  deliveredAs?: WebhookFormat;
}

/** Where a confirmed fact was learnt (see `ConfirmedEvent.source`). */
export type FactSource = 'webhook' | 'return' | 'reconcile';

/**
 * What `onEvent` is told besides the event. Find the order by `createdFrom` (or by
 * `event.paymentRequest.reference_number`, which your `createPaymentRequest` set), never by `request`'s cookies.
 */
export interface EventContext {
  /**
   * The request that brought the fact: a webhook's (the service's, no cookies), or, on a return, the request of
   * whoever asked for the status first. That is not proof of who paid: anyone who learns a payment request's id
   * can ask for its status (a shared link, a restored tab, someone else's browser), so their cookies are not the
   * payer's. `undefined` for a reconcile sweep, which no request made.
   */
  request: Request | undefined;
  /**
   * What the payment request was made from, read back from the API on every path (return, webhook, reconcile):
   * the shopper's choice as `createPaymentRequest` saw it (checked by its schema; never a price), and the
   * `reference_number` the request carries (set by your hook). `undefined` for a request this handler did not
   * create, or whose choice could not be recorded with it.
   */
  createdFrom?: CreatedFrom | undefined;
}

/** What a payment request was made from (see {@link EventContext.createdFrom}). */
export interface CreatedFrom {
  /** The shopper's choice, as `createPaymentRequest` got it; absent when it did not fit in the request's metadata. */
  choice: ShopperChoice | undefined;
  /** The payment request's `reference_number`, as the API has it. */
  referenceNumber: string | undefined;
}

/**
 * A webhook whose claim the API confirmed: the signature held (when `webhookSalt` is set), and the resource was
 * fetched from the API and is in the state the event names. The resource (`paymentRequest`, `charge`, ...) is
 * the fetched one, never the delivered payload; only an invoice, which the API has no read for, is the signed
 * body itself (and so needs `webhookSalt`).
 */
export type ConfirmedEvent =
  | (ConfirmedFact<'payment_request'> & {
      paymentRequest: PaymentRequest;
      /**
       * The charge that paid it (or failed), when the fact was learnt from a `charge.created` / `charge.failed`
       * webhook: a charge of a payment request is that request's payment, offered as its
       * `payment_request.completed` (or `.failed`), never as a second fact.
       */
      charge?: Charge;
    })
  | (ConfirmedFact<'charge'> & { charge: Charge })
  | (ConfirmedFact<'payout'> & { payout: Payout })
  | (ConfirmedFact<'order'> & { order: Order })
  | (ConfirmedFact<'invoice'> & { invoice: Invoice })
  | (ConfirmedFact<'transfer'> & { transfer: Transfer })
  | (ConfirmedFact<'recurring_billing'> & { recurringBilling: RecurringBilling });

/** The handler's `onEvent`: what the shop does once per confirmed fact. */
export type OnEvent = (event: ConfirmedEvent, context: EventContext) => void | Promise<void>;
