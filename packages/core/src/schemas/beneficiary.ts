/**
 * Beneficiaries (spec 2.4, 4.3): bank accounts money is sent to. Dates carry a numeric offset.
 */
import * as z from 'zod';
import { id, offsetDateTime, recordCurrency } from './fields.js';

/** A beneficiary. */
export const beneficiarySchema = z.looseObject({
  id,
  status: z.string(),
  country: z.string().transform((code) => code.toLowerCase()),
  currency: recordCurrency,
  transfer_method: z.string().nullish(),
  transfer_type: z.string().nullish(),
  nickname: z.string().nullish(),
  remark: z.string().nullish(),
  holder_name: z.string(),
  holder_type: z.string().nullish(),
  bank_branch_code: z.string().nullish(),
  /** Not in spec 2.4: the service's transfers and beneficiaries OpenAPI give it to a Bangladeshi local account. */
  bank_routing_number: z.string().nullish(),
  account_number: z.string(),
  bank_name: z.string().nullish(),
  bank_id: z.string().nullish(),
  email: z.string().nullish(),
  is_favourite: z.boolean().optional(),
  created_by: z
    .looseObject({
      id: z.string(),
      display_name: z.string().nullish(),
      first_name: z.string().nullish(),
      last_name: z.string().nullish(),
    })
    .nullish(),
  created_at: offsetDateTime,
  updated_at: offsetDateTime,
  deleted_at: z.string().nullish(),
});

/** A beneficiary. */
export type Beneficiary = z.output<typeof beneficiarySchema>;
