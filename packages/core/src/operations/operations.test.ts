import { describe, expect, expectTypeOf, it } from 'vitest';
import { PaykitError } from '../errors.js';
import { OPERATION_SCOPES, isTokenOperation, scopesAllowOperation } from '../scopes.js';
import {
  OPERATION_IDS,
  expandPath,
  pathSegmentProblem,
  findOperation,
  matchesTemplate,
  operations,
  type OperationInput,
  type OperationItem,
  type ListKind,
  type OperationOutput,
} from './index.js';

/** An empty page of each list shape, as the real service (or spec 2.6) answers it. */
const EMPTY_PAGES = {
  'spec-cursor': { data: [], meta: { per_page: '10', next_cursor: null, prev_cursor: null } },
  cursor: {
    data: [],
    links: { first: null, last: null, prev: null, next: null },
    meta: { path: 'https://api.example.test/v1/charges', per_page: 10, next_cursor: null, prev_cursor: null },
  },
  numbered: {
    data: [],
    links: { first: null, last: null, prev: null, next: null },
    meta: {
      current_page: 1,
      from: null,
      last_page: 1,
      links: [],
      path: 'https://api.example.test/v1/products',
      per_page: 10,
      to: null,
      total: 0,
    },
  },
} as const satisfies Record<ListKind, unknown>;

describe('the operation table', () => {
  it('joins route and schemas into one row per operation, typed from the row', () => {
    const row = operations['paymentRequests.create'];
    expect(row).toMatchObject({ id: 'paymentRequests.create', method: 'POST', path: '/v1/payment-requests' });
    expect(row.scope).toBe('payments:create');
    expect(row.retry).toBe('never');
    expect(row.request.safeParse({ amount: 1, currency: 'SGD' }).success).toBe(true);
    expectTypeOf(row.method).toEqualTypeOf<'POST'>();
    expectTypeOf<OperationInput<'paymentRequests.create'>['currency']>().toEqualTypeOf<string>();
    expectTypeOf<OperationOutput<'paymentRequests.get'>['status']>().toEqualTypeOf<string>();
    expectTypeOf<OperationItem<'charges.list'>>().toEqualTypeOf<OperationOutput<'charges.get'>>();
    expectTypeOf<OperationInput<'charges.get'>>().toBeNever();
    expect(Object.keys(operations)).toEqual(OPERATION_IDS);
  });

  it('pages reads only, reads every list as a page, and gives bodies to writes', () => {
    for (const id of OPERATION_IDS) {
      const row = operations[id];
      // Reads are safe to send again; the client's table test checks the transport does as the row says.
      if (row.method === 'GET') expect(row.retry, id).toBe('safe');
      if (row.pagination !== 'none') {
        expect(row.method, id).toBe('GET');
        expect(
          row.response.safeParse(EMPTY_PAGES[row.pagination]).success,
          `${id} reads a ${row.pagination} page`,
        ).toBe(true);
      }
      // A body goes with the methods that have one, and nowhere else.
      expect(row.request === undefined, id).toBe(row.method === 'GET' || row.method === 'DELETE');
    }
  });
});

describe('the scope map read from it', () => {
  it('keeps the spec 5.2 scopes, info for any token, and leaves the API-key-only operations out', () => {
    expect(OPERATION_SCOPES['info.get']).toBeNull();
    expect(OPERATION_SCOPES['products.delete']).toBe('commerce:delete');
    expect(OPERATION_SCOPES['refunds.create']).toBe('payments:refund');
    expectTypeOf(OPERATION_SCOPES['paymentRequests.cancel']).toEqualTypeOf<'payments:cancel'>();
    expect(isTokenOperation('transfers.create')).toBe(false);
    expect(isTokenOperation('toString')).toBe(false);
    expect(isTokenOperation('accountStatus.get')).toBe(true);
    expect(scopesAllowOperation(['payments'], 'recurringBilling.charge')).toBe(true);
    expect(scopesAllowOperation(['payments:read'], 'terminals.list')).toBe(true);
  });

  it('grants reading one order with commerce:read, and managing webhook endpoints to the API key only', () => {
    expect(OPERATION_SCOPES['orders.get']).toBe('commerce:read');
    for (const id of OPERATION_IDS.filter((id) => id.startsWith('webhookEvents.'))) {
      expect(isTokenOperation(id), id).toBe(false);
    }
  });
});

describe('the webhook-events rows', () => {
  it('send JSON, list as a plain array (not a page), and read the service’s example answers', () => {
    const endpoint = {
      id: '9b2ada28-be3c-47ab-883f-ba72e5d8305d',
      business_id: '9b294222-3a53-427f-9393-95dc6d63ee6c',
      name: 'Test Webhook Event',
      url: 'https://google.com',
      event_types: ['transfer.created', 'transfer.updated'],
      created_at: '2024-01-24T16:05:10+08:00',
      updated_at: '2024-01-24T16:05:10+08:00',
    };
    expect(operations['webhookEvents.create'].encoding).toBe('json');
    expect(operations['webhookEvents.update'].encoding).toBe('json');
    expect(operations['webhookEvents.list'].pagination).toBe('none');
    expect(operations['webhookEvents.list'].response.parse([endpoint])).toEqual([endpoint]);
    expect(operations['webhookEvents.get'].response.parse(endpoint)).toEqual(endpoint);
    expect(findOperation('PUT', '/v1/webhook-events/abc')).toBe('webhookEvents.update');
    expect(findOperation('DELETE', '/v1/webhook-events/abc')).toBe('webhookEvents.delete');
    expect(findOperation('GET', '/v1/orders/abc')).toBe('orders.get');
    expectTypeOf<OperationOutput<'webhookEvents.list'>>().toEqualTypeOf<OperationOutput<'webhookEvents.get'>[]>();
  });

  it('refuse a body naming an unknown event, no event, or a URL the service would not post to', () => {
    const create = operations['webhookEvents.create'].request;
    const valid = { name: 'Hooks', url: 'https://shop.test/hooks', event_types: ['charge.created'] };
    expect(create.safeParse(valid).success).toBe(true);
    const refused = (body: object) => create.safeParse({ ...valid, ...body }).error?.issues.map((i) => i.path[0]);
    expect(refused({ event_types: ['charge.deleted'] })).toEqual(['event_types']);
    expect(refused({ event_types: [] })).toEqual(['event_types']);
    expect(refused({ event_types: ['charge.created', 'charge.created'] })).toEqual(['event_types']);
    expect(refused({ url: 'http://hooks.test/' })).toEqual(['url']);
    expect(refused({ name: 'x'.repeat(256) })).toEqual(['name']);
    expect(operations['webhookEvents.update'].request.safeParse({}).success).toBe(true);
  });
});

describe('finding the operation of a request', () => {
  it('matches method and path against the templates and their aliases; HEAD is GET', () => {
    expect(findOperation('GET', '/v1/payment-requests')).toBe('paymentRequests.list');
    expect(findOperation('POST', '/v1/payment-requests')).toBe('paymentRequests.create');
    expect(findOperation('DELETE', '/v1/payment-requests/abc')).toBe('paymentRequests.cancel');
    expect(findOperation('HEAD', '/v1/charges/abc')).toBe('charges.get');
    expect(findOperation('POST', '/v1/refund')).toBe('refunds.create');
    expect(findOperation('GET', '/v1/balances/processor/transactions')).toBe('balances.transactions.list');
  });

  it('finds nothing for another method, an empty parameter, a trailing slash or an extra segment', () => {
    expect(findOperation('PATCH', '/v1/payment-requests/abc')).toBeUndefined();
    expect(findOperation('GET', '/v1/payment-requests/')).toBeUndefined();
    expect(findOperation('GET', '/v1/info/')).toBeUndefined();
    expect(findOperation('GET', '/v1/charges/abc/refunds')).toBeUndefined();
    expect(findOperation('GET', '/info')).toBeUndefined();
  });
});

describe('path templates', () => {
  it('fills parameters in as whole segments, left for the transport to encode', () => {
    expect(expandPath('/v1/payment-requests/{id}', { id: 'a?b#c' })).toEqual(['v1', 'payment-requests', 'a?b#c']);
    expect(expandPath('/v1/charges/{id}', { id: '...' })).toEqual(['v1', 'charges', '...']);
    expect(expandPath('/v1/info')).toEqual(['v1', 'info']);
    expect(matchesTemplate('/v1/staffs/{id}', '/v1/staffs/x')).toBe(true);
    expect(matchesTemplate('/v1/staffs/{id}', '/v1/staff/x')).toBe(false);
  });

  it('refuses a missing or empty parameter, naming it', () => {
    for (const params of [{}, { id: '' }] as Record<string, string>[]) {
      const error = (() => {
        try {
          expandPath('/v1/payouts/{id}', params);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(PaykitError);
      expect(error).toMatchObject({ code: 'validation_failed', errors: [{ path: 'id' }] });
    }
  });

  it('refuses a parameter that is not one segment: ".", "..", a slash or backslash, plain or encoded', () => {
    // `GET /v1/payment-requests/..` is `GET /v1/` once URL parsing resolves it; `.` is the list.
    const notSegments = ['.', '..', '%2e', '.%2E', '%2e%2e', 'a/b', '../charges', 'a\\b', 'a%2Fb', 'a%5cb', '/'];
    for (const id of notSegments) {
      const error = (() => {
        try {
          return expandPath('/v1/payment-requests/{id}', { id });
        } catch (e) {
          return e;
        }
      })();
      expect(error, id).toBeInstanceOf(PaykitError);
      expect(error, id).toMatchObject({ code: 'validation_failed', errors: [{ path: 'id' }] });
      expect((error as PaykitError).message, id).toMatch(/^"id" must not /);
    }
    expect(notSegments.filter((id) => pathSegmentProblem(id) === undefined)).toEqual([]);
    const segments = ['pr_1', '9d3f0c7e-1b2a-4c5d-8e9f-0a1b2c3d4e5f', '...', 'a.b', '%41', 'a?b#c'];
    expect(segments.filter((id) => pathSegmentProblem(id) !== undefined)).toEqual([]);
  });
});
