import { call } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
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
  it('shows merchant, amount, purpose (as text) and methods by name under a strict policy', async () => {
    const request = await create({ payment_methods: ['paynow_online', 'card', 'grabpay', 'some_new_wallet'] });
    const response = await fetch(request.url);
    const page = await response.text();
    expect(response.status).toBe(200);
    expect(page).toContain('Pay Demo Store');
    // Intl's en-SG currency format with the code: a no-break space keeps the code with its number.
    expect(page).toContain('<p class="amount" data-testid="amount">SGD\u00a019.99</p>');
    expect(page).toContain('Pay SGD\u00a019.99</button>');
    expect(page).toContain('Mug &lt;b&gt;bold&lt;/b&gt;');
    // The codes stay the posted values; the shopper reads names, and an unknown code as words.
    expect(page).toContain('value="paynow_online"');
    expect(page).toContain('value="card"');
    const names = [...page.matchAll(/class="choice-text"\s*>\s*<span>([^<]+)<\/span/g)].map((m) => m[1]);
    expect(names).toEqual(['PayNow', 'Card', 'GrabPay', 'Some new wallet']);
    expect(page).not.toMatch(/>\s*paynow_online\s*</);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self' https://shop.test");
  });

  it('names an empty icon its policy allows, so that no browser fetches /favicon.ico against it', async () => {
    const response = await fetch((await create()).url);
    expect(await response.text()).toContain('<link rel="icon" href="data:," />');
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain('img-src data:');
    expect(policy).toContain('report-uri /_sandbox/csp-reports');
  });

  it('keeps the violations browsers report (the latest 100), and a reset forgets them', async () => {
    const report = { 'csp-report': { 'blocked-uri': `${sandbox.url}/favicon.ico`, 'violated-directive': 'img-src' } };
    const sent = await fetch(`${sandbox.url}/_sandbox/csp-reports`, {
      method: 'POST',
      headers: { 'content-type': 'application/csp-report' },
      body: JSON.stringify(report),
    });
    expect(sent.status).toBe(204);
    expect(await (await fetch(`${sandbox.url}/_sandbox/csp-reports`)).json()).toEqual([report]);
    for (let i = 0; i < 120; i++) {
      await fetch(`${sandbox.url}/_sandbox/csp-reports`, { method: 'POST', body: JSON.stringify({ i }) });
    }
    const kept = sandbox.context.cspReports;
    expect(kept).toHaveLength(100);
    expect(kept.at(-1)).toEqual({ i: 119 });
    await call(sandbox, 'POST', '/_sandbox/reset');
    expect(await (await fetch(`${sandbox.url}/_sandbox/csp-reports`)).json()).toEqual([]);
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
      {
        payment_request_id: request.id,
        amount: 19.99,
        currency: 'sgd',
        // The service's object: the method's code, and the card the checkout pays with.
        payment_method: { code: 'card', name: 'card', data: { brand: 'Visa', last4: '4242' } },
        status: outcome,
      },
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

  it('offers a way back to the shop as a cancel that leaves the request pending', async () => {
    const request = await create();
    const page = await (await fetch(request.url)).text();
    const href = /<a href="([^"]+)">Cancel and return to Demo Store<\/a>/.exec(page)?.[1]?.replaceAll('&amp;', '&');
    expect(href).toBeDefined();
    const back = new URL(href!);
    expect(`${back.origin}${back.pathname}`).toBe('https://shop.test/return');
    expect(Object.fromEntries(back.searchParams)).toEqual({ cart: '7', reference: request.id, status: 'canceled' });
    // Following the link is a GET to the shop: the sandbox changes nothing and the shopper may come back.
    expect((await call(sandbox, 'GET', `/v1/payment-requests/${request.id}`)).body.status).toBe('pending');
    expect((await call(sandbox, 'GET', '/v1/charges')).body.data).toHaveLength(0);
  });

  it('has no way back without a redirect_url', async () => {
    const request = await create({ redirect_url: undefined });
    const page = await (await fetch(request.url)).text();
    expect(page).toContain('Pay Demo Store');
    expect(page).not.toContain('Cancel and return');
  });

  it("writes amounts with the currency's own digits, never rounding what the shopper pays", async () => {
    const yen = await create({ amount: 1250, currency: 'JPY' });
    expect(await (await fetch(yen.url)).text()).toContain('>JPY\u00a01,250<');
    const big = await create({ amount: 1234567.5 });
    expect(await (await fetch(big.url)).text()).toContain('>SGD\u00a01,234,567.50<');
  });

  it('answers 404 for an unknown payment link', async () => {
    expect((await fetch(`${sandbox.url}/checkout/unknown`)).status).toBe(404);
  });
});
