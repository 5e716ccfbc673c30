/**
 * Customers (scope `customer:*`). The spec names the family only; this shape is paykit's.
 */
import * as z from 'zod';
import { email, id } from './fields.js';

/** The body of `POST /v1/customers`. */
export const customerCreateSchema = z.looseObject({
  name: z.string().min(1, 'must not be empty').max(255),
  email,
  phone: z
    .string()
    .regex(/^\+?[0-9 -]{6,20}$/, 'must be a phone number')
    .optional(),
});

/** What goes into {@link customerCreateSchema}. */
export type CustomerCreateInput = z.input<typeof customerCreateSchema>;

/** A customer. */
export const customerSchema = z.looseObject({
  id,
  name: z.string(),
  email: z.string(),
  phone: z.string().nullish(),
  created_at: z.string().optional(),
});

/** A customer. */
export type Customer = z.output<typeof customerSchema>;
