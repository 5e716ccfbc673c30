/**
 * A refused form shown again with each field's error next to it: the texts by field, the paragraph under the
 * field, and the attributes that tie the two together for a screen reader (`aria-invalid`, `aria-describedby`).
 */
import { toFieldErrors } from '@paykit/core';
import { html } from 'hono/html';
import type * as z from 'zod';

/** The error texts of a refused form, by field name (`event_types.0` counts as `event_types`). */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;

/** Groups a zod error's issues by the form field they are about (the path's first segment). */
export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const { path, message } of toFieldErrors(error)) {
    const field = path.split('.')[0] ?? path;
    (errors[field] ??= []).push(message);
  }
  return errors;
}

/** The id of the paragraph that holds a field's error; `fieldId` is the control's own id. */
const errorId = (fieldId: string) => `${fieldId}-error`;

/**
 * The attributes of a control whose field was refused, to put inside its tag; nothing otherwise. `hintId` is a
 * hint the control is already described by, kept beside the error.
 */
export function invalidAttributes(errors: FieldErrors | undefined, field: string, fieldId: string, hintId?: string) {
  if (!errors?.[field]?.length) return hintId ? html`aria-describedby="${hintId}"` : '';
  const describedBy = hintId ? `${errorId(fieldId)} ${hintId}` : errorId(fieldId);
  return html`aria-invalid="true" aria-describedby="${describedBy}"`;
}

/**
 * The paragraph under a refused field that says why ("URL must be an https URL …"); nothing when the field was
 * not refused. core's texts start with the verb (`must not be empty`), so `label` leads to make a sentence.
 */
export function fieldError(errors: FieldErrors | undefined, field: string, fieldId: string, label: string) {
  const texts = errors?.[field];
  if (!texts?.length) return '';
  return html`<p class="field-error" id="${errorId(fieldId)}">${label} ${texts.join('; ')}.</p>`;
}
