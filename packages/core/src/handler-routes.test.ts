/**
 * The handler's answer shapes are made from `PAYMENT_FIELDS`: these are type tests, checked by `pnpm run
 * typecheck` (an `@ts-expect-error` that no longer errs, or a type that drifts from the list, fails it).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type {
  CheckoutStarted,
  OAuthCallbackAnswer,
  PAYMENT_FIELDS,
  PaymentAnswer,
  PaymentStatus,
} from './handler-routes.js';

type Field = (typeof PAYMENT_FIELDS)[number];

describe("the handler's answers", () => {
  it('are made from PAYMENT_FIELDS: its names, the first four required, the others optional', () => {
    // A platform's handler adds `merchant` (ForMerchant) to both; the elements read only PAYMENT_FIELDS.
    expectTypeOf<keyof PaymentStatus>().toEqualTypeOf<Field | 'merchant'>();
    expectTypeOf<keyof PaymentAnswer>().toEqualTypeOf<'id' | 'status' | 'amount' | 'currency'>();
    expectTypeOf<keyof CheckoutStarted>().toEqualTypeOf<keyof PaymentAnswer | 'url' | 'merchant'>();
    expectTypeOf<PaymentStatus['purpose']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<PaymentStatus['merchant']>().toEqualTypeOf<string | undefined>();
  });

  it('refuse an answer built without one of their fields, or with one of another type', () => {
    const payment = { id: 'pr_1', status: 'pending', amount: '12.50', currency: 'SGD' };
    const { currency: _currency, ...withoutCurrency } = payment;
    // @ts-expect-error -- every payment answer has a currency
    const missing: PaymentStatus = withoutCurrency;
    // @ts-expect-error -- the checkout's answer has the URL to go to
    const noUrl: CheckoutStarted = payment;
    // @ts-expect-error -- the fields the return page shows are text
    const numbered: PaymentStatus = { ...payment, reference: 42 };
    // @ts-expect-error -- a connected business has a name
    const nameless: OAuthCallbackAnswer = { business: { country: 'SG', currency: 'SGD', payments_enabled: true } };
    const started: CheckoutStarted = { ...payment, url: 'https://checkout.example/pr_1' };
    expectTypeOf(started).toExtend<PaymentStatus>();
    void [missing, noUrl, numbered, nameless];
  });
});
