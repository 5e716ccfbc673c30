/**
 * The merchant-view answers (core's `merchant-view-routes.ts`) made of what the API answers: a charge or an
 * uncharged payment request as a payment row, a refund, a payout or a transfer as a payout row, each amount in its currency's digits; and the opaque
 * cursors the browser sends back for the next page. Plain functions, no I/O: the route calls the API.
 */
import {
  currencyDecimals,
  formatMinor,
  PaykitError,
  type Charge,
  type MerchantMoney,
  type MerchantPaymentRow,
  type MerchantPayoutRow,
  type MerchantRefundRow,
  type PaymentRequest,
  type Payout,
  type Refund,
  type Transfer,
} from '@paykit/core';

/** Charge statuses a refund may still take money from (the sandbox's and the service's). */
const REFUNDABLE_STATUSES: ReadonlySet<string> = new Set(['succeeded', 'partially_refunded']);

/**
 * Payment-request statuses listed as rows of their own: nothing was charged. A `completed` or `failed` request has
 * its charge (the sandbox makes a failed charge for a failed payment, as the service's `charge.failed` says), which
 * the list shows instead; a status paykit does not know is left out too (it may be charged).
 */
const UNCHARGED_REQUEST_STATUSES: ReadonlySet<string> = new Set(['pending', 'expired', 'canceled']);

/** A date-time the API wrote without an offset (payment requests) as UTC; any other as it is. */
export function utcDateTime(text: string | null | undefined): string {
  if (!text) return '';
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?$/.test(text) ? `${text}Z` : text;
}

/**
 * An API amount (major units, at most two decimals: a number or its text) in hundredths. Rounded, not truncated:
 * `0.29 * 100` is `28.999…` in floating point.
 */
export function hundredths(value: number | string | null | undefined): number {
  const number = typeof value === 'string' ? Number(value) : (value ?? 0);
  return Number.isFinite(number) ? Math.round(number * 100) : 0;
}

/**
 * Hundredths as the currency writes them: `12.50` SGD, `1250` JPY (no decimals in ISO 4217), two decimals where
 * the currency is unknown to `Intl`, or when the amount has cents the currency has not (shown as the API has it).
 */
export function moneyText(minor: number, currency: string): string {
  const text = formatMinor(minor);
  const digits = currencyDecimals(currency) ?? 2;
  if (digits >= 2 || minor % 10 ** (2 - digits) !== 0) return text;
  return digits === 0 ? text.slice(0, -3) : text.slice(0, -1);
}

/** An amount and its currency in capitals. */
export function money(minor: number, currency: string): MerchantMoney {
  return { amount: moneyText(minor, currency), currency: currency.toUpperCase() };
}

/** Refunded so far and what a refund may still take, in hundredths. */
export function refundState(charge: Charge): { refundedMinor: number; refundableMinor: number } {
  const refunds = (charge.refunds ?? []) as { amount_refunded?: number | string }[];
  const refundedMinor =
    charge.refunded_amount === undefined
      ? refunds.reduce((sum, refund) => sum + hundredths(refund.amount_refunded), 0)
      : hundredths(charge.refunded_amount);
  const refundableMinor = REFUNDABLE_STATUSES.has(charge.status)
    ? Math.max(0, hundredths(charge.amount) - refundedMinor)
    : 0;
  return { refundedMinor, refundableMinor };
}

/** A charge as a row of `<paykit-merchant-payments>`. */
export function paymentRow(charge: Charge): MerchantPaymentRow {
  const { refundedMinor, refundableMinor } = refundState(charge);
  const method = charge.payment_method?.name;
  return {
    id: charge.id,
    kind: 'charge',
    ...money(hundredths(charge.amount), charge.currency),
    status: charge.status,
    ...(method ? { method } : {}),
    ...(charge.payment_request_id ? { payment_request: charge.payment_request_id } : {}),
    ...(charge.remark ? { description: charge.remark } : {}),
    created_at: charge.created_at ?? '',
    refunded: moneyText(refundedMinor, charge.currency),
    refundable: moneyText(refundableMinor, charge.currency),
  };
}

/**
 * A payment request nothing has charged (`pending`, `expired`, `canceled`) as a row: its purpose as the
 * description, nothing refunded or refundable, no method (the API names the methods offered, not one used), and
 * never its checkout `url`. Undefined for any other request: a completed or failed one is listed as its charge.
 */
export function requestRow(request: PaymentRequest): MerchantPaymentRow | undefined {
  if (!UNCHARGED_REQUEST_STATUSES.has(request.status)) return undefined;
  const zero = moneyText(0, request.currency);
  return {
    id: request.id,
    kind: 'payment_request',
    ...money(hundredths(request.amount), request.currency),
    status: request.status,
    ...(request.purpose ? { description: request.purpose } : {}),
    created_at: utcDateTime(request.created_at),
    refunded: zero,
    refundable: zero,
  };
}

/** The refunds a charge lists, oldest first, as rows; entries without an id or an amount are left out. */
export function chargeRefundRows(charge: Charge): MerchantRefundRow[] {
  const rows: MerchantRefundRow[] = [];
  for (const entry of (charge.refunds ?? []) as Record<string, unknown>[]) {
    const id = entry.id;
    const amount = entry.amount_refunded;
    if (typeof id !== 'string' || (typeof amount !== 'number' && typeof amount !== 'string')) continue;
    const at = entry.refunded_at ?? entry.created_at;
    rows.push({ id, ...money(hundredths(amount), charge.currency), created_at: typeof at === 'string' ? at : '' });
  }
  return rows.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
}

/** A refund the API made, as a row (`refunded_at` is its UTC moment; `created_at` has no offset). */
export function refundRow(refund: Refund): MerchantRefundRow {
  return {
    id: refund.id,
    ...money(hundredths(refund.amount_refunded), refund.currency),
    created_at: refund.refunded_at,
  };
}

/** A payout as a row of `<paykit-merchant-payouts>`. */
export function payoutRow(payout: Payout): MerchantPayoutRow {
  return {
    id: payout.id,
    kind: 'payout',
    ...money(hundredths(payout.amount), payout.currency),
    status: payout.status,
    created_at: payout.created_at,
    ...(payout.arrival_date ? { arrival_date: payout.arrival_date } : {}),
  };
}

/** A transfer as a row: what left the balance (its source amount), and to whom. */
export function transferRow(transfer: Transfer): MerchantPayoutRow {
  const beneficiary = transfer.beneficiary as { holder_name?: unknown; nickname?: unknown };
  const name = [beneficiary.holder_name, beneficiary.nickname].find(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  return {
    id: transfer.id,
    kind: 'transfer',
    ...money(hundredths(transfer.source_amount), transfer.source_currency),
    status: transfer.status,
    created_at: transfer.created_at ?? '',
    ...(name ? { beneficiary: name } : {}),
  };
}

/**
 * Where one API list of the payments list stands: the API cursor of its current page (absent: its first page), and
 * how many items of that page were already taken (shown, or left out: a completed request), to skip when the page
 * is read again.
 */
export interface ListPosition {
  at?: string;
  taken: number;
}

/**
 * Where the payments list goes on (version 2): the position in `GET /v1/charges` and in `GET /v1/payment-requests`;
 * a list absent has no more. Version 1 (`{ v: 1, charges }`, charges only) is read as charges only, from its cursor.
 */
export interface PaymentsCursor {
  v: 2;
  charges?: ListPosition;
  requests?: ListPosition;
}

/** Items of one API page, at most (the API's most is 100): a position's `taken` is below it. */
const PAGE_MOST = 100;

function position(value: unknown): ListPosition | undefined | false {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) return false;
  const { at, taken, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length > 0 || (at !== undefined && typeof at !== 'string')) return false;
  if (typeof taken !== 'number' || !Number.isInteger(taken) || taken < 0 || taken > PAGE_MOST) return false;
  return at === undefined ? { taken } : { at, taken };
}

/** A payments cursor of version 2, or 1 read as charges only; undefined when it is neither. */
function paymentsCursor(record: Record<string, unknown>): PaymentsCursor | undefined {
  const keys = Object.keys(record);
  if (record.v === 1 && typeof record.charges === 'string' && keys.length === 2) {
    return { v: 2, charges: { at: record.charges, taken: 0 } };
  }
  if (record.v !== 2 || keys.some((key) => !['v', 'charges', 'requests'].includes(key))) return undefined;
  const charges = position(record.charges);
  const requests = position(record.requests);
  if (charges === false || requests === false || (!charges && !requests)) return undefined;
  return { v: 2, ...(charges ? { charges } : {}), ...(requests ? { requests } : {}) };
}

/**
 * Where the payouts list goes on: the API's cursor of the balance-transactions ledger, and the transfer whose
 * entries the last page ended on (its fee entry may open the next page: not shown twice).
 */
export interface PayoutsCursor {
  v: 1;
  ledger: string;
  after?: string;
}

/** The cursor the browser gets: base64url of JSON, opaque to it, checked when it comes back. */
export function encodeCursor(cursor: PaymentsCursor | PayoutsCursor): string {
  const bytes = new TextEncoder().encode(JSON.stringify(cursor));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Reads a cursor this handler made for `list`; anything else is `validation_failed` naming `cursor`. */
export function decodeCursor(text: string, list: 'payments'): PaymentsCursor;
export function decodeCursor(text: string, list: 'payouts'): PayoutsCursor;
export function decodeCursor(text: string, list: 'payments' | 'payouts'): PaymentsCursor | PayoutsCursor {
  let value: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,2048}$/.test(text)) throw new Error('not base64url');
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    value = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))),
    );
  } catch {
    value = undefined;
  }
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const payments = list === 'payments' ? paymentsCursor(record) : undefined;
  if (payments) return payments;
  const ok =
    list === 'payouts' &&
    record.v === 1 &&
    typeof record.ledger === 'string' &&
    (record.after === undefined || typeof record.after === 'string');
  if (!ok) {
    throw new PaykitError('validation_failed', `The cursor is not one this list gave; start from its first page`, {
      errors: [{ path: 'cursor', message: 'is not a cursor of this list' }],
    });
  }
  return record as unknown as PayoutsCursor;
}
