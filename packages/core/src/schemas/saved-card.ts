/**
 * Saved-card (recurring) billing records (spec 2.3, 4.2) and the charge of a saved card.
 */
import * as z from 'zod';
import { amount, id, localDateTime, recordCurrency, recordMoney } from './fields.js';

/** 0/1 integers that the record uses for flags. */
const flag = z.union([z.literal(0), z.literal(1), z.boolean()]);

/** A saved-card billing record. `payment_method.card` carries the card's brand and last four digits. */
export const savedCardSchema = z.looseObject({
  id,
  business_recurring_plans_id: z.string().nullish(),
  customer_name: z.string(),
  customer_email: z.string(),
  customer_phone_number: z.string().nullish(),
  customer_phone_number_country_code: z.string().nullish(),
  name: z.string(),
  description: z.string().nullish(),
  reference: z.string().nullish(),
  cycle: z.string(),
  cycle_repeat: z.unknown().nullish(),
  cycle_frequency: z.unknown().nullish(),
  currency: recordCurrency,
  price: recordMoney,
  amount: recordMoney,
  times_to_be_charged: z.number().int().nullish(),
  times_charged: z.number().int().nullish(),
  status: z.string(),
  send_email: flag.optional(),
  save_card: flag.optional(),
  redirect_url: z.string().nullish(),
  payment_methods: z.array(z.string()).optional(),
  payment_provider_charge_method: z.string().nullish(),
  created_at: localDateTime,
  updated_at: localDateTime,
  pause_from: z.string().nullish(),
  pause_until: z.string().nullish(),
  expires_at: z.string().nullish(),
  url: z.string().nullish(),
  dbs_dda_reference: z.string().nullish(),
  total_charge: recordMoney.nullish(),
  payment_method: z
    .looseObject({ card: z.looseObject({ brand: z.string(), last4: z.string().regex(/^\d{4}$/) }) })
    .nullish(),
});

/** A saved-card billing record. */
export type SavedCard = z.output<typeof savedCardSchema>;

/**
 * The body of `POST /v1/charge/recurring-billing/{id}`. The spec does not show it; paykit sends an optional
 * `amount` (default: the record's amount), documented as its choice.
 */
export const savedCardChargeSchema = z.strictObject({ amount: amount.optional() });

/** What goes into {@link savedCardChargeSchema}. */
export type SavedCardChargeInput = z.input<typeof savedCardChargeSchema>;
