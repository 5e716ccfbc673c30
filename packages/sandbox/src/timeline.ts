/**
 * Moving a business's clock: what falls due on the way happens at its moment, in order, as if the time had
 * passed. Each kind of scheduled work (recurring billing cycles, payment requests' expiry, transfers and payouts
 * moving on, webhook retries) says when it next falls due for a business and does what is due; this module walks
 * the clock from one due moment to the next until the target, waiting after each moment for the webhooks it sent
 * to be answered, so that a receiver sees them in the order they happened.
 */
import { PaykitError } from '@paykit/core';
import { isoWithOffset } from './clock.js';
import type { SandboxContext } from './context.js';
import { paymentRequestExpiry } from './payment-request-expiry.js';
import { recurringCycles } from './recurring-cycles.js';
import { payoutSchedule, transferSchedule } from './money-movements.js';
import type { Happening, ScheduledWork } from './scheduled-work.js';

/** In this order at one instant: a request expires before a cycle bills, retries go last. */
const WORK: readonly ScheduledWork[] = [
  paymentRequestExpiry,
  recurringCycles,
  transferSchedule,
  payoutSchedule,
  {
    nextDue: (sandbox, businessId) => sandbox.webhooks.nextDue(businessId),
    runDue: async (sandbox, businessId, atMs) =>
      (await sandbox.webhooks.runDue(businessId, atMs)).map((delivery) => ({
        at: isoWithOffset(sandbox.clocks.now(businessId)),
        type: 'webhook.retried',
        object_id: delivery.id,
        summary: `${delivery.event} to ${delivery.url}: attempt ${delivery.attempts}, ${
          delivery.response_status === null ? (delivery.last_error ?? 'no answer') : `HTTP ${delivery.response_status}`
        }`,
      })),
  },
];

/**
 * How many due moments one advance may walk: ten years of a daily subscription and its retries fit; a schedule
 * that keeps falling due at the same instant (a defect) ends in a clear error instead of a hung request.
 */
const MAX_STEPS = 50_000;

/** Advances run one at a time per sandbox: two at once would interleave their moments. */
const running = new WeakMap<SandboxContext, Promise<unknown>>();

/**
 * Moves `businessId`'s clock forward to `toMs` (epoch ms), doing what falls due on the way, in order, and
 * answers what happened. A target at or before the clock's now does only what is already due.
 */
export function advanceClock(sandbox: SandboxContext, businessId: string, toMs: number): Promise<Happening[]> {
  const previous = running.get(sandbox) ?? Promise.resolve();
  const next = previous.catch(() => undefined).then(() => walk(sandbox, businessId, toMs));
  running.set(sandbox, next);
  return next;
}

async function walk(sandbox: SandboxContext, businessId: string, toMs: number): Promise<Happening[]> {
  const happened: Happening[] = [];
  for (let step = 0; ; step += 1) {
    const due = nextDue(sandbox, businessId);
    if (due === undefined || due > toMs) break;
    if (step >= MAX_STEPS) {
      throw new PaykitError(
        'conflict',
        `The clock stopped after ${MAX_STEPS} due moments on its way: move it less far`,
      );
    }
    sandbox.clocks.moveTo(businessId, due);
    const at = sandbox.clocks.nowMs(businessId);
    for (const work of WORK) happened.push(...(await work.runDue(sandbox, businessId, at)));
    // What this moment sent is answered before the next moment happens: receivers see the business's order.
    await sandbox.webhooks.idle();
  }
  sandbox.clocks.moveTo(businessId, toMs);
  return happened;
}

function nextDue(sandbox: SandboxContext, businessId: string): number | undefined {
  let earliest: number | undefined;
  for (const work of WORK) {
    const due = work.nextDue(sandbox, businessId);
    if (due !== undefined && (earliest === undefined || due < earliest)) earliest = due;
  }
  return earliest;
}
