/**
 * Records as the API answers with them (spec 2.7 for payment requests; charges are paykit's shape).
 */
import { formatMinor, minorToMajor } from '@paykit/core';
import { isoWithoutOffset } from './clock.js';
import type { ChargeRecord, PaymentRequestRecord } from './state.js';

/** A payment request as JSON: `amount` a two-decimal string, dates without offset, `url` to the checkout page. */
export function paymentRequestJson(record: PaymentRequestRecord, publicUrl: string) {
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
  };
}

/** A charge as JSON. */
export function chargeJson(record: ChargeRecord) {
  return {
    id: record.id,
    payment_request_id: record.paymentRequestId,
    business_id: record.businessId,
    amount: minorToMajor(record.amountMinor),
    currency: record.currency,
    status: record.status,
    payment_method: record.paymentMethod,
    created_at: isoWithoutOffset(record.createdAt),
  };
}
