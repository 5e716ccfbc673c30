/**
 * The drop-in's server side: `/hitpay.js` and the checkout's drop-in mode, over HTTP. What the script does in a
 * browser is test/e2e/sandbox-drop-in.test.ts's.
 */
import { call } from '@paykit/test-support/sandbox-calls';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../index.js';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.close());
beforeEach(() => call(sandbox, 'POST', '/_sandbox/reset'));

const SHOP = 'https://shop.test';

async function create(): Promise<{ id: string; url: string }> {
  const { body } = await call(sandbox, 'POST', '/v1/payment-requests', {
    json: {
      amount: 12.5,
      currency: 'SGD',
      reference_number: 'order-1042',
      payment_methods: ['paynow_online', 'card'],
      redirect_url: `${SHOP}/return`,
    },
  });
  return body as { id: string; url: string };
}

const dropIn = (url: string, parent: string, extra = '') =>
  `${url}?mode=drop-in&parent=${encodeURIComponent(parent)}${extra}`;
const csp = (response: Response) => response.headers.get('content-security-policy') ?? '';
const dataOf = (page: string, name: string) => new RegExp(`data-${name}="([^"]*)"`).exec(page)?.[1];

describe('the drop-in script', () => {
  it('is served at /hitpay.js as JavaScript that any page may load', async () => {
    const response = await fetch(`${sandbox.url}/hitpay.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    const code = await response.text();
    expect(code).toContain('window.HitPay = {');
    // Nothing a page enforcing Trusted Types would refuse: no HTML or script URL assigned.
    expect(code).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write|\.srcdoc|eval\(/);
    const frame = await fetch(`${sandbox.url}/_assets/drop-in-frame.js`);
    expect(frame.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });
});

describe("the checkout's drop-in mode", () => {
  it('may be framed by the parent it names, runs its one script, and has no way back of its own', async () => {
    const request = await create();
    const response = await fetch(dropIn(request.url, SHOP, '&method=card'));
    const page = await response.text();
    expect(response.status).toBe(200);
    expect(csp(response)).toContain(`frame-ancestors ${SHOP};`);
    expect(csp(response)).toContain("script-src 'self'");
    expect(csp(response)).toContain("form-action 'self';");
    expect(csp(response)).toContain("require-trusted-types-for 'script'");
    expect(page).toContain('<script src="/_assets/drop-in-frame.js" defer></script>');
    expect(dataOf(page, 'parent-origin')).toBe(SHOP);
    expect(dataOf(page, 'payment-request')).toBe(request.id);
    expect(dataOf(page, 'outcome')).toBe('');
    expect(page).toMatch(/value="card" checked/);
    expect(page).not.toContain('Cancel and return');
  });

  it('leaves the normal checkout unframeable and without script', async () => {
    const request = await create();
    const response = await fetch(request.url);
    expect(csp(response)).toContain("frame-ancestors 'none'");
    expect(csp(response)).not.toContain('script-src');
    expect(await response.text()).not.toContain('<script');
  });

  it.each([
    ['an origin with a path', `${SHOP}/shop`],
    ['a script URL', 'javascript:alert(1)'],
    ['no origin', ''],
  ])('refuses %s as its parent, framed by nobody', async (_, parent) => {
    const request = await create();
    const response = await fetch(dropIn(request.url, parent));
    expect(response.status).toBe(400);
    expect(csp(response)).toContain("frame-ancestors 'none'");
    expect(await response.text()).not.toContain('data-drop-in');
  });

  it('refuses to be a page of its own (Sec-Fetch-Dest: document)', async () => {
    const request = await create();
    const response = await fetch(dropIn(request.url, SHOP), { headers: { 'sec-fetch-dest': 'document' } });
    expect(response.status).toBe(400);
    const framed = await fetch(dropIn(request.url, SHOP), { headers: { 'sec-fetch-dest': 'iframe' } });
    expect(framed.status).toBe(200);
  });

  it.each([
    ['succeeded', 'completed', { reference: 'order-1042', message: '' }],
    ['failed', 'failed', { reference: '', message: 'The payment was declined.' }],
  ])('"%s" answers an outcome page for the overlay, not a redirect', async (outcome, status, data) => {
    const request = await create();
    const response = await fetch(dropIn(request.url, SHOP), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `payment_method=card&outcome=${outcome}`,
      redirect: 'manual',
    });
    expect(response.status).toBe(200);
    expect(csp(response)).toContain(`frame-ancestors ${SHOP};`);
    const page = await response.text();
    expect(dataOf(page, 'outcome')).toBe(status);
    expect(dataOf(page, 'reference')).toBe(data.reference);
    expect(dataOf(page, 'message')).toBe(data.message);
    expect((await call(sandbox, 'GET', `/v1/payment-requests/${request.id}`)).body.status).toBe(status);
    // Opened again, a request that is no longer pending tells its outcome at once.
    expect(dataOf(await (await fetch(dropIn(request.url, SHOP))).text(), 'outcome')).toBe(status);
  });

  it('tells the overlay that an unknown payment link is not valid', async () => {
    const response = await fetch(dropIn(`${sandbox.url}/checkout/unknown`, SHOP));
    expect(response.status).toBe(404);
    const page = await response.text();
    expect(dataOf(page, 'outcome')).toBe('not_found');
    expect(dataOf(page, 'message')).toBe('This payment link is not valid.');
  });
});
