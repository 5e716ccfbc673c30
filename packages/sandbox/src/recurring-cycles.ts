/**
 * Subscriptions billed by their cycle on their business's clock. A recurring billing record that is not a saved
 * card alone (its `cycle` is `weekly`, `monthly`, `yearly` or `custom`) has a schedule from its start date
 * (00:00 Singapore time, the service's "Billing start date (YYYY-MM-DD) in SGT"): its first cycle falls due
 * then and each next one a cycle later, counted from the start so that a month-end date stays one (Jan 31,
 * Feb 28, Mar 31). Cycles fall due on the business's clock and are charged when that clock is moved
 * (`timeline.ts`): the sandbox never bills on its own in real time, so a business whose clock was never moved
 * behaves as before clocks existed.
 *
 * A cycle charges the saved card (`recurring-billing-charge.ts`: the charge, its notification and events). A
 * card that declines fails the cycle and the record becomes `retrying`; the next cycle tries again. After
 * `times_to_be_charged` cycles the record becomes `inactive`. Each status change sends
 * `recurring_billing.subscription_updated`. A changed cycle counts from the date of the
 * charge that ended the current one (the service: "any changes made to the cycle will only be effective at the
 * end of the current cycle"); a changed amount is charged on the next cycle.
 */
import { formatMinor, majorToMinor } from '@paykit/core';
import { isoWithOffset } from './clock.js';
import type { SandboxContext } from './context.js';
import { chargeRecurringBilling } from './recurring-billing-charge.js';
import type { RecurringBillingJson } from './recurring-billing.js';
import type { BillingSchedule } from './state.js';
import type { Happening, ScheduledWork } from './scheduled-work.js';
import { sendRecordUpdated } from './webhooks/recurring-billing-events.js';

const SINGAPORE_OFFSET_MS = 8 * 3_600_000;

/** 00:00 in Singapore of a `YYYY-MM-DD` date, epoch ms. */
export function startOfSingaporeDay(date: string): number {
  return Date.parse(`${date}T00:00:00+08:00`);
}

/**
 * Gives a new subscription record its schedule, from `startDate` (or from its business's now without one). A
 * saved-card record (cycle `save_card`) has none: it is charged through the API only.
 */
export function scheduleCycles(
  sandbox: SandboxContext,
  businessId: string,
  record: RecurringBillingJson,
  startDate: string | undefined,
): void {
  if (record.cycle === 'save_card') return;
  sandbox.state.billingSchedules.set(record.id, {
    recordId: record.id,
    businessId,
    anchorAt: startDate === undefined ? sandbox.clocks.nowMs(businessId) : startOfSingaporeDay(startDate),
    cycles: 0,
    cycle: cycleKey(record),
  });
}

/** Moves a schedule's start date (an update's `start_date`), counting its cycles from there. */
export function restartCycles(sandbox: SandboxContext, recordId: string, startDate: string): void {
  const schedule = sandbox.state.billingSchedules.get(recordId);
  if (schedule) Object.assign(schedule, { anchorAt: startOfSingaporeDay(startDate), cycles: 0 });
}

/** The instant the schedule's next cycle falls due, epoch ms. */
export function nextCycleAt(schedule: BillingSchedule): number {
  return cycleDate(schedule.anchorAt, schedule.cycle, schedule.cycles);
}

/** The recurring billing cycles of a business, for the timeline. */
export const recurringCycles: ScheduledWork = {
  nextDue(sandbox, businessId) {
    let earliest: number | undefined;
    for (const [schedule] of billable(sandbox, businessId)) {
      const at = nextCycleAt(schedule);
      if (earliest === undefined || at < earliest) earliest = at;
    }
    return earliest;
  },
  runDue(sandbox, businessId, atMs) {
    const happened: Happening[] = [];
    for (;;) {
      const due = billable(sandbox, businessId)
        .filter(([schedule]) => nextCycleAt(schedule) <= atMs)
        .sort((a, b) => nextCycleAt(a[0]) - nextCycleAt(b[0]))[0];
      if (!due) return happened;
      happened.push(chargeCycle(sandbox, businessId, ...due));
    }
  },
};

/** The schedules of a business whose record can be charged now, with their records. */
function billable(sandbox: SandboxContext, businessId: string): [BillingSchedule, RecurringBillingJson][] {
  const found: [BillingSchedule, RecurringBillingJson][] = [];
  for (const schedule of sandbox.state.billingSchedules.values()) {
    if (schedule.businessId !== businessId) continue;
    const record = sandbox.state.resources.find('recurring_billing', schedule.recordId)?.json;
    if (!record || (record.status !== 'active' && record.status !== 'retrying') || !record.payment_method) continue;
    if (record.times_to_be_charged !== null && schedule.cycles >= Number(record.times_to_be_charged)) continue;
    found.push([schedule, record]);
  }
  return found;
}

function chargeCycle(
  sandbox: SandboxContext,
  businessId: string,
  schedule: BillingSchedule,
  record: RecurringBillingJson,
): Happening {
  const amountMinor = majorToMinor(record.amount, { field: 'amount', allowZero: true });
  const answer = chargeRecurringBilling(sandbox, record, businessId, {
    amountMinor,
    currency: String(record.currency),
  });
  const chargedAt = nextCycleAt(schedule);
  schedule.cycles += 1;
  const current = cycleKey(record);
  if (current !== schedule.cycle) Object.assign(schedule, { anchorAt: chargedAt, cycles: 1, cycle: current });
  const total = record.times_to_be_charged === null ? '' : ` of ${String(record.times_to_be_charged)}`;
  const ok = answer.status === 'succeeded';
  const statusBefore = record.status;
  if (!ok) record.status = 'retrying';
  else if (record.times_to_be_charged !== null && schedule.cycles >= Number(record.times_to_be_charged)) {
    record.status = 'inactive';
  } else record.status = 'active';
  // The service's subscription_updated covers "status changes": retrying after a decline, active again, inactive.
  if (record.status !== statusBefore) sendRecordUpdated(sandbox, businessId, record);
  return {
    at: isoWithOffset(sandbox.clocks.now(businessId)),
    type: ok ? 'charge.succeeded' : 'charge.failed',
    object_id: answer.payment_id,
    summary: `recurring billing ${record.id}, cycle ${schedule.cycles}${total}: ${String(record.currency).toUpperCase()} ${formatMinor(amountMinor)} ${ok ? 'charged' : 'declined'}`,
  };
}

/** A record's cycle as one comparable text: `monthly`, `custom 2 week`. */
function cycleKey(record: RecurringBillingJson): string {
  return record.cycle === 'custom'
    ? `custom ${textOf(record.cycle_repeat, '1')} ${textOf(record.cycle_frequency, 'month')}`
    : textOf(record.cycle, 'monthly');
}

/** A stored field as text (the record's JSON types its cycle fields loosely), or `fallback`. */
function textOf(value: unknown, fallback: string): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : fallback;
}

/** The `n`th cycle date after `anchorAt` (the 0th is the anchor itself), in Singapore's calendar. */
function cycleDate(anchorAt: number, key: string, n: number): number {
  const [cycle, repeat = '1', frequency = 'month'] = key.split(' ');
  const count = cycle === 'custom' ? n * Number(repeat) : n;
  const unit =
    cycle === 'custom' ? frequency : ({ weekly: 'week', monthly: 'month', yearly: 'year' }[cycle ?? ''] ?? 'month');
  switch (unit) {
    case 'day':
      return anchorAt + count * 86_400_000;
    case 'week':
      return anchorAt + count * 7 * 86_400_000;
    case 'year':
      return addMonths(anchorAt, count * 12);
    default:
      return addMonths(anchorAt, count);
  }
}

/** `months` calendar months after `at` in Singapore, the day kept or clamped to the month's last. */
function addMonths(at: number, months: number): number {
  const local = new Date(at + SINGAPORE_OFFSET_MS);
  const year = local.getUTCFullYear();
  const month = local.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(local.getUTCDate(), lastDay);
  const shifted = Date.UTC(year, month, day, local.getUTCHours(), local.getUTCMinutes(), local.getUTCSeconds());
  return shifted - SINGAPORE_OFFSET_MS;
}
