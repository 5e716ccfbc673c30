/**
 * What a pay button sends to the merchant's backend: what the shopper chose and saw, never the price to
 * charge. The backend's hook decides the authoritative amount; a shown `amount` or `currency` that differs
 * from it is refused (`amount_mismatch`) so a shopper never pays a price they were not shown.
 */
import * as z from 'zod';
import { paymentMethod } from './payment-request.js';

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);

/** The body of `POST {prefix}/payment-requests` from `<paykit-pay-button>`: strict and bounded. */
export const shopperChoiceSchema = z.strictObject({
  /** The price the shopper was shown, as text (`"12.50"`). A claim to check, never the price charged. */
  amount: text(32).optional(),
  /** The currency the shopper was shown. */
  currency: text(8).optional(),
  purpose: text(255).optional(),
  email: text(254).optional(),
  payment_methods: z.array(paymentMethod).max(20, 'must name at most 20 methods').optional(),
  /** On a platform's page: the business id of the merchant being paid. The platform checks it is connected. */
  merchant: text(255).optional(),
  /** The merchant's own identifier of what is being bought (a SKU, a cart id). */
  reference: text(200).optional(),
  /** Anything else the merchant's page sends along: at most 20 short scalar values. */
  metadata: z
    .record(
      z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, 'keys must be short identifiers'),
      z.union([text(500), z.number(), z.boolean()]),
    )
    .refine((value) => Object.keys(value).length <= 20, 'must have at most 20 keys')
    .optional(),
});

/** What the shopper chose. */
export type ShopperChoice = z.output<typeof shopperChoiceSchema>;
