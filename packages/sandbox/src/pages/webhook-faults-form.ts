/**
 * The fault forms of the dashboard's webhooks page: arm, for the next deliveries, what the network does to a
 * receiver (a duplicate, deliveries out of order, a late retry), each with what the receiver must survive. The
 * bounds are those of `POST /_sandbox/webhook-faults`. Faults belong to the dispatcher, so they apply to the next
 * deliveries of the whole sandbox, whichever business sends them.
 */
import { isOneOf } from '@paykit/core';
import { html } from 'hono/html';
import * as z from 'zod';
import type { WebhookFault } from '../webhooks/dispatcher.js';
import { fieldError, fieldErrorsOf, invalidAttributes, type FieldErrors } from './field-errors.js';

/** A kind of fault. */
export type FaultKind = WebhookFault['kind'];

/** What a refused fault form shows again: which form, what was typed, why it was refused. */
export interface FaultDraft {
  kind: FaultKind;
  values: Readonly<Record<string, string>>;
  errors: FieldErrors;
}

/** A whole number typed in a form, between `min` and `max` (digits only: no sign, no exponent, no decimals). */
const wholeNumber = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,7}$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

const faultForm = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('duplicate'), count: wholeNumber(1, 100) }),
  z.object({ kind: z.literal('out_of_order'), count: wholeNumber(2, 100) }),
  z.object({ kind: z.literal('late_retry'), count: wholeNumber(1, 100), delay_ms: wholeNumber(0, 600_000) }),
]);

const KINDS: readonly FaultKind[] = ['duplicate', 'out_of_order', 'late_retry'];

/** True when `value` names a fault. */
export function isFaultKind(value: string): value is FaultKind {
  return isOneOf(KINDS, value);
}

/** The fault a posted form arms, or the form again with its field errors. */
export function parseFaultForm(
  kind: FaultKind,
  form: URLSearchParams,
): { fault: WebhookFault } | { draft: FaultDraft } {
  const values = { count: form.get('count') ?? '', delay_ms: form.get('delay_ms') ?? '' };
  const parsed = faultForm.safeParse({ kind, ...values });
  if (!parsed.success) return { draft: { kind, values, errors: fieldErrorsOf(parsed.error) } };
  const input = parsed.data;
  return {
    fault:
      input.kind === 'late_retry'
        ? { kind: 'late_retry', count: input.count, delayMs: input.delay_ms }
        : { kind: input.kind, count: input.count },
  };
}

/** A number field of a fault form, filled again from `draft` when the form was refused. */
function numberField(
  kind: FaultKind,
  name: string,
  label: string,
  bounds: { min: number; max: number; value: number },
  draft: FaultDraft | undefined,
) {
  const id = `fault-${kind}-${name}`;
  const errors = draft?.kind === kind ? draft.errors : undefined;
  const value = draft?.kind === kind ? (draft.values[name] ?? '') : String(bounds.value);
  return html`<div class="field">
    <label for="${id}">${label}</label>
    <input
      type="number"
      id="${id}"
      name="${name}"
      inputmode="numeric"
      min="${bounds.min}"
      max="${bounds.max}"
      step="1"
      value="${value}"
      required
      ${invalidAttributes(errors, name, id)}
    />
    ${fieldError(errors, name, id, label)}
  </div>`;
}

/** One fault's form: what it does, what a receiver must survive, its fields, and the button that arms it. */
function faultCard(
  kind: FaultKind,
  title: string,
  survive: string,
  fields: ReturnType<typeof numberField>[],
  csrf: string,
) {
  return html`<form method="post" action="/dashboard/webhooks/faults" class="card">
    <h3>${title}</h3>
    <p>${survive}</p>
    <input type="hidden" name="csrf" value="${csrf}" />
    <input type="hidden" name="kind" value="${kind}" />
    ${fields}
    <button class="secondary">Arm: ${title.toLowerCase()}</button>
  </form>`;
}

/** The three fault forms; `draft` fills the refused one again with its errors. */
export function faultForms(csrf: string, draft: FaultDraft | undefined) {
  return html`<section aria-labelledby="faults">
    <h2 id="faults">Faults to test a receiver with</h2>
    <p class="muted">
      Each applies to the next deliveries of this sandbox, whichever business sends them. Armed faults are used in the
      order armed and are forgotten by a reset or a restart.
    </p>
    ${faultCard(
      'duplicate',
      'Duplicate deliveries',
      'Each of the next deliveries is sent twice at once: the receiver must act on it once (claim the fact before acting) and answer both copies with a 2xx.',
      [numberField('duplicate', 'count', 'Deliveries to send twice', { min: 1, max: 100, value: 1 }, draft)],
      csrf,
    )}
    ${faultCard(
      'out_of_order',
      'Out of order',
      'The next deliveries are held and sent newest first: the receiver must not let an older event undo a newer one (re-fetch the resource and trust its current status, not the order of arrival).',
      [numberField('out_of_order', 'count', 'Deliveries to hold and reverse', { min: 2, max: 100, value: 2 }, draft)],
      csrf,
    )}
    ${faultCard(
      'late_retry',
      'Late retry',
      'Each of the next deliveries is sent again after a delay, even when it was answered: the receiver must answer the late copy with a 2xx and act on nothing twice.',
      [
        numberField('late_retry', 'count', 'Deliveries to send again', { min: 1, max: 100, value: 1 }, draft),
        numberField('late_retry', 'delay_ms', 'Delay (milliseconds)', { min: 0, max: 600_000, value: 2_000 }, draft),
      ],
      csrf,
    )}
  </section>`;
}
