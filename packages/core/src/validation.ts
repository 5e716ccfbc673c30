/**
 * Where a zod error becomes paykit's: field errors with dotted paths, the `{ message, code, errors }` body, and
 * `parseOrThrow` for code that wants a `validation_failed` {@link PaykitError} rather than a result.
 */
import type * as z from 'zod';
import { PaykitError, type ErrorBody, type FieldError } from './errors.js';

/** Turns zod's issues into paykit field errors: a dotted `path` (or `(body)`) and a readable message. */
export function toFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : '(body)',
    message: issue.message,
  }));
}

/**
 * The one place a zod error becomes the paykit error body `{ message, code, errors }`.
 * The message names the first broken field, so a person reading only `message` knows what to fix.
 */
export function toErrorBody(error: z.ZodError, what = 'Request'): ErrorBody {
  const errors = toFieldErrors(error);
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  const message = first ? `${what} is invalid: ${first.path}: ${first.message}${more}` : `${what} is invalid`;
  return { message, code: 'validation_failed', errors };
}

/**
 * Parses `input` with `schema`, or throws a `validation_failed` {@link PaykitError} (status 422) whose
 * message and field errors come from {@link toErrorBody}.
 */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, what = 'Request'): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const body = toErrorBody(result.error, what);
  throw new PaykitError('validation_failed', body.message, { errors: body.errors ?? [] });
}
