/**
 * Transfers and payouts moving on their dates, on their business's clock. The service's transfer statuses are
 * `scheduled`, `processing`, `paid`, `failed`, `canceled` (its transfers OpenAPI) and it sends an event per status
 * reached; a payout is `scheduled` with an `arrival_date` (spec 2.1, 3). Neither publishes when a status changes,
 * so the sandbox's days (the README says so): one day after it was made a scheduled transfer or payout is
 * `processing`, two days after `paid` (a payout's `arrival_date`). These run when the business's clock is moved
 * (`timeline.ts`); without that they stay where they are until a test moves them (`/_sandbox/payouts/{id}/status`).
 * A transfer sends `transfer.updated` and `transfer.<status>`; a payout that is paid sends `payout.created` (the
 * service's "once a payout is successfully completed").
 */
import type { WebhookEventType } from '@paykit/core';
import { isoWithOffset, isoWithoutOffset } from './clock.js';
import type { SandboxContext } from './context.js';
import type { ResourceOf } from './resources.js';
import type { Happening, ScheduledWork } from './scheduled-work.js';
import { sendEvent } from './webhooks/send.js';

const DAY_MS = 86_400_000;

/** Days after its creation a scheduled transfer or payout reaches each status. */
const STEPS = [
  { from: 'scheduled', to: 'processing', afterMs: DAY_MS },
  { from: 'processing', to: 'paid', afterMs: 2 * DAY_MS },
] as const;

/** A transfer's `created_at` has an offset; a payout's is UTC without one (the spec's formats). */
const transferMadeAt = (json: { created_at?: unknown }) => Date.parse(String(json.created_at));
const payoutMadeAt = (json: { created_at?: unknown }) => Date.parse(`${String(json.created_at)}Z`);

/** The next step of a record in `status` made at `madeAt`: when, and to what. */
function nextStep(status: unknown, madeAt: number): { at: number; to: 'processing' | 'paid' } | undefined {
  const step = STEPS.find((s) => s.from === status);
  return step && Number.isFinite(madeAt) ? { at: madeAt + step.afterMs, to: step.to } : undefined;
}

/** The kind's records of a business that have a step to come, with it. */
function pending<K extends 'transfers' | 'payouts'>(
  sandbox: SandboxContext,
  kind: K,
  businessId: string,
  madeAt: (json: ResourceOf<K>) => number,
): { json: ResourceOf<K>; step: { at: number; to: 'processing' | 'paid' } }[] {
  return sandbox.state.resources
    .list(kind, businessId)
    .flatMap((json) => {
      const step = nextStep(json.status, madeAt(json));
      return step ? [{ json, step }] : [];
    })
    .sort((a, b) => a.step.at - b.step.at);
}

function earliest(steps: { step: { at: number } }[]): number | undefined {
  return steps[0]?.step.at;
}

/** Transfers reaching `processing` and `paid`, for the timeline. */
export const transferSchedule: ScheduledWork = {
  nextDue: (sandbox, businessId) => earliest(pending(sandbox, 'transfers', businessId, transferMadeAt)),
  runDue(sandbox, businessId, atMs) {
    const happened: Happening[] = [];
    for (;;) {
      const due = pending(sandbox, 'transfers', businessId, transferMadeAt).find((p) => p.step.at <= atMs);
      if (!due) return happened;
      const { json, step } = due;
      json.status = step.to;
      sendEvent(sandbox, 'transfer.updated', json, businessId);
      sendEvent(sandbox, `transfer.${step.to}` satisfies WebhookEventType, json, businessId);
      happened.push({
        at: isoWithOffset(new Date(step.at)),
        type: `transfer.${step.to}`,
        object_id: json.id,
        summary: `transfer ${json.id} is ${step.to}`,
      });
    }
  },
};

/** Payouts reaching `processing` and `paid`, for the timeline. */
export const payoutSchedule: ScheduledWork = {
  nextDue: (sandbox, businessId) => earliest(pending(sandbox, 'payouts', businessId, payoutMadeAt)),
  runDue(sandbox, businessId, atMs) {
    const happened: Happening[] = [];
    for (;;) {
      const due = pending(sandbox, 'payouts', businessId, payoutMadeAt).find((p) => p.step.at <= atMs);
      if (!due) return happened;
      const { json, step } = due;
      json.status = step.to;
      json.updated_at = isoWithoutOffset(new Date(step.at));
      if (step.to === 'paid') sendEvent(sandbox, 'payout.created', json, businessId);
      happened.push({
        at: isoWithOffset(new Date(step.at)),
        type: `payout.${step.to}`,
        object_id: json.id,
        summary: `payout ${json.id} is ${step.to}`,
      });
    }
  },
};
