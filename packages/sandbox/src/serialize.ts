/**
 * Records as the API answers with them (spec 2.7 for payment requests; charges are paykit's shape). Each
 * serializer's return type is core's response schema for it (`wire.ts`), so a field that drifts from what the
 * clients read fails to compile; `operation-answers.test.ts` parses real answers with the same schemas.
 */
import { formatMinor, minorToMajor } from '@paykit/core';
import { isoWithOffset, isoWithoutOffset } from './clock.js';
import { processingFeeParts } from './ledger.js';
import type { NewResource } from './resources.js';
import type { ChargeRecord, PaymentRequestRecord } from './state.js';
import type { WireOf } from './wire.js';

/**
 * A payment request as JSON: `amount` a two-decimal string, dates without offset, `url` to the checkout page,
 * and the real service's documented fields (`extras`).
 */
export function paymentRequestJson(record: PaymentRequestRecord, publicUrl: string): WireOf<'paymentRequests.get'> {
  return {
    id: record.id,
    amount: formatMinor(record.amountMinor),
    currency: record.currency,
    email: record.email,
    purpose: record.purpose,
    redirect_url: record.redirectUrl,
    payment_methods: record.paymentMethods,
    status: record.status,
    url: `${publicUrl}/checkout/${record.id}`,
    allow_repeated_payments: record.allowRepeatedPayments,
    ...(record.platformCommissionMinor === null
      ? {}
      : { platform_commission_amount: minorToMajor(record.platformCommissionMinor) }),
    ...(record.wifiTerminalId === null ? {} : { wifi_terminal_id: record.wifiTerminalId }),
    created_at: isoWithoutOffset(record.createdAt),
    updated_at: isoWithoutOffset(record.updatedAt),
    ...record.extras,
  };
}

/**
 * A charge as JSON, with the fee and currency fields the service's charges carry: `home_currency` and
 * `exchange_rate` (the sandbox settles a charge in its own currency, as its ledger credits it, so the rate is
 * 1), and the processing fee the ledger debits as `fixed_fee` + `discount_fee` at `discount_fee_rate` percent.
 */
export function chargeJson(record: ChargeRecord): WireOf<'charges.get'> {
  const fee = processingFeeParts(record.amountMinor);
  return {
    id: record.id,
    payment_request_id: record.paymentRequestId,
    business_id: record.businessId,
    amount: minorToMajor(record.amountMinor),
    currency: record.currency,
    home_currency: record.currency.toLowerCase(),
    exchange_rate: '1.00000',
    fixed_fee: minorToMajor(fee.fixedMinor),
    discount_fee: minorToMajor(fee.rateMinor),
    discount_fee_rate: fee.ratePercent,
    status: record.status,
    payment_method: record.paymentMethod,
    // A saved card's charge names its record, as the service's charge detail does (`target_type`).
    ...(record.recurringBillingId === null
      ? {}
      : {
          recurring_billing_id: record.recurringBillingId,
          target_id: record.recurringBillingId,
          target_type: 'business_recurring_plan',
        }),
    created_at: isoWithoutOffset(record.createdAt),
  };
}

/**
 * A product in the service's shape (its products OpenAPI): price three ways (`price` in major units,
 * `price_display` as 'SGD 15.00', `price_stored` in minor units), the publishing state, and empty variations
 * and images (the sandbox takes neither). The currency is lower-case as spec 2 has records carry it, where the
 * service's example shows 'SGD'; `product_url` is null because the sandbox has no shop pages.
 */
export function productJson(input: {
  businessId: string;
  name: string;
  description: string | null;
  headline: string | null;
  currency: string;
  priceMinor: number;
  categoryIds: readonly string[];
  isManageable: boolean;
  isPinned: boolean;
  published: boolean;
  productWeight: number | null;
  deliveryMethodRequired: boolean;
  at: Date;
}): NewResource<'products'> {
  const at = isoWithOffset(input.at);
  return {
    business_id: input.businessId,
    category_id: [...input.categoryIds],
    name: input.name,
    headline: input.headline,
    description: input.description,
    currency: input.currency.toLowerCase(),
    price: minorToMajor(input.priceMinor),
    price_display: `${input.currency.toUpperCase()} ${formatMinor(input.priceMinor)}`,
    price_stored: input.priceMinor,
    tax_id: null,
    is_manageable: input.isManageable ? 1 : 0,
    is_pinned: input.isPinned,
    status: input.published ? 'published' : 'draft',
    product_weight: input.productWeight,
    delivery_method_required: input.deliveryMethodRequired,
    has_variations: false,
    is_shopify: false,
    product_url: null,
    variations_count: 0,
    variations: [],
    variation_key_1: null,
    variation_key_2: null,
    variation_key_3: null,
    images: [],
    is_published: input.published,
    created_at: at,
    updated_at: at,
    starts_at: null,
    ends_at: null,
  };
}

/**
 * A subscription plan in the service's shape (its subscription-plan OpenAPI): `amount` and `price` both in
 * major units (its list example carries both), `cycle_repeat`/`cycle_frequency` null unless the cycle is
 * `custom`, dates without offset as its examples show them.
 */
export function subscriptionPlanJson(input: {
  name: string;
  description: string | null;
  cycle: string;
  cycleRepeat: number | null;
  cycleFrequency: string | null;
  currency: string;
  amountMinor: number;
  reference: string | null;
  createdAt: Date;
  updatedAt: Date;
}): NewResource<'subscription_plans'> {
  return {
    name: input.name,
    description: input.description,
    cycle: input.cycle,
    cycle_repeat: input.cycleRepeat,
    cycle_frequency: input.cycleFrequency,
    currency: input.currency.toLowerCase(),
    price: minorToMajor(input.amountMinor),
    amount: minorToMajor(input.amountMinor),
    reference: input.reference,
    created_at: isoWithoutOffset(input.createdAt),
    updated_at: isoWithoutOffset(input.updatedAt),
  };
}
