/**
 * How a charge record is made from what the sandbox holds: a payment request paid on the checkout (or a card
 * reader, or the control API), or a saved card charged through the API. Everything a charge says about its
 * payer, its card and its reference is read here, once, from the request or the recurring billing record; the data
 * file's reader uses the same functions for a file written before charges kept these fields ({@link completeCharge}).
 */
import { majorToMinor } from '@paykit/core';
import { newId } from './ids.js';
import type { RecurringBillingJson } from './recurring-billing.js';
import type { TestCard } from './test-cards.js';
import type { ChargeCustomer, ChargeRecord, PaymentRequestRecord, SandboxState } from './state.js';

/**
 * The card a shopper pays with on the sandbox's checkout, which asks for no card details: the Visa ending 4242
 * (the card the service's charge examples show, and the one a paid request with `save_card` saves).
 */
const CHECKOUT_TEST_CARD: Readonly<TestCard> = Object.freeze({ brand: 'visa', last4: '4242' });

/** The methods that take a card: the checkout's card and a card tapped on a sandbox card reader. */
const CARD_METHODS: ReadonlySet<string> = new Set(['card', 'wifi_card_reader']);

/** What a charge tells of where it came from, beyond amount and status. */
export type ChargeDetails = Pick<ChargeRecord, 'card' | 'customer' | 'orderReferenceNumber' | 'remark' | 'terminalId'>;

/** A request's payer, reference and description, and the card or terminal when `method` takes a card. */
export function paymentRequestChargeDetails(request: PaymentRequestRecord, method: string): ChargeDetails {
  const takesCard = CARD_METHODS.has(method);
  return {
    card: takesCard ? { ...CHECKOUT_TEST_CARD } : null,
    customer: customerOf(request.extras.name, request.email, request.extras.phone),
    orderReferenceNumber: request.extras.reference_number,
    remark: request.purpose,
    terminalId: method === 'wifi_card_reader' ? request.wifiTerminalId : null,
  };
}

/** A recurring billing record's customer, name and card (null when no card is saved yet). */
export function recurringBillingChargeDetails(record: RecurringBillingJson): ChargeDetails {
  const saved = record.payment_method?.card;
  return {
    card: saved ? { brand: saved.brand, last4: saved.last4 } : null,
    customer: customerOf(record.customer_name, record.customer_email, record.customer_phone_number ?? null),
    orderReferenceNumber: null,
    remark: record.name === '' ? null : record.name,
    terminalId: null,
  };
}

/** A new, pending charge of `request` paid with `method`, made at `at`. */
export function paymentRequestCharge(request: PaymentRequestRecord, method: string, at: Date): ChargeRecord {
  return {
    id: newId(),
    businessId: request.businessId,
    paymentRequestId: request.id,
    recurringBillingId: null,
    amountMinor: request.amountMinor,
    currency: request.currency,
    status: 'pending',
    paymentMethod: method,
    ...paymentRequestChargeDetails(request, method),
    refunds: [],
    platformBusinessId: request.platformBusinessId,
    createdAt: at,
    updatedAt: at,
  };
}

/** A new, pending charge of the card saved on `record`, made at `at`. */
export function recurringBillingCharge(
  record: RecurringBillingJson,
  businessId: string,
  charge: { amountMinor: number; currency: string },
  at: Date,
): ChargeRecord {
  return {
    id: newId(),
    businessId,
    // A saved-card charge belongs to no payment request: it carries the record it charged instead.
    paymentRequestId: null,
    recurringBillingId: record.id,
    amountMinor: charge.amountMinor,
    currency: charge.currency,
    status: 'pending',
    paymentMethod: 'card',
    ...recurringBillingChargeDetails(record),
    refunds: [],
    platformBusinessId: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** The payer, when anything names them; empty text is nothing. */
function customerOf(name: string | null, email: string | null, phone: string | null): ChargeCustomer | null {
  const customer = { name: name || null, email: email || null, phoneNumber: phone || null };
  return customer.name === null && customer.email === null && customer.phoneNumber === null ? null : customer;
}

/** The charge fields a data file written before charges took the service's shape lacks. */
type AddedToCharges = 'card' | 'customer' | 'orderReferenceNumber' | 'remark' | 'terminalId' | 'refunds' | 'updatedAt';

/** A charge as a data file holds it: a newer file has every field, an older one lacks {@link AddedToCharges}. */
export type StoredCharge = Omit<ChargeRecord, AddedToCharges> & Partial<Pick<ChargeRecord, AddedToCharges>>;

/**
 * A charge with every field. One from a data file written before charges took the service's shape gets what it
 * lacks from the rest of the same file, read as a new charge reads it: the payment request it paid or the saved
 * card it charged (nothing, when the file no longer holds it), and the refund records naming it. `state` must
 * already hold the file's payment requests and resources.
 */
export function completeCharge(
  stored: StoredCharge,
  state: Pick<SandboxState, 'paymentRequests' | 'resources'>,
): ChargeRecord {
  const request = stored.paymentRequestId === null ? undefined : state.paymentRequests.get(stored.paymentRequestId);
  const billing =
    stored.recurringBillingId === null
      ? undefined
      : state.resources.get('recurring_billing', stored.recurringBillingId, stored.businessId);
  const details: ChargeDetails = request
    ? paymentRequestChargeDetails(request, stored.paymentMethod)
    : billing
      ? recurringBillingChargeDetails(billing)
      : { card: null, customer: null, orderReferenceNumber: null, remark: null, terminalId: null };
  const refunds =
    stored.refunds ??
    state.resources
      .list('refunds', stored.businessId)
      .filter((refund) => refund.payment_id === stored.id)
      .map((refund) => ({
        id: refund.id,
        amountMinor: majorToMinor(refund.amount_refunded, { field: 'amount_refunded' }),
        at: new Date(refund.refunded_at),
      }));
  // null is a value a newer file kept ("no card"); only a missing field is read again.
  const kept = <T>(value: T | undefined, read: T): T => (value === undefined ? read : value);
  return {
    ...stored,
    card: kept(stored.card, details.card),
    customer: kept(stored.customer, details.customer),
    orderReferenceNumber: kept(stored.orderReferenceNumber, details.orderReferenceNumber),
    remark: kept(stored.remark, details.remark),
    terminalId: kept(stored.terminalId, details.terminalId),
    refunds,
    updatedAt: stored.updatedAt ?? refunds.at(-1)?.at ?? stored.createdAt,
  };
}
