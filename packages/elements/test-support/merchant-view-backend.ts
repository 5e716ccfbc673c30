/**
 * The merchant-view routes of the element tests' backend (backend.ts mounts them): a small HTTP backend of the tests'
 * own that answers exactly the shapes of `@paykit/core`'s merchant-view contract (merchant-view-routes.ts), under
 * the prefix `/mv`, so that `<paykit-connection>`, `<paykit-merchant-payments>` and `<paykit-merchant-payouts>` are
 * tested against real HTTP answers while `@paykit/server`'s own routes are being built (issue 38 item 2). Typed with
 * the contract's types: an answer that drifts from the contract fails the typecheck.
 *
 * Merchants, by business id:
 * - `biz_cafe`: connected ("Harbour Cafe", SGD), 250 payments (100 a page), refundable by this caller, 3 payouts and
 *   2 transfers (a page of 3, then 2);
 * - `biz_yen`: connected ("Tokyo Tea", JPY), 2 payments, not refundable by this caller (`can_refund: false`; a refund
 *   is 403 `refund_refused`);
 * - `biz_shop`: connected ("Lantern Books", SGD), 2 payments and 3 payment requests nothing charged (pending, expired,
 *   canceled: `kind: 'payment_request'`, nothing refundable) among them, newest first, refundable by this caller;
 * - `biz_empty`: connected, nothing paid or paid out;
 * - `biz_expired`: `connect_again` (reads are 409 `merchant_connection_ended`); `biz_new`: `not_connected` (409
 *   `merchant_not_connected`);
 * - `biz_refused`: every route 403 `view_refused` (the platform's hook refuses the caller);
 * - `biz_down`: every route 502 `api_unreachable`; any other: 404 `not_found`.
 *
 * The codes are those of `@paykit/server`'s routes (81a07c6). Refunds (`POST /mv/merchants/{m}/refunds`) take 150 ms, are bounded by what is left to refund (422
 * `validation_failed`, a field error on `amount`), and answer a repeated `Idempotency-Key` with its first answer.
 * `GET /__test/merchant-view` reports `{ posts, keys }` (every refund POST and its key, in order);
 * `POST /__test/merchant-view/reset` forgets the refunds.
 */
import type {
  MerchantConnectionAnswer,
  MerchantPaymentDetail,
  MerchantPaymentRow,
  MerchantPaymentsAnswer,
  MerchantPayoutRow,
  MerchantPayoutsAnswer,
  MerchantRefundAnswer,
  MerchantRefundRow,
} from '@paykit/core';
import type { IncomingMessage, ServerResponse } from 'node:http';

interface KoaContext {
  path: string;
  method: string;
  querystring: string;
  req: IncomingMessage;
  res: ServerResponse;
  status: number;
  body: unknown;
  set(name: string, value: string): void;
}

interface Merchant {
  name: string;
  currency: string;
  digits: number;
  payments: { id: string; minor: number; created_at: string; method?: string; description?: string }[];
  /** Payment requests nothing charged, as the server's rows; merged with the payments by `created_at`. */
  requests?: MerchantPaymentRow[];
  payouts: MerchantPayoutRow[];
  canRefund: boolean;
}

const PAGE = 100;
const PAYOUT_PAGE = 3;

const day = (n: number) => new Date(Date.UTC(2026, 10, 28, 12) - n * 3_600_000).toISOString();

const MERCHANTS: Record<string, Merchant> = {
  biz_cafe: {
    name: 'Harbour Cafe',
    currency: 'SGD',
    digits: 2,
    canRefund: true,
    payments: Array.from({ length: 250 }, (_, i) => ({
      id: `ch_${String(i + 1).padStart(4, '0')}`,
      // 30.00, 12.50, 7.05, ... (minor units)
      minor: [3000, 1250, 705, 99_999][i % 4]!,
      created_at: day(i),
      method: i % 3 === 0 ? 'paynow_online' : 'card',
      ...(i % 2 === 0 ? { description: `Order ${1000 + i}` } : {}),
    })),
    payouts: [
      {
        id: 'po_3',
        kind: 'payout',
        status: 'scheduled',
        amount: '420.00',
        currency: 'SGD',
        created_at: day(1),
        arrival_date: '2026-12-01',
      },
      {
        id: 'tr_2',
        kind: 'transfer',
        status: 'paid',
        amount: '35.00',
        currency: 'SGD',
        created_at: day(20),
        beneficiary: 'Kopi Supplies',
      },
      {
        id: 'po_2',
        kind: 'payout',
        status: 'paid',
        amount: '1310.45',
        currency: 'SGD',
        created_at: day(48),
        arrival_date: '2026-11-27',
      },
      {
        id: 'tr_1',
        kind: 'transfer',
        status: 'failed',
        amount: '12.00',
        currency: 'SGD',
        created_at: day(70),
        beneficiary: 'Mei Tan',
      },
      {
        id: 'po_1',
        kind: 'payout',
        status: 'paid',
        amount: '980.10',
        currency: 'SGD',
        created_at: day(96),
        arrival_date: '2026-11-25',
      },
    ],
  },
  biz_yen: {
    name: 'Tokyo Tea',
    currency: 'JPY',
    digits: 0,
    canRefund: false,
    payments: [
      { id: 'ch_y2', minor: 1250, created_at: day(2), method: 'card' },
      { id: 'ch_y1', minor: 98_000, created_at: day(5), method: 'card', description: 'Tea set' },
    ],
    payouts: [],
  },
  biz_shop: {
    name: 'Lantern Books',
    currency: 'SGD',
    digits: 2,
    canRefund: true,
    payments: [
      { id: 'ch_s2', minor: 4200, created_at: day(3), method: 'card', description: 'Atlas' },
      { id: 'ch_s1', minor: 1500, created_at: day(9), method: 'paynow_online' },
    ],
    requests: (
      [
        ['pr_s3', 'pending', 1, 'Poetry set'],
        ['pr_s2', 'expired', 5, undefined],
        ['pr_s1', 'canceled', 12, 'Maps'],
      ] as const
    ).map(([id, status, hours, description]) => ({
      id,
      kind: 'payment_request' as const,
      amount: '25.00',
      currency: 'SGD',
      status,
      ...(description ? { description } : {}),
      created_at: day(hours),
      refunded: '0.00',
      refundable: '0.00',
    })),
    payouts: [],
  },
  biz_empty: { name: 'Quiet Books', currency: 'SGD', digits: 2, canRefund: true, payments: [], payouts: [] },
};

/** Refunds made, by charge id. */
let refunds = new Map<string, MerchantRefundRow[]>();
/** Answers by Idempotency-Key. */
let answered = new Map<string, { status: number; body: string }>();
let posts = 0;
let keys: string[] = [];
let refundCount = 0;

const decimal = (minor: number, digits: number) =>
  digits === 0
    ? String(minor)
    : `${Math.floor(minor / 10 ** digits)}.${String(minor % 10 ** digits).padStart(digits, '0')}`;

function minorOf(amount: string, digits: number): number | undefined {
  const match = new RegExp(`^(\\d{1,9})(?:\\.(\\d{1,${digits}}))?$`).exec(amount);
  if (!match || (digits === 0 && amount.includes('.'))) return undefined;
  return Number(match[1]) * 10 ** digits + Number((match[2] ?? '').padEnd(digits, '0') || 0);
}

function paymentRow(merchant: Merchant, payment: Merchant['payments'][number]): MerchantPaymentRow {
  const made = refunds.get(payment.id) ?? [];
  const refunded = made.reduce((sum, refund) => sum + minorOf(refund.amount, merchant.digits)!, 0);
  return {
    id: payment.id,
    kind: 'charge',
    amount: decimal(payment.minor, merchant.digits),
    currency: merchant.currency,
    status: refunded === 0 ? 'succeeded' : refunded === payment.minor ? 'refunded' : 'partially_refunded',
    ...(payment.method ? { method: payment.method } : {}),
    ...(payment.description ? { description: payment.description } : {}),
    created_at: payment.created_at,
    refunded: decimal(refunded, merchant.digits),
    refundable: decimal(payment.minor - refunded, merchant.digits),
  };
}

function detail(merchant: Merchant, payment: Merchant['payments'][number]): MerchantPaymentDetail {
  return { ...paymentRow(merchant, payment), refunds: refunds.get(payment.id) ?? [], can_refund: merchant.canRefund };
}

function send(ctx: KoaContext, status: number, body: unknown): void {
  ctx.status = status;
  ctx.set('content-type', 'application/json');
  ctx.body = JSON.stringify(body);
}

const refusal = (message: string, code: string) => ({ message, code });

function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
    req.on('error', reject);
  });
}

/** Answers a merchant-view route or a control route of these tests; false when `ctx` is neither. */
export async function merchantViewRoutes(ctx: KoaContext): Promise<boolean> {
  if (ctx.path === '/__test/merchant-view') {
    send(ctx, 200, { posts, keys, refunds: refundCount });
    return true;
  }
  if (ctx.path === '/__test/merchant-view/reset' && ctx.method === 'POST') {
    refunds = new Map();
    answered = new Map();
    posts = refundCount = 0;
    keys = [];
    send(ctx, 200, {});
    return true;
  }
  const route = /^\/mv\/merchants\/([^/]+)\/(connection|payments|refunds|payouts)(?:\/([^/]+))?$/.exec(ctx.path);
  if (!route) return false;
  const [, id = '', view, charge] = route;
  const merchantId = decodeURIComponent(id);
  const cursor = new URLSearchParams(ctx.querystring).get('cursor');
  if (merchantId === 'biz_refused')
    return (send(ctx, 403, refusal('This account may not see this merchant', 'view_refused')), true);
  if (merchantId === 'biz_down')
    return (send(ctx, 502, refusal('The Payments API could not be reached.', 'api_unreachable')), true);
  if (view === 'connection') {
    const merchant = MERCHANTS[merchantId];
    const answer: MerchantConnectionAnswer | undefined = merchant
      ? {
          merchant: merchantId,
          state: 'connected',
          business: {
            id: merchantId,
            name: merchant.name,
            country: 'SG',
            currency: merchant.currency,
            payments_enabled: true,
          },
          connected_at: '2026-03-14T09:30:00.000Z',
        }
      : merchantId === 'biz_expired'
        ? { merchant: merchantId, state: 'connect_again', connected_at: '2026-01-02T08:00:00.000Z' }
        : merchantId === 'biz_new'
          ? { merchant: merchantId, state: 'not_connected' }
          : undefined;
    return (send(ctx, answer ? 200 : 404, answer ?? refusal('No such merchant.', 'not_found')), true);
  }
  if (merchantId === 'biz_expired' || merchantId === 'biz_new')
    return (
      send(
        ctx,
        409,
        refusal(
          'The connection to this merchant ended',
          merchantId === 'biz_new' ? 'merchant_not_connected' : 'merchant_connection_ended',
        ),
      ),
      true
    );
  const merchant = MERCHANTS[merchantId];
  if (!merchant) return (send(ctx, 404, refusal('No such merchant.', 'not_found')), true);
  const from = cursor ? Number(cursor.slice(1)) : 0;
  if (view === 'payouts' && ctx.method === 'GET') {
    const next = from + PAYOUT_PAGE < merchant.payouts.length ? `o${from + PAYOUT_PAGE}` : undefined;
    const answer: MerchantPayoutsAnswer = {
      items: merchant.payouts.slice(from, from + PAYOUT_PAGE),
      ...(next ? { next } : {}),
    };
    return (send(ctx, 200, answer), true);
  }
  if (view === 'payments' && ctx.method === 'GET' && charge) {
    const payment = merchant.payments.find((one) => one.id === decodeURIComponent(charge));
    return (
      send(ctx, payment ? 200 : 404, payment ? detail(merchant, payment) : refusal('No such payment.', 'not_found')),
      true
    );
  }
  if (view === 'payments' && ctx.method === 'GET') {
    const rows = [...merchant.payments.map((payment) => paymentRow(merchant, payment)), ...(merchant.requests ?? [])];
    rows.sort((a, b) => (a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : 0));
    const next = from + PAGE < rows.length ? `p${from + PAGE}` : undefined;
    const answer: MerchantPaymentsAnswer = {
      items: rows.slice(from, from + PAGE),
      can_refund: merchant.canRefund,
      ...(next ? { next } : {}),
    };
    return (send(ctx, 200, answer), true);
  }
  if (view === 'refunds' && ctx.method === 'POST') {
    posts += 1;
    const key = String(ctx.req.headers['idempotency-key'] ?? '');
    keys.push(key);
    const input = JSON.parse(await readText(ctx.req)) as { charge?: string; amount?: string };
    await new Promise((resolve) => setTimeout(resolve, 150));
    const first = answered.get(key);
    if (first) {
      ctx.status = first.status;
      ctx.set('content-type', 'application/json');
      ctx.body = first.body;
      return true;
    }
    const [status, body] = refund(merchant, input);
    if (key) answered.set(key, { status, body: JSON.stringify(body) });
    return (send(ctx, status, body), true);
  }
  return (send(ctx, 405, refusal('Not this method.', 'method_not_allowed')), true);
}

function refund(merchant: Merchant, input: { charge?: string; amount?: string }): [number, unknown] {
  if (!merchant.canRefund) return [403, refusal('This account may not refund for this merchant', 'refund_refused')];
  const payment = merchant.payments.find((one) => one.id === input.charge);
  if (!payment) return [404, refusal('No such payment.', 'not_found')];
  const row = paymentRow(merchant, payment);
  const minor = minorOf(String(input.amount ?? ''), merchant.digits);
  const left = minorOf(row.refundable, merchant.digits)!;
  const fieldError = (message: string) => [
    422,
    { message: 'The refund was refused.', code: 'validation_failed', errors: [{ path: 'amount', message }] },
  ];
  if (minor === undefined || minor === 0)
    return fieldError(`Write an amount above zero, with at most ${merchant.digits} decimals.`) as [number, unknown];
  if (minor > left)
    return fieldError(`At most ${row.refundable} ${merchant.currency} is left to refund.`) as [number, unknown];
  refundCount += 1;
  const made: MerchantRefundRow = {
    id: `re_${refundCount}`,
    amount: decimal(minor, merchant.digits),
    currency: merchant.currency,
    created_at: new Date().toISOString(),
  };
  refunds.set(payment.id, [...(refunds.get(payment.id) ?? []), made]);
  const answer: MerchantRefundAnswer = { refund: made, payment: detail(merchant, payment) };
  return [201, answer];
}
