/**
 * The merchant-view routes of a platform (core's `merchant-view-routes.ts`): what `<paykit-connection>`,
 * `<paykit-merchant-payments>` and `<paykit-merchant-payouts>` read of one connected merchant, with that merchant's
 * own credentials (`platform.merchant`: its refresh and single-flight rules), and its refunds. Every route asks
 * the platform's `merchantView` hook first: `view: false` is 403 `view_refused` before anything else happens (no
 * store read, no API call); `refund: false` makes the refund route 403 `refund_refused` and `can_refund` false.
 *
 * | route | reads |
 * |---|---|
 * | `GET {prefix}/merchants/{merchant}/connection` | the store, then `GET /v1/info` when connected |
 * | `GET …/payments[?cursor=]` | `GET /v1/charges` (25 a page) and `GET /v1/payment-requests` (100 a page; only `pending`, `expired`, `canceled` kept: a completed or failed request is its charge), merged newest first (`created_at`, then id) into 25 rows; the cursor (base64url JSON `{ v: 2, charges?, requests? }`) holds, for each list with more, its API page's cursor (`at`) and the items of that page already taken (`taken`), read again and skipped; at most 6 API pages an answer; a `v: 1` cursor (charges only) goes on with charges only |
 * | `GET …/payments/{charge}` | `GET /v1/charges/{id}` |
 * | `POST …/refunds` | `GET /v1/charges/{id}`, `POST /v1/refunds`, `GET /v1/charges/{id}` again |
 * | `GET …/payouts[?cursor=]` | the balance-transactions ledger (`GET /v1/balances/processor/transactions`), and each payout (`GET /v1/payouts/{id}`) and transfer (`GET /v1/transfers/{id}`) its entries name |
 */
import {
  isPaykitError,
  MERCHANT_VIEW_PATHS,
  PaykitError,
  parseAmount,
  type Charge,
  type MerchantConnectionAnswer,
  type MerchantPaymentDetail,
  type MerchantPaymentRow,
  type MerchantPaymentsAnswer,
  type MerchantPayoutRow,
  type MerchantPayoutsAnswer,
  type MerchantRefundAnswer,
} from '@paykit/core';
import type { MerchantApi } from '../../api/merchant-api.js';
import { operationMethods } from '../../client/operation-methods.js';
import type { Platform } from '../../platform/platform.js';
import { connectedBusinessAnswer } from '../answers.js';
import { asUpstreamFailure } from '../error-response.js';
import type { Answer, Exchange } from '../exchange.js';
import { hookContext, json, readJsonObject, type BodyLimits } from '../http.js';
import { DEFAULT_IDEMPOTENCY_POLICY, defaultIdempotencyScope, runIdempotently } from '../idempotency.js';
import type { IdempotencyStore } from '../idempotency-store.js';
import type { Logger } from '../logger.js';
import {
  chargeRefundRows,
  decodeCursor,
  encodeCursor,
  moneyText,
  paymentRow,
  payoutRow,
  refundRow,
  refundState,
  requestRow,
  transferRow,
  type ListPosition,
  type PaymentsCursor,
} from '../merchant-view-answers.js';
import type { MerchantViewAccess, PaykitHandlerOptions } from '../options.js';

/** Rows of the payments list per answer. */
const PAYMENTS_PER_PAGE = 25;
/** Charges asked of the API per page (its own default is 25). */
const CHARGES_PER_PAGE = 25;
/** Payment requests asked per page (the API's most): most are completed or failed, listed as their charges. */
const REQUESTS_PER_PAGE = 100;
/** API pages (of either list) one answer of the payments list reads at most. */
const PAYMENT_LIST_READS = 6;
/** Ledger entries asked per API page (the ledger's most, spec 4.6). */
const LEDGER_PER_PAGE = 100;
/** An answer of the payouts list stops reading the ledger once it has this many rows... */
const PAYOUT_ROWS = 20;
/** ...or after this many ledger pages, rows or not (a ledger of charges only must not be read whole at once). */
const LEDGER_PAGES = 5;
/** Payouts and transfers read at once. */
const READS_AT_ONCE = 8;
/** The ledger's fixed path segment (spec 4.6): the typed client's default, and the sandbox's. */
const LEDGER_SEGMENT = 'processor';
/** A merchant's or a charge's id in a path: one segment, never `.`, `..` or a slash. */
const SEGMENT_ID = /^[A-Za-z0-9_-][A-Za-z0-9._~-]{0,254}$/;

/** What the routes need of the handler. */
export interface MerchantViewDeps {
  platform: Platform;
  hook: NonNullable<PaykitHandlerOptions['merchantView']>;
  options: PaykitHandlerOptions;
  limits: BodyLimits;
  idempotency: IdempotencyStore;
  logger: Logger;
}

/**
 * The routes under `{prefix}/merchants/`: `rest` is the path after it. `guardPost` is the handler's same-site
 * check, run on the refund route before the hook.
 */
export function merchantViewRoute(deps: MerchantViewDeps) {
  const { platform } = deps;
  return async (exchange: Exchange, rest: string, guardPost: () => void): Promise<Answer> => {
    const [merchantSegment, view, charge, ...extra] = rest.split('/');
    const known =
      extra.length === 0 &&
      ((charge === undefined && Object.values(MERCHANT_VIEW_PATHS).includes(`/${view}` as never)) ||
        (charge !== undefined && charge !== '' && `/${view}` === MERCHANT_VIEW_PATHS.payments));
    if (!known || !merchantSegment) throw new PaykitError('not_found', 'There is no such paykit route');
    const refunding = `/${view}` === MERCHANT_VIEW_PATHS.refunds;
    allow(exchange, refunding ? 'POST' : 'GET');
    if (refunding) guardPost();
    const merchant = segmentId(merchantSegment, 'merchant');
    const access = await accessOf(deps.hook, merchant, exchange);
    if (!access.view) throw new PaykitError('view_refused', 'This account may not see this merchant');
    switch (`/${view}`) {
      case MERCHANT_VIEW_PATHS.connection:
        return json(await connection(platform, merchant));
      case MERCHANT_VIEW_PATHS.payments:
        return charge === undefined
          ? json(await payments(await connectedApi(platform, merchant), exchange, access))
          : json(await paymentDetail(await connectedApi(platform, merchant), segmentId(charge, 'charge'), access));
      case MERCHANT_VIEW_PATHS.refunds:
        if (!access.refund) throw new PaykitError('refund_refused', 'This account may not refund for this merchant');
        return json(await refund(deps, merchant, exchange, access), 201);
      default:
        return json(await payouts(await connectedApi(platform, merchant), exchange));
    }
  };
}

function allow(exchange: Exchange, method: 'GET' | 'POST'): void {
  if (exchange.method !== method) throw new PaykitError('method_not_allowed', `Use ${method} on this route`);
}

/** A path segment as an id: decoded, one segment, not `.` or `..`. */
function segmentId(segment: string, name: 'merchant' | 'charge'): string {
  let decoded: string | undefined;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    decoded = undefined;
  }
  if (decoded === undefined || !SEGMENT_ID.test(decoded)) {
    throw new PaykitError('validation_failed', `The ${name} id in the path is not valid`, {
      errors: [{ path: name, message: 'must be an id: letters, digits, "-", "_", ".", "~", not starting with "."' }],
    });
  }
  return decoded;
}

/** The hook's answer, checked: anything but two booleans is a bug of the platform's (a 500, logged). */
async function accessOf(
  hook: MerchantViewDeps['hook'],
  merchant: string,
  exchange: Exchange,
): Promise<MerchantViewAccess> {
  const access: unknown = await hook(merchant, hookContext(exchange));
  const { view, refund } = (typeof access === 'object' && access !== null ? access : {}) as Record<string, unknown>;
  if (typeof view !== 'boolean' || typeof refund !== 'boolean') {
    throw new PaykitError('internal_error', 'merchantView must answer { view: boolean, refund: boolean }');
  }
  // Refunding shows the payment: no refund without the view.
  return { view, refund: view && refund };
}

async function connection(platform: Platform, merchant: string): Promise<MerchantConnectionAnswer> {
  const kept = await platform.connection(merchant);
  const since = kept.connectedAt === undefined ? {} : { connected_at: new Date(kept.connectedAt).toISOString() };
  if (kept.state !== 'connected') return { merchant, state: kept.state, ...since };
  try {
    const business = await platform.merchant(merchant).getBusinessInfo();
    return { merchant, state: 'connected', business: connectedBusinessAnswer(business), ...since };
  } catch (error) {
    // The service no longer takes the credentials: the call ended the connection (the store says so now).
    if (isPaykitError(error, 'unauthorized')) return { merchant, state: 'connect_again', ...since };
    throw upstream(error, 'The payment service could not confirm the connection. Please try again.');
  }
}

/** The merchant's API, when the platform holds a connection the service has not refused. */
async function connectedApi(platform: Platform, merchant: string): Promise<MerchantApi> {
  const { state } = await platform.connection(merchant);
  if (state === 'not_connected') {
    throw new PaykitError('merchant_not_connected', 'This merchant is not connected to the platform');
  }
  if (state === 'connect_again') throw connectionEnded();
  return platform.merchant(merchant);
}

const connectionEnded = (cause?: unknown) =>
  new PaykitError(
    'merchant_connection_ended',
    'The payment service no longer accepts this merchant’s connection: the merchant must connect again',
    cause === undefined ? {} : { cause },
  );

/** An API failure as the browser may read it: the connection ended, or the platform's upstream trouble. */
function upstream(error: unknown, message: string, keep: ('not_found' | 'validation_failed')[] = []): unknown {
  if (isPaykitError(error, 'unauthorized')) return connectionEnded(error);
  return asUpstreamFailure(error, message, keep);
}

/** The `cursor` query parameter, once at most. */
function cursorParam(exchange: Exchange): string | undefined {
  const values = exchange.url.searchParams.getAll('cursor');
  if (values.length > 1) throw new PaykitError('duplicate_parameter', '"cursor" appears more than once');
  return values[0];
}

/** One API list walked by the payments list: its position, and the page read at it (a row, or left out). */
interface Walk {
  at: string | undefined;
  taken: number;
  done: boolean;
  page?: (MerchantPaymentRow | undefined)[];
  next?: string;
  read: (cursor: string | undefined) => Promise<{ rows: (MerchantPaymentRow | undefined)[]; next?: string }>;
}

/** What {@link head} answers when the answer's API reads are spent before the list's next row is known. */
const SPENT = Symbol('spent');

/** Skips what the page left out; at its end, moves to the next page (unread) or ends the walk. No API call. */
function settle(walk: Walk): void {
  const page = walk.page;
  if (page === undefined) return;
  while (walk.taken < page.length && page[walk.taken] === undefined) walk.taken += 1;
  if (walk.taken < page.length) return;
  if (!walk.next || page.length === 0) walk.done = true;
  else [walk.at, walk.taken, walk.page, walk.next] = [walk.next, 0, undefined, undefined];
}

/** The walk's next row, reading pages while `reads` allows; undefined when the list has no more. */
async function head(walk: Walk, reads: { left: number }): Promise<MerchantPaymentRow | undefined | typeof SPENT> {
  for (;;) {
    settle(walk);
    if (walk.done) return undefined;
    if (walk.page) return walk.page[walk.taken];
    if (reads.left === 0) return SPENT;
    reads.left -= 1;
    ({ rows: walk.page, next: walk.next } = await walk.read(walk.at));
  }
}

/** True when `a` comes before `b`, newest first: by `created_at`, then by id (the larger first). */
function newer(a: MerchantPaymentRow, b: MerchantPaymentRow): boolean {
  const [at, bt] = [Date.parse(a.created_at) || 0, Date.parse(b.created_at) || 0];
  return at === bt ? a.id > b.id : at > bt;
}

/**
 * `GET …/payments`: two newest-first API lists merged into one page of at most {@link PAYMENTS_PER_PAGE} rows, the
 * charges and the payment requests nothing charged (core's `MerchantPaymentKind`). The cursor holds, for each list
 * with more, the API cursor of its current page and how many of its items were taken: the next answer reads those
 * pages again and skips them. Each list keeps its own order; between the two, the newer `created_at` comes first,
 * then the larger id. An answer reads at most {@link PAYMENT_LIST_READS} API pages (completed requests are read
 * and left out): one that runs out shows what it has, and its `next` goes on.
 */
async function payments(
  api: MerchantApi,
  exchange: Exchange,
  access: MerchantViewAccess,
): Promise<MerchantPaymentsAnswer> {
  const text = cursorParam(exchange);
  const from: PaymentsCursor =
    text === undefined ? { v: 2, charges: { taken: 0 }, requests: { taken: 0 } } : decodeCursor(text, 'payments');
  const methods = operationMethods(api.config);
  const chargesList = methods.list('charges.list');
  const requestsList = methods.list('paymentRequests.list');
  const walk = (at: ListPosition | undefined, read: Walk['read']): Walk => ({
    at: at?.at,
    taken: at?.taken ?? 0,
    done: at === undefined,
    read,
  });
  const charges = walk(from.charges, async (cursor) => {
    const page = await chargesList({ perPage: CHARGES_PER_PAGE, ...(cursor === undefined ? {} : { cursor }) });
    return { rows: page.data.map(paymentRow), ...(page.meta?.next_cursor ? { next: page.meta.next_cursor } : {}) };
  });
  const requests = walk(from.requests, async (cursor) => {
    const page = await requestsList({ perPage: REQUESTS_PER_PAGE, ...(cursor === undefined ? {} : { cursor }) });
    return { rows: page.data.map(requestRow), ...(page.meta?.next_cursor ? { next: page.meta.next_cursor } : {}) };
  });
  const reads = { left: PAYMENT_LIST_READS };
  const items: MerchantPaymentRow[] = [];
  try {
    while (items.length < PAYMENTS_PER_PAGE) {
      const [charge, request] = await Promise.all([head(charges, reads), head(requests, reads)]);
      if (charge === SPENT || request === SPENT || (!charge && !request)) break;
      const [row, from] = !request || (charge && newer(charge, request)) ? [charge!, charges] : [request, requests];
      items.push(row);
      from.taken += 1;
    }
  } catch (error) {
    throw upstream(error, 'The payment service could not list the payments. Please try again.');
  }
  const next: PaymentsCursor = { v: 2 };
  for (const [name, one] of [
    ['charges', charges],
    ['requests', requests],
  ] as const) {
    settle(one);
    if (!one.done) next[name] = one.at === undefined ? { taken: one.taken } : { at: one.at, taken: one.taken };
  }
  return {
    items,
    can_refund: access.refund,
    ...(next.charges || next.requests ? { next: encodeCursor(next) } : {}),
  };
}

async function readCharge(api: MerchantApi, id: string): Promise<Charge> {
  try {
    return await api.getCharge(id);
  } catch (error) {
    if (isPaykitError(error, 'not_found')) {
      throw new PaykitError('not_found', 'No payment of this merchant has this id', { cause: error });
    }
    throw upstream(error, 'The payment service could not read the payment. Please try again.');
  }
}

function detailOf(charge: Charge, access: MerchantViewAccess): MerchantPaymentDetail {
  return { ...paymentRow(charge), refunds: chargeRefundRows(charge), can_refund: access.refund };
}

async function paymentDetail(api: MerchantApi, id: string, access: MerchantViewAccess): Promise<MerchantPaymentDetail> {
  return detailOf(await readCharge(api, id), access);
}

/**
 * `POST …/refunds`: once per `Idempotency-Key` (per merchant and caller, in the handler's idempotency store, so
 * across instances on PostgreSQL). The amount is read in the charge's currency digits and refused above what
 * the API says is left, before the refund is asked; the answer is the charge read again after it.
 */
async function refund(
  deps: MerchantViewDeps,
  merchant: string,
  exchange: Exchange,
  access: MerchantViewAccess,
): Promise<MerchantRefundAnswer> {
  const key = exchange.headers.get('idempotency-key');
  if (key === null || !/^[A-Za-z0-9_-]{8,128}$/.test(key)) {
    throw new PaykitError(
      'idempotency_key_invalid',
      key === null
        ? 'Send an Idempotency-Key header, made once per confirmed refund'
        : 'Idempotency-Key must be 8 to 128 letters, digits, "-" or "_"',
      { errors: [{ path: 'Idempotency-Key', message: key === null ? 'is required' : 'is not well-formed' }] },
    );
  }
  const body = await readJsonObject(exchange, deps.limits);
  const errors: { path: string; message: string }[] = [];
  const charge = typeof body.charge === 'string' && SEGMENT_ID.test(body.charge) ? body.charge : undefined;
  if (charge === undefined) errors.push({ path: 'charge', message: 'must be the id of a payment' });
  const amount = typeof body.amount === 'string' || typeof body.amount === 'number' ? body.amount : undefined;
  if (amount === undefined) errors.push({ path: 'amount', message: 'must be an amount such as "12.50"' });
  if (charge === undefined || amount === undefined) {
    throw new PaykitError('validation_failed', 'The refund needs a payment and an amount', { errors });
  }
  const api = await connectedApi(deps.platform, merchant);
  const scope = deps.options.idempotencyScope
    ? await deps.options.idempotencyScope(exchange.request())
    : await defaultIdempotencyScope(exchange);
  if (typeof scope !== 'string') {
    throw new PaykitError('internal_error', `idempotencyScope returned ${typeof scope}, not a string`);
  }
  return runIdempotently<MerchantRefundAnswer>({
    store: deps.idempotency,
    key,
    scope: JSON.stringify(['merchant-refund', merchant, scope]),
    fingerprint: JSON.stringify([charge, String(amount)]),
    work: () => refundOnce(api, charge, amount, access),
    policy: DEFAULT_IDEMPOTENCY_POLICY,
    logger: deps.logger,
  });
}

async function refundOnce(
  api: MerchantApi,
  chargeId: string,
  amount: string | number,
  access: MerchantViewAccess,
): Promise<MerchantRefundAnswer> {
  const charge = await readCharge(api, chargeId);
  const parsed = parseAmount(amount, charge.currency);
  if (!parsed.ok) {
    throw new PaykitError('validation_failed', `amount ${parsed.reason}`, {
      errors: [{ path: 'amount', message: parsed.reason }],
    });
  }
  const { refundableMinor } = refundState(charge);
  if (refundableMinor === 0) {
    throw new PaykitError('conflict', `This payment (${charge.status}) has nothing left to refund`);
  }
  if (parsed.minor > refundableMinor) {
    const left = moneyText(refundableMinor, charge.currency);
    throw new PaykitError('validation_failed', `amount must not exceed the ${left} left to refund`, {
      errors: [{ path: 'amount', message: `must not exceed ${left}` }],
    });
  }
  let made;
  try {
    made = await operationMethods(api.config).create('refunds.create')({
      amount: parsed.minor / 100,
      payment_id: charge.id,
    });
  } catch (error) {
    throw upstream(error, 'The payment service did not make the refund.', ['validation_failed']);
  }
  return { refund: refundRow(made), payment: detailOf(await readCharge(api, charge.id), access) };
}

/**
 * `GET …/payouts`: the API lists no payouts (spec 4.1 reads one), but its balance-transactions ledger (spec 2.6)
 * has an entry for each payout (`payout_id`) and transfer (`transfer_id`), newest first: the route walks the
 * ledger by its own cursor and reads each payout and transfer its entries name. A transfer is read only where the
 * credentials may (transfers are API-key only: an OAuth connection's rows are payouts alone).
 */
async function payouts(api: MerchantApi, exchange: Exchange): Promise<MerchantPayoutsAnswer> {
  const text = cursorParam(exchange);
  const from = text === undefined ? undefined : decodeCursor(text, 'payouts');
  const methods = operationMethods(api.config);
  const ledger = methods.list('balances.transactions.list', { segment: LEDGER_SEGMENT });
  const rows: MerchantPayoutRow[] = [];
  let cursor = from?.ledger;
  let skip = from?.after;
  let next: string | undefined;
  let lastTransfer: string | undefined;
  let transfersReadable = true;
  try {
    for (let read = 0; read < LEDGER_PAGES && rows.length < PAYOUT_ROWS; read += 1) {
      const page = await ledger({ perPage: LEDGER_PER_PAGE, ...(cursor === undefined ? {} : { cursor }) });
      const wanted: { kind: 'payout' | 'transfer'; id: string }[] = [];
      const seen = new Set<string>(skip === undefined ? [] : [skip]);
      lastTransfer = undefined;
      for (const entry of page.data) {
        // A payout's own entry is its debit; a failed one's money coming back is a credit naming it again.
        if (entry.payout_id && (entry.debit ?? 0) < 0 && !seen.has(entry.payout_id)) {
          seen.add(entry.payout_id);
          wanted.push({ kind: 'payout', id: entry.payout_id });
        }
        // A transfer has two entries (its amount, its fee), side by side.
        if (entry.transfer_id) {
          lastTransfer = entry.transfer_id;
          if (!seen.has(entry.transfer_id)) {
            seen.add(entry.transfer_id);
            wanted.push({ kind: 'transfer', id: entry.transfer_id });
          }
        }
      }
      for (let start = 0; start < wanted.length; start += READS_AT_ONCE) {
        const batch = wanted.slice(start, start + READS_AT_ONCE);
        const read = await Promise.all(
          batch.map(async ({ kind, id }): Promise<MerchantPayoutRow | undefined> => {
            if (kind === 'payout') return payoutRow(await methods.byId('payouts.get')(id));
            if (!transfersReadable) return undefined;
            try {
              return transferRow(await methods.byId('transfers.get')(id));
            } catch (error) {
              // A Bearer token has no scope for transfers (403): this connection shows payouts only.
              if (!isPaykitError(error, 'forbidden')) throw error;
              transfersReadable = false;
              return undefined;
            }
          }),
        );
        for (const row of read) if (row) rows.push(row);
      }
      next = page.meta?.next_cursor ?? undefined;
      skip = lastTransfer;
      if (!next || page.data.length === 0) {
        next = undefined;
        break;
      }
      cursor = next;
    }
  } catch (error) {
    throw upstream(error, 'The payment service could not list the payouts. Please try again.');
  }
  return {
    items: rows,
    ...(next === undefined
      ? {}
      : { next: encodeCursor({ v: 1, ledger: next, ...(lastTransfer === undefined ? {} : { after: lastTransfer }) }) }),
  };
}
