/**
 * How the control API reads a body: JSON only (a test or the demo calls it, never a browser form), checked with a
 * schema into core's 422 `validation_failed`, as every `/v1` route does.
 */
import type * as z from 'zod';
import { parseBody } from '../../body.js';

/** Reads a control body as JSON and parses it with `schema`, or throws 422 naming each bad field. */
export function controlBody<S extends z.ZodType>(schema: S, request: Request): Promise<z.output<S>> {
  return parseBody(schema, request, { accept: ['json'] });
}
