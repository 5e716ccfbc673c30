/**
 * Reconcile: the sweep that catches up after webhooks went missing (a wrong `webhookUrl` after a deploy, a
 * firewall, a receiver down through the service's retries). It lists the payment requests of a period through
 * the API, every page, newest first, and offers each completed or failed one to the hook through the same event
 * store as the webhooks and the shopper's return: a fact already acted on is skipped, a missed one acted on once.
 * Many sweeps may run at once on many instances; the store's claims keep each fact to one hook run.
 *
 * Bounded on every side: a page size, a number of hooks at once, and a deadline after which it stops and says
 * it did not finish (the next sweep carries on; nothing is half-done, since each fact is claimed on its own).
 */
import { isPaykitError, PaykitError, type PaymentRequest } from '@paykit/core';
import type { MerchantApi } from '../api/merchant-api.js';
import { MemoryEventStore } from '../handler/event-store.js';
import type { Logger } from '../handler/logger.js';
import type { FactActor } from './act-once.js';
import { readTime } from './fact-time.js';
import { paymentRequestFact } from './payment-request-fact.js';

/** What to sweep. */
export interface ReconcileOptions {
  /** The start of the period: payment requests created at or after it. A `Date`, an ISO 8601 string, or ms. */
  since: Date | string | number;
  /** The end of the period (created before it). Default: now. */
  until?: Date | string | number;
  /**
   * A platform: the business ids of the connected merchants to sweep, each with its own credentials (the
   * platform keeps the list; the connection store does not enumerate). Not given for a shop.
   */
  merchants?: readonly string[];
  /** Payment requests asked for per page, 1 to 100. Default 100. */
  pageSize?: number;
  /** Hooks run at once. Default 4. */
  concurrency?: number;
  /** Time the sweep may take, in ms; it stops there and reports `complete: false`. Default 60,000. */
  deadlineMs?: number;
  /** Stops the sweep early (a process shutting down), as the deadline does. */
  signal?: AbortSignal;
  /**
   * The sweep runs in a process of its own (`paykit reconcile`, a cron job), not in the shop's server: a
   * handler whose event store lives in memory is then refused, since that store knows nothing the server acted on.
   */
  ownProcess?: boolean;
}

/** What a sweep did. */
export interface ReconcileReport {
  since: string;
  until: string;
  /** Merchants swept (1 for a shop). */
  merchants: number;
  /** Pages read from the API. */
  pages: number;
  /** Payment requests of the period that were looked at. */
  seen: number;
  /** Completed or failed ones whose hook ran now: the facts the shop had missed. */
  acted: number;
  /** Completed or failed ones already acted on (by a webhook, a return, or an earlier sweep). */
  alreadyRecorded: number;
  /** Completed or failed ones another path is acting on right now (the next sweep sees how it ended). */
  inProgress: number;
  /** Pending or canceled ones: nothing to act on yet. */
  open: number;
  /**
   * Completed or failed ones that happened before the event store remembers (it was created later, or forgot
   * them past its retention or size): they may have been acted on already, so they are not acted on (each is
   * logged once). Check them by hand, or keep facts longer.
   */
  outsideRetention: number;
  /** Ones whose hook threw (the claim was given back: a webhook or the next sweep offers it again). */
  hookFailures: number;
  /** False when the deadline, the signal or an error stopped it before the whole period was read. */
  complete: boolean;
  /**
   * What went wrong, per merchant (a shop's has no `merchant`). Messages pass through the log's redaction (keys,
   * tokens, salts, client secrets are masked): an API's error may quote what it was sent.
   */
  errors: { merchant?: string; code: string; message: string }[];
}

/** What a sweep works with: the handler's own parts. */
export interface ReconcileContext {
  /** The merchant of a business id (a shop has one, whatever the id). */
  merchantApi(businessId: string | undefined): Promise<MerchantApi>;
  /** True on a platform: `merchants` is then required. */
  platform: boolean;
  facts: FactActor;
  logger: Logger;
  /** The log's redaction, for the report's messages. */
  redact(text: string): string;
}

/** Sweeps the period and reports what it did. */
export async function reconcile(context: ReconcileContext, options: ReconcileOptions): Promise<ReconcileReport> {
  const since = instant(options.since, 'since');
  const until = options.until === undefined ? Date.now() : instant(options.until, 'until');
  if (until <= since) throw invalid('until', '"until" must be after "since"');
  const pageSize = whole(options.pageSize ?? 100, 'pageSize', 1, 100);
  const concurrency = whole(options.concurrency ?? 4, 'concurrency', 1, 64);
  const deadline = Date.now() + whole(options.deadlineMs ?? 60_000, 'deadlineMs', 1, 24 * 3_600_000);
  if (context.platform && (options.merchants === undefined || options.merchants.length === 0)) {
    throw invalid('merchants', 'A platform reconciles per merchant: give "merchants", the business ids to sweep');
  }
  if (!context.platform && options.merchants !== undefined) {
    throw invalid('merchants', 'A shop has one merchant, its own: leave "merchants" out');
  }
  if (options.ownProcess === true && context.facts.store instanceof MemoryEventStore) {
    throw new PaykitError(
      'validation_failed',
      "The handler's event store lives in memory, so a sweep in a process of its own knows nothing the shop's " +
        'server acted on and would run onEvent again for every paid order of the period. Give the handler the ' +
        'store the server uses: new FileEventStore({ path }) on the same file (one machine), or stores.events of ' +
        'createPostgresStores() from @paykit/server/postgres.',
      { errors: [{ path: 'eventStore', message: 'must be a store shared with the server, not in memory' }] },
    );
  }
  const report: ReconcileReport = {
    since: new Date(since).toISOString(),
    until: new Date(until).toISOString(),
    merchants: 0,
    pages: 0,
    seen: 0,
    acted: 0,
    alreadyRecorded: 0,
    inProgress: 0,
    open: 0,
    outsideRetention: 0,
    hookFailures: 0,
    complete: true,
    errors: [],
  };
  const stopped = () => Date.now() >= deadline || options.signal?.aborted === true;

  for (const merchant of options.merchants ?? [undefined]) {
    if (stopped()) break;
    report.merchants += 1;
    try {
      const api = await context.merchantApi(merchant);
      await sweepMerchant(api, { since, until, pageSize, concurrency, stopped }, context, report);
    } catch (error) {
      report.errors.push({
        ...(merchant === undefined ? {} : { merchant }),
        code: isPaykitError(error) ? error.code : 'internal_error',
        message: context.redact(isPaykitError(error) ? error.message : 'The sweep failed unexpectedly; see the log'),
      });
      context.logger.warn(`paykit: reconcile of ${merchant ?? 'the shop'} stopped`, error);
    }
  }
  if (stopped() || report.errors.length > 0) report.complete = false;
  return report;
}

interface Sweep {
  since: number;
  until: number;
  pageSize: number;
  concurrency: number;
  stopped(): boolean;
}

/** One merchant's payment requests, newest first, page after page until the period's start is passed. */
async function sweepMerchant(api: MerchantApi, sweep: Sweep, context: ReconcileContext, report: ReconcileReport) {
  let cursor: string | undefined;
  for (;;) {
    if (sweep.stopped()) return;
    const page = await api.listPaymentRequests({ perPage: sweep.pageSize, ...(cursor ? { cursor } : {}) });
    report.pages += 1;
    const inPeriod: PaymentRequest[] = [];
    let passedStart = false;
    for (const request of page.data) {
      // `created_at` without an offset (spec 2.7) is read as UTC; one that cannot be read is left out, not guessed.
      const created = readTime(request.created_at);
      if (created === undefined || created >= sweep.until) continue;
      if (created < sweep.since) {
        passedStart = true;
        continue;
      }
      inPeriod.push(request);
    }
    report.seen += inPeriod.length;
    await eachAtMost(sweep.concurrency, inPeriod, sweep.stopped, (request) => offer(request, context, report));
    const next = page.meta?.next_cursor;
    if (passedStart || !next || page.data.length === 0) return;
    cursor = next;
  }
}

/** Offers one payment request's fact to the hook, counting what came of it. */
async function offer(request: PaymentRequest, context: ReconcileContext, report: ReconcileReport): Promise<void> {
  const event = paymentRequestFact(request, 'reconcile');
  if (event === undefined) {
    report.open += 1;
    return;
  }
  try {
    const outcome = await context.facts.act(event, { request: undefined });
    if (outcome === 'acted') report.acted += 1;
    else if (outcome === 'busy') report.inProgress += 1;
    else if (outcome === 'outsideRetention') report.outsideRetention += 1;
    else report.alreadyRecorded += 1;
  } catch (error) {
    if (isPaykitError(error, 'store_unavailable')) throw error;
    report.hookFailures += 1;
    context.logger.error(`paykit: onEvent could not act on ${event.fact} found by reconcile`, error);
  }
}

/** Runs `work` over `items` with at most `limit` at once, starting no new one once `stopped()`. */
async function eachAtMost<T>(
  limit: number,
  items: readonly T[],
  stopped: () => boolean,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length && !stopped()) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

function instant(value: Date | string | number, name: string): number {
  const at = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(at)) throw invalid(name, `"${name}" must be a date (a Date, an ISO 8601 string or ms)`);
  return at;
}

function whole(value: number, name: string, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalid(name, `"${name}" must be a whole number from ${min} to ${max}`);
  }
  return value;
}

function invalid(path: string, message: string): PaykitError {
  return new PaykitError('validation_failed', message, { errors: [{ path, message }] });
}
