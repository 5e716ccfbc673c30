/**
 * `.all()` walks both list shapes of the real service (its OpenAPI description): page-numbered lists
 * (`meta.current_page` of `meta.last_page`, Laravel's length-aware page, as `GET /v1/beneficiaries` answers)
 * and cursor lists (`meta.next_cursor` with `per_page` a number, as `GET /v1/charges` answers). A real HTTP
 * server on 127.0.0.1 answers the documented shapes, since the sandbox answers only cursor lists.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMerchantApi } from '../api/merchant-api.js';
import { createPaymentsClient } from './payments-client.js';

const ids = Array.from({ length: 7 }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`);
const item = (id: string) => ({
  id,
  status: 'pending',
  url: `https://pay.test/${id}`,
  amount: '1.00',
  currency: 'sgd',
});
const asked: string[] = [];
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    asked.push(url.search);
    const perPage = Number(url.searchParams.get('per_page') ?? 3);
    let body: unknown;
    if (url.pathname === '/v1/payment-requests') {
      const page = Number(url.searchParams.get('current_page') ?? 1);
      const last = Math.ceil(ids.length / perPage);
      body = {
        data: ids.slice((page - 1) * perPage, page * perPage).map(item),
        links: { first: `${base}/v1/payment-requests?page=1`, last: null, prev: null, next: null },
        meta: {
          current_page: page,
          from: 1,
          last_page: last,
          path: `${base}/v1/payment-requests`,
          per_page: perPage,
          to: 1,
          total: ids.length,
        },
      };
    } else {
      const start = url.searchParams.has('cursor') ? Number(url.searchParams.get('cursor')) : 0;
      const end = Math.min(ids.length, start + perPage);
      body = {
        data: ids.slice(start, end).map((id) => ({ ...item(id), amount: 1, payment_request_id: id })),
        links: { first: null, last: null, prev: null, next: null },
        meta: {
          path: `${base}/v1/charges`,
          per_page: perPage,
          next_cursor: end < ids.length ? String(end) : null,
          prev_cursor: null,
        },
      };
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('list shapes', () => {
  it('follows page numbers up to last_page, asking current_page', async () => {
    asked.length = 0;
    const client = createPaymentsClient({ apiBaseUrl: base, apiKey: 'test-key' });
    const walked: string[] = [];
    for await (const request of client.paymentRequests.list.all({ perPage: 3 })) walked.push(request.id);
    expect(walked).toEqual(ids);
    expect(asked).toEqual(['?per_page=3', '?per_page=3&current_page=2', '?per_page=3&current_page=3']);
  });

  it('follows cursors with per_page a number', async () => {
    const client = createPaymentsClient({ apiBaseUrl: base, apiKey: 'test-key' });
    const walked: string[] = [];
    for await (const charge of client.charges.list.all({ perPage: 2 })) walked.push(charge.id);
    expect(walked).toEqual(ids);
  });

  it('reads one numbered page with the merchant API, keeping per_page a number', async () => {
    const api = createMerchantApi({ apiBaseUrl: base, apiKey: 'test-key' });
    const page = await api.listPaymentRequests({ perPage: 3, page: 3 });
    expect(page.data.map((r) => r.id)).toEqual(ids.slice(6));
    expect(page.meta).toMatchObject({ current_page: 3, last_page: 3, per_page: 3, total: 7 });
  });
});
