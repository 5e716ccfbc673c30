/**
 * Webhook deliveries: each one is a request made once (its headers and body, signature included) and sent as it
 * is on every attempt, as the service resends a delivery. A failed attempt (network error, timeout or non-2xx)
 * is retried after each of `retryDelaysMs`, then given up. Every delivery is kept with its request, each
 * attempt's answer and the attempts' count: `GET /_sandbox/webhook-deliveries` and the dashboard show them.
 *
 * A retry falls due on its business's clock: a real timer sends it after its delay as before, and a business
 * whose clock is moved past it sends it then ({@link WebhookDispatcher.runDue}), whichever comes first, once.
 *
 * The faults a receiver must survive can be armed ({@link WebhookFault}): a delivery sent twice at once,
 * deliveries that arrive newest first, a delivery sent again late after it succeeded.
 */
import type { BusinessClocks } from '../business-clocks.js';
import { isoWithOffset } from '../clock.js';
import { newId } from '../ids.js';

/** One attempt at a delivery and what came of it. */
export interface DeliveryAttempt {
  at: string;
  /** The answer's HTTP status, or null when there was none (network error, timeout). */
  status: number | null;
  error: string | null;
  /** The start of the answer's body, for a person reading why a receiver refused. */
  response_body: string;
}

/** One request to one URL, and every attempt to send it. */
export interface WebhookDelivery {
  id: string;
  /** `event` (JSON to a registered endpoint) or `notification` (a form to a payment request's `webhook`). */
  format: 'event' | 'notification';
  /** What it announces, e.g. `charge.created`; a notification of a paid request says `payment_request.completed`. */
  event: string;
  /** The business whose salt signed it. */
  business_id: string;
  /** The registered endpoint it went to; null for a notification and for a refund's `webhook`. */
  endpoint_id: string | null;
  url: string;
  /** Sent as it is on every attempt: the signature stays valid. */
  request: { headers: Record<string, string>; body: string };
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** The HTTP status of the last attempt, or null when it got no answer. */
  response_status: number | null;
  last_error: string | null;
  history: DeliveryAttempt[];
  created_at: string;
}

/** What a new delivery is made of. */
export type DeliveryRequest = Pick<
  WebhookDelivery,
  'format' | 'event' | 'business_id' | 'endpoint_id' | 'url' | 'request'
>;

/**
 * A fault armed for the next deliveries:
 * - `duplicate`: each of the next `count` is sent twice at once (two attempts, one delivery);
 * - `out_of_order`: the next `count` (at least 2) are held and sent newest first once they are all there, or
 *   after a second for as many as came;
 * - `late_retry`: each of the next `count` is sent again `delayMs` after its first attempt, whatever that
 *   attempt's answer, as the service does when it did not hear the answer in time.
 */
export type WebhookFault =
  | { kind: 'duplicate'; count: number }
  | { kind: 'out_of_order'; count: number }
  | { kind: 'late_retry'; count: number; delayMs: number };

/** Timing of deliveries. */
export interface WebhookDispatcherOptions {
  /** Waits before each retry; their count bounds the retries. Default 0.5 s, 2 s, 8 s, 30 s (five attempts). */
  retryDelaysMs?: readonly number[];
  /** Time limit of one attempt. Default 5 s. */
  timeoutMs?: number;
  /** The businesses' clocks stamps and retries follow (without it, real time). */
  clocks?: Pick<BusinessClocks, 'nowMs'>;
}

/** A retry waiting for its moment: the business-clock instant it falls due at, and its real timer. */
interface ScheduledRetry {
  dueAt: number;
  timer: NodeJS.Timeout;
}

/** How much of an answer's body a delivery keeps. */
const KEPT_RESPONSE_BYTES = 2_048;
/** How long `out_of_order` waits for the rest of its deliveries before sending what it holds. */
const HOLD_LIMIT_MS = 1_000;

/** Sends deliveries and remembers every one. */
export class WebhookDispatcher {
  readonly deliveries: WebhookDelivery[] = [];
  readonly #retryDelaysMs: readonly number[];
  readonly #timeoutMs: number;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<Promise<void>>();
  /** How many retries of each delivery's own chain are used up (a redelivery starts a new chain). */
  readonly #retriesUsed = new WeakMap<WebhookDelivery, number>();
  readonly #scheduled = new Map<WebhookDelivery, ScheduledRetry>();
  readonly #clocks: Pick<BusinessClocks, 'nowMs'> | undefined;
  #faults: WebhookFault[] = [];
  #held: WebhookDelivery[] = [];
  #holdTimer: NodeJS.Timeout | undefined;

  constructor(options: WebhookDispatcherOptions = {}) {
    this.#retryDelaysMs = options.retryDelaysMs ?? [500, 2_000, 8_000, 30_000];
    this.#timeoutMs = options.timeoutMs ?? 5_000;
    this.#clocks = options.clocks;
  }

  /** Queues a delivery and sends it (or holds it, when `out_of_order` is armed). */
  send(request: DeliveryRequest): WebhookDelivery {
    const delivery: WebhookDelivery = {
      id: newId(),
      ...request,
      status: 'pending',
      attempts: 0,
      response_status: null,
      last_error: null,
      history: [],
      created_at: isoWithOffset(this.#now(request.business_id)),
    };
    this.deliveries.push(delivery);
    const fault = this.#takeFault();
    if (fault?.kind === 'out_of_order') this.#hold(delivery, fault.count);
    else this.#start(delivery, fault);
    return delivery;
  }

  /** The delivery with this id. */
  find(id: string): WebhookDelivery | undefined {
    return this.deliveries.find((delivery) => delivery.id === id);
  }

  /** Sends a delivery again now, byte for byte, with its retries as for a new one. */
  redeliver(delivery: WebhookDelivery): void {
    delivery.status = 'pending';
    this.#retriesUsed.delete(delivery);
    this.#cancelRetry(delivery);
    this.#attempt(delivery, 'retry');
  }

  /** The earliest business-clock instant a retry of this business's deliveries falls due at, if any waits. */
  nextDue(businessId: string): number | undefined {
    let earliest: number | undefined;
    for (const [delivery, retry] of this.#scheduled) {
      if (delivery.business_id === businessId && (earliest === undefined || retry.dueAt < earliest)) {
        earliest = retry.dueAt;
      }
    }
    return earliest;
  }

  /**
   * Sends now, oldest due first, every retry of this business's deliveries due at or before `atMs` on its clock,
   * each answered before the next (the timeline has moved the clock there). Answers the deliveries it sent.
   */
  async runDue(businessId: string, atMs: number): Promise<WebhookDelivery[]> {
    const due = [...this.#scheduled]
      .filter(([delivery, retry]) => delivery.business_id === businessId && retry.dueAt <= atMs)
      .sort((a, b) => a[1].dueAt - b[1].dueAt)
      .map(([delivery]) => delivery);
    for (const delivery of due) {
      this.#cancelRetry(delivery);
      const sending = this.#send(delivery, 'retry');
      this.#inFlight.add(sending);
      await sending.finally(() => this.#inFlight.delete(sending));
    }
    return due;
  }

  /** Arms a fault for the next deliveries (several may be armed; they are used in the order armed). */
  arm(fault: WebhookFault): void {
    this.#faults.push(fault);
  }

  /** Resolves when nothing is being sent right now (retries still scheduled are not waited for). */
  async idle(): Promise<void> {
    while (this.#inFlight.size) await Promise.allSettled([...this.#inFlight]);
  }

  /** Cancels scheduled retries, held deliveries and armed faults, and forgets every delivery. */
  reset(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    for (const retry of this.#scheduled.values()) clearTimeout(retry.timer);
    this.#scheduled.clear();
    clearTimeout(this.#holdTimer);
    this.#held = [];
    this.#faults = [];
    this.deliveries.length = 0;
  }

  /** The fault that applies to the next delivery, counting it down. */
  #takeFault(): WebhookFault | undefined {
    const fault = this.#faults[0];
    if (!fault) return undefined;
    // `out_of_order` counts its deliveries as it holds them (#hold), the others here.
    if (fault.kind !== 'out_of_order') {
      fault.count -= 1;
      if (fault.count <= 0) this.#faults.shift();
    }
    return fault;
  }

  #start(delivery: WebhookDelivery, fault: WebhookFault | undefined): void {
    this.#attempt(delivery, 'retry');
    if (fault?.kind === 'duplicate') this.#attempt(delivery, 'once');
    if (fault?.kind === 'late_retry') this.#later(fault.delayMs, () => this.#attempt(delivery, 'once'));
  }

  #hold(delivery: WebhookDelivery, count: number): void {
    this.#held.push(delivery);
    if (this.#held.length === 1) {
      this.#holdTimer = setTimeout(() => this.#release(), HOLD_LIMIT_MS);
      this.#holdTimer.unref();
    }
    if (this.#held.length >= Math.max(2, count)) this.#release();
  }

  /**
   * Sends what `out_of_order` held, newest first, each once the one before it was answered (sent all at once
   * they could still arrive in any order), and disarms it.
   */
  #release(): void {
    clearTimeout(this.#holdTimer);
    if (this.#faults[0]?.kind === 'out_of_order') this.#faults.shift();
    const held = this.#held.reverse();
    this.#held = [];
    const inOrder = held.reduce<Promise<void>>(
      (previous, delivery) => previous.then(() => this.#send(delivery, 'retry')),
      Promise.resolve(),
    );
    const sending = inOrder.finally(() => this.#inFlight.delete(sending));
    this.#inFlight.add(sending);
  }

  #later(delayMs: number, run: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      run();
    }, delayMs);
    timer.unref();
    this.#timers.add(timer);
  }

  /** One attempt; `retry` schedules the next after a failure, `once` (a fault's extra attempt) does not. */
  #attempt(delivery: WebhookDelivery, after: 'retry' | 'once'): void {
    const sending = this.#send(delivery, after).finally(() => this.#inFlight.delete(sending));
    this.#inFlight.add(sending);
  }

  async #send(delivery: WebhookDelivery, after: 'retry' | 'once'): Promise<void> {
    delivery.attempts += 1;
    const attempt: DeliveryAttempt = {
      at: isoWithOffset(this.#now(delivery.business_id)),
      status: null,
      error: null,
      response_body: '',
    };
    delivery.history.push(attempt);
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: delivery.request.headers,
        body: delivery.request.body,
        signal: AbortSignal.timeout(this.#timeoutMs),
        redirect: 'manual',
      });
      attempt.status = response.status;
      attempt.response_body = (await response.text().catch(() => '')).slice(0, KEPT_RESPONSE_BYTES);
      if (!response.ok) attempt.error = `HTTP ${response.status}`;
    } catch (error) {
      attempt.error = error instanceof Error ? error.message : String(error);
    }
    // A fault's extra attempt is in the history only: the delivery's status is its own chain's.
    if (after === 'once') return;
    delivery.response_status = attempt.status;
    delivery.last_error = attempt.error;
    if (attempt.error === null) {
      delivery.status = 'delivered';
      return;
    }
    const used = this.#retriesUsed.get(delivery) ?? 0;
    const delay = this.#retryDelaysMs[used];
    if (delay === undefined) {
      delivery.status = 'failed';
      return;
    }
    this.#retriesUsed.set(delivery, used + 1);
    this.#scheduleRetry(delivery, delay);
  }

  /** The next attempt of `delivery`, after `delayMs` of real time or of its business's clock, whichever is first. */
  #scheduleRetry(delivery: WebhookDelivery, delayMs: number): void {
    this.#cancelRetry(delivery);
    const timer = setTimeout(() => {
      this.#scheduled.delete(delivery);
      this.#attempt(delivery, 'retry');
    }, delayMs);
    timer.unref();
    this.#scheduled.set(delivery, { dueAt: this.#now(delivery.business_id).getTime() + delayMs, timer });
  }

  #cancelRetry(delivery: WebhookDelivery): void {
    const retry = this.#scheduled.get(delivery);
    if (retry) clearTimeout(retry.timer);
    this.#scheduled.delete(delivery);
  }

  #now(businessId: string): Date {
    return new Date(this.#clocks?.nowMs(businessId) ?? Date.now());
  }
}
