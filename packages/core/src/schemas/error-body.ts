/**
 * Error bodies. The API's are `{ message }` (spec 7.1). Spec 7 does not show a validation error; the real
 * service documents its 422 as `{ message, errors: { <field>: [<text>, ...] } }` (its OpenAPI description of
 * `POST /v1/payment-requests`), and paykit's own bodies add a stable `code` and `errors` as a list of
 * `{ path, message }`. Both forms of `errors` are read, and turned into paykit's list, so that callers see one
 * shape whoever answered.
 */
import * as z from 'zod';
import type { FieldError } from '../errors.js';

/** paykit's field errors: `[{ path, message }]`. */
const fieldErrorList = z.array(z.looseObject({ path: z.string(), message: z.string() }));

/** The real service's field errors, `{ amount: ['The amount field is required.'] }`, as paykit's list. */
const fieldErrorMap = z
  .record(z.string(), z.union([z.array(z.string()), z.string()]))
  .transform((map): FieldError[] =>
    Object.entries(map).flatMap(([path, messages]) =>
      (Array.isArray(messages) ? messages : [messages]).map((message) => ({ path, message })),
    ),
  );

/** An error body from the API or from a paykit server, parsed leniently; `errors` always comes out as a list. */
export const errorBodySchema = z.looseObject({
  message: z.string(),
  code: z.string().optional(),
  errors: z
    .union([
      fieldErrorList.transform((list): FieldError[] => list.map(({ path, message }) => ({ path, message }))),
      fieldErrorMap,
    ])
    .optional(),
});

/** An error body from the API or from a paykit server. */
export type ApiErrorBody = z.output<typeof errorBodySchema>;
