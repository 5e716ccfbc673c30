/**
 * Records as the API answers with them (spec 2.7 for payment requests, the real service's OpenAPI for charges). Each
 * serializer's return type is core's response schema for it (`wire.ts`), so a field that drifts from what the
 * clients read fails to compile; `operation-answers.test.ts` parses real answers with the same schemas.
 */
import { formatMinor, minorToMajor } from '@paykit/core';
import { isoUtcMicros, isoWithOffset, isoWithoutOffset } from './clock.js';
import { PROCESSING_FEE, processingFeeParts } from './ledger.js';
import { methodLogo } from './method-icons.js';
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
    // An object, never null: the service's OpenAPI types the answer's `metadata` as an object (create's 200).
    metadata: record.extras.metadata ?? {},
  };
}

/**
 * The payments of a payment request as `GET /v1/payment-requests/{id}` lists them (`payments[]` of the service's
 * "Get Payment Request Status" in its OpenAPI; spec 2.7 leaves the other fields "not shown"): one per charge made
 * for it, oldest first, with the fields that document names and the sandbox has (amounts as two-decimal strings,
 * `fees` the processing fee of a paid one, dates without offset as the request's own).
 */
export function paymentRequestPaymentsJson(charges: readonly ChargeRecord[]): Record<string, unknown>[] {
  return charges.map((charge) => {
    const paid = charge.status !== 'pending' && charge.status !== 'failed';
    const fee = paid ? processingFeeParts(charge.amountMinor) : { fixedMinor: 0, rateMinor: 0 };
    return {
      id: charge.id,
      quantity: 1,
      status: charge.status,
      buyer_name: charge.customer?.name ?? null,
      buyer_phone: charge.customer?.phoneNumber ?? null,
      buyer_email: charge.customer?.email ?? null,
      currency: charge.currency,
      amount: formatMinor(charge.amountMinor),
      refunded_amount: formatMinor(charge.refunds.reduce((sum, refund) => sum + refund.amountMinor, 0)),
      payment_type: charge.paymentMethod,
      fees: formatMinor(fee.fixedMinor + fee.rateMinor),
      created_at: isoWithoutOffset(charge.createdAt),
      updated_at: isoWithoutOffset(charge.updatedAt),
    };
  });
}

/**
 * A charge as JSON, in the service's shape (charges OpenAPI, "Get Charge Details"; the "Event Webhooks" page's
 * `business_id`, `refunded_at`, `failed_reason`), every value read from the sandbox's own state:
 * - fees: the processing fee the ledger debits for a paid charge, as `fixed_fee` + `discount_fee` at
 *   `discount_fee_rate` percent, and `amount_without_fees` the amount less both; a charge that was never paid
 *   has no fee entry, so its fees are 0. It settles in its own currency, as the ledger credits it
 *   (`home_currency` the same, `exchange_rate` 1);
 * - refunds: the ones routes/refunds.ts recorded, their sum, the latest one's time (`refunded_at` in the refund
 *   record's format), and each as its refund record has it;
 * - `channel`: `api_store` for a payment request, `api_recurring_dashboard` for a saved card's charge, the
 *   values the service's examples show for those two (the README says why);
 * - `payment_method`'s logos are URLs of the sandbox's own icons (method-icons.ts) and its `provider_reference`
 *   is made from the charge's id, as the service's detail example carries both;
 * - nothing the sandbox does not have: no customer record (`customer_id` null), no staff (`executor`), no
 *   location, no webhook log, `admin_fee` false.
 */
export function chargeJson(record: ChargeRecord, publicUrl: string): WireOf<'charges.get'> {
  const paid = record.status !== 'pending' && record.status !== 'failed';
  const fee = paid ? processingFeeParts(record.amountMinor) : { fixedMinor: 0, rateMinor: 0 };
  const refundedMinor = record.refunds.reduce((sum, refund) => sum + refund.amountMinor, 0);
  const latestRefund = record.refunds.at(-1);
  return {
    id: record.id,
    business_id: record.businessId,
    currency: record.currency,
    home_currency: record.currency.toLowerCase(),
    exchange_rate: '1.00000',
    amount: minorToMajor(record.amountMinor),
    amount_without_fees: minorToMajor(record.amountMinor - fee.fixedMinor - fee.rateMinor),
    refunded_amount: minorToMajor(refundedMinor),
    refunded_at: latestRefund ? isoUtcMicros(latestRefund.at) : null,
    fixed_fee: minorToMajor(fee.fixedMinor),
    discount_fee: minorToMajor(fee.rateMinor),
    discount_fee_rate: PROCESSING_FEE.ratePercent,
    remark: record.remark,
    status: record.status,
    failed_reason: record.status === 'failed' ? DECLINED : null,
    payment_method: chargePaymentMethodJson(record, publicUrl),
    customer_id: null,
    customer: record.customer && {
      name: record.customer.name,
      email: record.customer.email,
      phone_number: record.customer.phoneNumber,
    },
    payment_request_id: record.paymentRequestId,
    // A saved card's charge names its record, as the service's charge detail does (`target_type`).
    ...(record.recurringBillingId === null
      ? { target_id: null, target_type: null }
      : {
          recurring_billing_id: record.recurringBillingId,
          target_id: record.recurringBillingId,
          target_type: 'business_recurring_plan',
        }),
    webhook_status: false,
    order_reference_number: record.orderReferenceNumber,
    executor: null,
    location: null,
    channel: record.recurringBillingId === null ? 'api_store' : 'api_recurring_dashboard',
    admin_fee: false,
    refunds: record.refunds.map((refund) => ({
      id: refund.id,
      amount_refunded: minorToMajor(refund.amountMinor),
      currency: record.currency,
      status: 'succeeded',
      refunded_at: isoUtcMicros(refund.at),
      created_at: isoWithoutOffset(refund.at),
    })),
    webhook_logs: [],
    terminal_id: record.terminalId,
    // Decided in the call that made it: a charge that is no longer pending closed when it was created.
    closed_at: record.status === 'pending' ? null : isoWithOffset(record.createdAt),
    created_at: isoWithOffset(record.createdAt),
    updated_at: isoWithOffset(record.updatedAt),
  };
}

/** `failed_reason` of a failed charge: the sandbox fails a payment only when told to decline it. */
const DECLINED = 'The payment was declined';

/**
 * The sandbox's test cards are taken as issued in the United States, as the service's example shows its Visa
 * ending 4242: the sandbox reads no issuer from a number.
 */
const TEST_CARD_COUNTRY = { country_code: 'US', country: 'United States of America' } as const;

/** Brand names as the service writes them (`Visa`); the sandbox keeps the code it read from the number. */
const BRAND_NAMES: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
};

/** A brand code's name; one the table does not know (`card`, an unknown prefix) capitalised. */
function brandName(code: string): string {
  const known = Object.hasOwn(BRAND_NAMES, code) ? BRAND_NAMES[code] : undefined;
  return known ?? code.charAt(0).toUpperCase() + code.slice(1);
}

/** An icon name of the service's form (`visa`, `paynow_online`) from a method or brand code. */
function iconOf(code: string): string {
  return (
    code
      .toLowerCase()
      .replace(/[^a-z0-9_]/g, '_')
      .slice(0, 64) || 'card'
  );
}

/**
 * `payment_method` of a charge: the method's code as both `code` and `name`, the card when it took one, and the
 * two logos of the service's detail example: `display_logo` the card's brand (`visa`, `Visa`) or else the
 * method, `method_logo` the method (`card`, `Cards`, the name the example gives it; another method's name is its
 * code). `provider_reference` is `ch_` and 24 characters of the charge's id, the form of the example's provider
 * charge id (`ch_3Pv6duAMHowMCIhZ2P9NCA6j`): the sandbox has no provider, and a string is what the OpenAPI types.
 */
function chargePaymentMethodJson(
  record: ChargeRecord,
  publicUrl: string,
): NonNullable<WireOf<'charges.get'>['payment_method']> {
  const { card } = record;
  const method = methodLogo(
    publicUrl,
    iconOf(record.paymentMethod),
    record.paymentMethod === 'card' ? 'Cards' : record.paymentMethod,
  );
  return {
    code: record.paymentMethod,
    name: record.paymentMethod,
    type: 'charge',
    provider_reference: `ch_${record.id.replaceAll('-', '').slice(0, 24)}`,
    display_logo: card ? methodLogo(publicUrl, iconOf(card.brand), brandName(card.brand)) : method,
    method_logo: method,
    data: card && {
      brand: brandName(card.brand),
      last4: card.last4,
      ...TEST_CARD_COUNTRY,
    },
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
 * major units (its list example carries both), `description` a string, `cycle_repeat` (a whole number) and
 * `cycle_frequency` null unless the cycle is `custom` (its create and read examples of a monthly plan), dates
 * without offset as its examples show them.
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
    // A string, as the service's OpenAPI types it in its list, create and read answers; empty when none was sent.
    description: input.description ?? '',
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
