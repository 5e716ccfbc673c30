/**
 * Staff members (spec 2.5, 4.4). `invited_at` is UTC with microseconds and `Z`.
 */
import * as z from 'zod';
import { id, utcMicrosDateTime } from './fields.js';

/** A staff member. `locations` elements are not specified, so they pass through as they are. */
export const staffMemberSchema = z.looseObject({
  id,
  name: z.string(),
  role: z.looseObject({ id: z.string(), title: z.string() }),
  email: z.string(),
  invited_at: utcMicrosDateTime,
  locations: z.array(z.unknown()),
});

/** A staff member. */
export type StaffMember = z.output<typeof staffMemberSchema>;
