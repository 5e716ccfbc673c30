import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../../../../test/support/sandbox-calls.js';
import { startSandbox, type RunningSandbox } from '../index.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());
beforeEach(() => call(sandbox, 'POST', '/_sandbox/reset'));

async function create(extra: Record<string, unknown> = {}) {
  const { body } = await call(sandbox, 'POST', '/v1/payment-requests', {
    json: {
      amount: 19.99,
      currency: 'SGD',
      purpose: 'Mug <b>bold</b>',
      redirect_url: 'https://shop.test/return?cart=7',
      ...extra,
    },
  });
  return body as { id: string; url: string };
}

const submit = (url: string, outcome: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `payment_method=card&outcome=${outcome}`,
    redirect: 'manual',
  });

describe('checkout page', () => {
  it('shows merchant, amount, purpose (as text) and methods under a strict policy', async () => {
    const request = await create({ payment_methods: ['paynow_online', 'card'] });
    const response = await fetch(request.url);
    const page = await response.text();
    expect(response.status).toBe(200);
    expect(page).toContain('Pay Demo Store');
    expect(page).toContain('SGD 19.99');
    expect(page).toContain('Mug &lt;b&gt;bold&lt;/b&gt;');
    expect(page).toContain('value="paynow_online"');
    expect(page).toContain('value="card"');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self' https://shop.test");
  });

  it.each([
    ['succeeded', 'completed'],
    ['failed', 'failed'],
  ])('"%s" completes the request and redirects with reference and status', async (outcome, status) => {
    const request = await create({ payment_methods: ['paynow_online', 'card'] });
    const response = await submit(request.url, outcome);
    expect(response.status).toBe(303);
    const location = new URL(response.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe('https://shop.test/return');
    expect(Object.fromEntries(location.searchParams)).toEqual({ cart: '7', reference: request.id, status });
    expect((await call(sandbox, 'GET', `/v1/payment-requests/${request.id}`)).body.status).toBe(status);
    const charges = (await call(sandbox, 'GET', '/v1/charges')).body.data;
    expect(charges).toMatchObject([
      { payment_request_id: request.id, amount: 19.99, currency: 'sgd', payment_method: 'card', status: outcome },
    ]);
    expect((await call(sandbox, 'GET', `/v1/charges/${charges[0].id}`)).body).toEqual(charges[0]);
  });

  it('does not charge twice when the form is posted again', async () => {
    const request = await create();
    await submit(request.url, 'succeeded');
    const again = await submit(request.url, 'failed');
    expect(again.status).toBe(303);
    expect(new URL(again.headers.get('location') ?? '').searchParams.get('status')).toBe('completed');
    expect((await call(sandbox, 'GET', '/v1/charges')).body.data).toHaveLength(1);
    expect(await (await fetch(request.url)).text()).toContain('already completed');
  });

  it('answers 404 for an unknown payment link', async () => {
    expect((await fetch(`${sandbox.url}/checkout/unknown`)).status).toBe(404);
  });
});
