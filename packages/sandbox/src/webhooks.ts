/**
 * Webhook deliveries: each event is POSTed as JSON to every target; a failed delivery (network error,
 * timeout or non-2xx) is retried after each of `retryDelaysMs`, then given up. The log of deliveries is
 * what `GET /_sandbox/webhook-deliveries` shows.
 */
import type { WebhookEventType } from '@paykit/core';
import { isoWithoutOffset } from './clock.js';
import { newId } from './ids.js';

/**
 * The kinds the sandbox sends: spec section 6's, plus `refund.succeeded` to a refund's `webhook` (spec 6 rule 4
 * names the field but not the event; this name is the sandbox's).
 */
export type SandboxEventType = WebhookEventType | 'refund.succeeded';

/** An event as the sandbox sends it (the shape core's `webhookEventSchema` reads). */
export interface SandboxEvent {
  id: string;
  type: SandboxEventType;
  created_at: string;
  business_id: string;
  data: { object: Record<string, unknown> & { id: string } };
}

/** One event on its way to one URL. */
export interface WebhookDelivery {
  id: string;
  event: SandboxEventType;
  event_id: string;
  url: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  /** The HTTP status of the last attempt, or null when it got no answer. */
  response_status: number | null;
  last_error: string | null;
  payload: SandboxEvent;
}

/** Timing of deliveries. */
export interface WebhookDispatcherOptions {
  /** Waits before each retry; their count bounds the retries. Default 0.5 s, 2 s, 8 s, 30 s (five attempts). */
  retryDelaysMs?: readonly number[];
  /** Time limit of one attempt. Default 5 s. */
  timeoutMs?: number;
}

/** Sends events and remembers every delivery. */
export class WebhookDispatcher {
  readonly deliveries: WebhookDelivery[] = [];
  readonly #retryDelaysMs: readonly number[];
  readonly #timeoutMs: number;
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #inFlight = new Set<Promise<void>>();

  constructor(options: WebhookDispatcherOptions = {}) {
    this.#retryDelaysMs = options.retryDelaysMs ?? [500, 2_000, 8_000, 30_000];
    this.#timeoutMs = options.timeoutMs ?? 5_000;
  }

  /** Builds an event and queues one delivery per distinct URL. Returns the event. */
  emit(type: SandboxEventType, businessId: string, object: SandboxEvent['data']['object'], urls: Iterable<string>) {
    const event: SandboxEvent = {
      id: `evt_${newId()}`,
      type,
      created_at: isoWithoutOffset(new Date()),
      business_id: businessId,
      data: { object },
    };
    for (const url of new Set(urls)) {
      const delivery: WebhookDelivery = {
        id: newId(),
        event: type,
        event_id: event.id,
        url,
        status: 'pending',
        attempts: 0,
        response_status: null,
        last_error: null,
        payload: event,
      };
      this.deliveries.push(delivery);
      this.#attempt(delivery);
    }
    return event;
  }

  /** Resolves when nothing is being sent right now (retries still scheduled are not waited for). */
  async idle(): Promise<void> {
    while (this.#inFlight.size) await Promise.allSettled([...this.#inFlight]);
  }

  /** Cancels scheduled retries and forgets every delivery. */
  reset(): void {
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.deliveries.length = 0;
  }

  #attempt(delivery: WebhookDelivery): void {
    const sending = this.#send(delivery).finally(() => this.#inFlight.delete(sending));
    this.#inFlight.add(sending);
  }

  async #send(delivery: WebhookDelivery): Promise<void> {
    delivery.attempts += 1;
    try {
      const response = await fetch(delivery.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'paykit-sandbox-webhooks' },
        body: JSON.stringify(delivery.payload),
        signal: AbortSignal.timeout(this.#timeoutMs),
        redirect: 'manual',
      });
      await response.body?.cancel();
      delivery.response_status = response.status;
      if (response.ok) {
        delivery.status = 'delivered';
        delivery.last_error = null;
        return;
      }
      delivery.last_error = `HTTP ${response.status}`;
    } catch (error) {
      delivery.response_status = null;
      delivery.last_error = error instanceof Error ? error.message : String(error);
    }
    const delay = this.#retryDelaysMs[delivery.attempts - 1];
    if (delay === undefined) {
      delivery.status = 'failed';
      return;
    }
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.#attempt(delivery);
    }, delay);
    timer.unref();
    this.#timers.add(timer);
  }
}
