/**
 * Error bodies. The API's are `{ message }` (spec 7.1); paykit's add a stable `code` and field `errors`.
 */
import * as z from 'zod';

/** An error body from the API or from a paykit server, parsed leniently. */
export const errorBodySchema = z.looseObject({
  message: z.string(),
  code: z.string().optional(),
  errors: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
});

/** An error body from the API or from a paykit server. */
export type ApiErrorBody = z.output<typeof errorBodySchema>;
