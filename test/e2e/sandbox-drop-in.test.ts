/**
 * The sandbox's drop-in (`/hitpay.js`), in every engine (Chromium, Firefox ESR, WebKitGTK; `PAYKIT_BROWSERS`
 * picks), driven by a shop page written for the service's own drop-in as its public WooCommerce plugin writes it
 * (`if (!HitPay.inited) HitPay.init(url, { domain, apiDomain }, { onClose, onSuccess, onError }); HitPay.toggle({
 * paymentRequest })`), under a strict Content-Security-Policy with Trusted Types. What the callbacks receive is
 * written into the page, where the test reads it; the payment request's status is read from the sandbox itself,
 * and the frames the checkout refuses from the violations the browsers report to it.
 */
import { startSandbox, type RunningSandbox } from '@paykit/sandbox';
import { ENGINE_NAMES, selectedEngines } from '@paykit/test-support/engines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserForBlock, problemsWithReports } from '../support/engine-block.js';
import type { FrameView, Tab } from '../support/engine-browser.js';
import { startPlatformPages, type PlatformPages } from '../support/platform-pages.js';

let sandbox: RunningSandbox;
let shop: PlatformPages;
/** Another origin, whose frame on the shop's page posts forged messages. */
let stranger: PlatformPages;
/** How many times the forger's frame said it had posted its messages. */
let forgeries = 0;

/** The shop's script: the service's documented calls, nothing of the sandbox's own. */
const SHOP_JS = `
const log = (text) => {
  const line = document.createElement('li');
  line.textContent = text;
  document.getElementById('log').append(line);
};
document.getElementById('pay').addEventListener('click', async () => {
  const method = document.getElementById('pay').dataset.method;
  const { id, url } = await (await fetch('/create', { method: 'POST' })).json();
  document.getElementById('pay').dataset.id = id;
  if (!window.HitPay.inited) {
    window.HitPay.init(url, { domain: 'sandbox.hit-pay.com', apiDomain: 'api.sandbox.hit-pay.com' }, {
      onClose: () => log('closed'),
      onSuccess: (data) => log('success ' + JSON.stringify(data)),
      onError: (error) => log('error ' + error),
    });
  }
  window.HitPay.toggle(method ? { paymentRequest: id, method } : { paymentRequest: id });
});
`;

/**
 * The forged frame: tells its parent, of any origin, that the payment in the id it is given succeeded; then tells
 * its own server that it has (the test waits for that, in any engine).
 */
const FORGER_JS = `
const id = new URL(location.href).searchParams.get('id');
for (const type of ['success', 'close', 'error'])
  window.parent.postMessage({ source: 'hitpay-drop-in', type, paymentRequest: id, status: 'completed' }, '*');
fetch('/posted', { method: 'POST' });
`;

const shopPage = (sandboxUrl: string, method = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title>
<script src="${sandboxUrl}/hitpay.js"></script>
<script type="module" src="/shop.js"></script></head>
<body><main><h1>Shop</h1><button id="pay" type="button" data-method="${method}">Pay with the drop-in</button><ol id="log"></ol></main></body></html>`;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  shop = await startPlatformPages();
  stranger = await startPlatformPages();
  const policy = (frames: string) =>
    [
      "default-src 'self'",
      `script-src 'self' ${sandbox.url}`,
      `frame-src ${frames}`,
      "style-src 'self'",
      "base-uri 'none'",
      "object-src 'none'",
      "require-trusted-types-for 'script'",
      "trusted-types 'none'",
    ].join('; ');
  shop.page('/', shopPage(sandbox.url), { 'content-security-policy': policy(sandbox.url) });
  shop.page('/card', shopPage(sandbox.url, 'card'), { 'content-security-policy': policy(sandbox.url) });
  shop.page('/with-stranger', shopPage(sandbox.url), {
    'content-security-policy': policy(`${sandbox.url} ${stranger.url}`),
  });
  shop.script('/shop.js', SHOP_JS);
  shop.mount('/create', async () => {
    const answer = await fetch(`${sandbox.url}/v1/payment-requests`, {
      method: 'POST',
      headers: { 'x-business-api-key': sandbox.seed.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: '12.50',
        currency: 'SGD',
        purpose: 'Enamel mug',
        reference_number: 'order-1042',
        payment_methods: ['paynow_online', 'card'],
        redirect_url: `${shop.url}/return`,
      }),
    });
    return new Response(await answer.text(), { headers: { 'content-type': 'application/json' } });
  });
  stranger.page('/forger', '<!doctype html><title>Forger</title><script type="module" src="/forger.js"></script>');
  stranger.script('/forger.js', FORGER_JS);
  stranger.mount('/posted', async () => {
    forgeries += 1;
    return new Response(null, { status: 204 });
  });
});

afterAll(async () => {
  await Promise.all([shop?.close(), stranger?.close(), sandbox?.close()]);
});

/** The overlay's iframe, in the shadow root of the drop-in's host. */
const OVERLAY_FRAME = ['[data-hitpay-drop-in]', 'iframe[title="Checkout"]'] as const;
/** How many open dialogs named "Checkout" the page has (the drop-in's is in its host's shadow root). */
const DIALOGS = `() => [...document.querySelectorAll('[data-hitpay-drop-in]')]
  .map((host) => host.shadowRoot.querySelector('dialog'))
  .filter((dialog) => dialog?.open && dialog.getRootNode().getElementById(dialog.getAttribute('aria-labelledby'))?.textContent === 'Checkout')
  .length`;
const LOG = `() => [...document.querySelectorAll('#log li')].map((line) => line.textContent)`;
const FOCUSED_ID = `() => document.activeElement?.id`;
/** Whether the page's focus is in the overlay's iframe (the host's shadow root has the frame focused). */
const FOCUS_IN_FRAME = `() => document.activeElement?.matches('[data-hitpay-drop-in]') && document.activeElement.shadowRoot.activeElement?.localName === 'iframe'`;
const statusOf = (id: string) => sandbox.context.state.paymentRequests.get(id)?.status;

/** What went wrong in the tab, and the violations browsers reported to the sandbox; its list is emptied. */
const problems = (tab: Tab) => problemsWithReports(tab, { sandbox: sandbox.context.cspReports });

describe.each(selectedEngines())('in %s', (engine) => {
  const browser = browserForBlock(engine);
  const name = ENGINE_NAMES[engine];

  /** A fresh tab at `path` of the shop. */
  async function openShop(path = '/'): Promise<Tab> {
    const tab = await browser.newTab();
    await tab.goto(`${shop.url}${path}`);
    return tab;
  }

  /** Clicks the shop's button and waits for the overlay's checkout to have loaded (focus moved into it). */
  async function openOverlay(tab: Tab): Promise<{ id: string; frame: FrameView }> {
    await tab.click('Pay with the drop-in');
    await expect.poll(() => tab.run(DIALOGS), { timeout: 10_000 }).toBe(1);
    const frame = await tab.frameAt(...OVERLAY_FRAME);
    await expect.poll(() => frame.has(/^Pay /), { timeout: 10_000 }).toBe(true);
    // Focus moved into the frame, on its first control.
    await expect.poll(() => tab.run(FOCUS_IN_FRAME), { timeout: 10_000 }).toBe(true);
    if (engine === 'webkit') {
      // WebKit gives the frame the focus, but the frame's own focus() on its first control has no effect there (a
      // frame of another origin, no click in it yet): focus is on the frame's body, and one Tab reaches the control.
      await expect.poll(() => frame.run(`() => document.activeElement?.localName`), { timeout: 10_000 }).toBe('body');
      await tab.press('Tab');
    }
    await expect
      .poll(() => frame.run(`() => document.activeElement?.getAttribute('name')`), { timeout: 10_000 })
      .toBe('payment_method');
    return { id: (await tab.run<string>(`() => document.getElementById('pay').dataset.id`))!, frame };
  }

  const webkitFocus = engine === 'webkit' ? '; WebKit: one Tab from the frame to its first control' : '';
  describe(`the sandbox drop-in (/hitpay.js), driven as the service documents it (${name}${webkitFocus})`, () => {
    it(`pays in an accessible modal overlay; onSuccess gets the id; the overlay closes and focus returns (${name})`, async () => {
      const tab = await openShop();
      const { id, frame } = await openOverlay(tab);
      expect(await tab.run('() => window.HitPay.inited')).toBe(true);
      // Modal: the page behind is inert while it is open.
      expect(
        await tab.run(
          `() => document.querySelector('[data-hitpay-drop-in]').shadowRoot.querySelector('dialog').matches(':modal')`,
        ),
      ).toBe(true);
      await frame.click(/^Pay /);
      await expect
        .poll(() => tab.run(LOG), { timeout: 10_000 })
        .toEqual([
          `success ${JSON.stringify({ payment_request_id: id, status: 'completed', reference_number: 'order-1042' })}`,
        ]);
      expect(await tab.run(DIALOGS)).toBe(0);
      expect(await tab.run(FOCUSED_ID)).toBe('pay');
      expect(statusOf(id)).toBe('completed');
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`a failed payment calls onError with a message and stays open until closed; Escape closes it (${name})`, async () => {
      const tab = await openShop();
      const { id, frame } = await openOverlay(tab);
      await frame.click('Fail payment');
      await expect.poll(() => tab.run(LOG), { timeout: 10_000 }).toEqual(['error The payment was declined.']);
      expect(statusOf(id)).toBe('failed');
      await expect.poll(() => frame.text('[role=status]'), { timeout: 10_000 }).toMatch(/declined/);
      expect(await tab.run(DIALOGS)).toBe(1);
      // Escape with focus in the frame: the frame tells the overlay, which closes.
      expect(await tab.run(FOCUS_IN_FRAME)).toBe(true);
      await tab.press('Escape');
      await expect.poll(() => tab.run(LOG), { timeout: 10_000 }).toEqual(['error The payment was declined.', 'closed']);
      expect(await tab.run(DIALOGS)).toBe(0);
      expect(await tab.run(FOCUSED_ID)).toBe('pay');
      expect(await problems(tab)).toEqual([]);
      await tab.close();
    }, 120_000);

    it(`the close button and Escape close it with onClose; the request stays pending and opens again (${name})`, async () => {
      const tab = await openShop();
      const { id } = await openOverlay(tab);
      await tab.click('Close');
      await expect.poll(() => tab.run(LOG), { timeout: 10_000 }).toEqual(['closed']);
      expect(await tab.run(FOCUSED_ID)).toBe('pay');
      expect(statusOf(id)).toBe('pending');
      // Opened again by the shop's code for the same request; Escape with focus on the close button.
      await tab.run(`() => window.HitPay.toggle({ paymentRequest: ${JSON.stringify(id)} })`);
      expect(await tab.run(DIALOGS)).toBe(1);
      await tab.run(
        `() => document.querySelector('[data-hitpay-drop-in]').shadowRoot.querySelector('button.close').focus()`,
      );
      await tab.press('Escape');
      await expect.poll(() => tab.run(LOG), { timeout: 10_000 }).toEqual(['closed', 'closed']);
      expect(statusOf(id)).toBe('pending');
      await tab.close();
    }, 120_000);

    it(`preselects the method toggle names (${name})`, async () => {
      const tab = await openShop('/card');
      const { frame } = await openOverlay(tab);
      await expect
        .poll(() => frame.run(`() => document.querySelector('input[name=payment_method]:checked')?.value`), {
          timeout: 10_000,
        })
        .toBe('card');
      await tab.close();
    }, 120_000);

    it(`ignores messages from a frame of another origin and from the page itself (${name})`, async () => {
      const tab = await openShop('/with-stranger');
      const { id } = await openOverlay(tab);
      const forged = forgeries;
      // The shop's page is inert behind the modal overlay, but any script can still add a frame and post.
      await tab.run(`() => {
        const forger = document.createElement('iframe');
        forger.src = ${JSON.stringify(`${stranger.url}/forger?id=${id}`)};
        document.body.append(forger);
        for (const type of ['success', 'close', 'error'])
          window.postMessage({ source: 'hitpay-drop-in', type, paymentRequest: ${JSON.stringify(id)} }, '*');
      }`);
      await expect.poll(() => forgeries, { timeout: 10_000 }).toBe(forged + 1);
      // Time for the forged messages to arrive (they were posted before the forger's request): a loaded machine.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(await tab.run(LOG)).toEqual([]);
      expect(await tab.run(DIALOGS)).toBe(1);
      expect(statusOf(id)).toBe('pending');
      await tab.close();
    }, 120_000);

    it(`the normal checkout refuses every frame; the drop-in mode refuses frames of another origin (${name})`, async () => {
      const tab = await openShop('/with-stranger');
      const { id } = await openOverlay(tab);
      await tab.click('Close');
      await expect.poll(() => tab.run(DIALOGS), { timeout: 10_000 }).toBe(0);
      sandbox.context.cspReports.length = 0;
      await tab.run(`() => {
        for (const [probe, src] of ${JSON.stringify([
          ['normal', `${sandbox.url}/checkout/${id}`],
          ['drop-in', `${sandbox.url}/checkout/${id}?mode=drop-in&parent=${encodeURIComponent(stranger.url)}`],
        ])}) {
          const frame = document.createElement('iframe');
          frame.dataset.probe = probe;
          frame.src = src;
          document.body.append(frame);
        }
      }`);
      // The browser says it refused each, to the sandbox's report-uri, naming the policy's frame-ancestors.
      const refusals = () =>
        sandbox.context.cspReports
          .map((report) => (report as { 'csp-report'?: Record<string, string> })['csp-report'])
          .filter((report) =>
            /^frame-ancestors/.test(report?.['effective-directive'] ?? report?.['violated-directive'] ?? ''),
          )
          .map((report) => /frame-ancestors [^;]+/.exec(report!['original-policy'] ?? '')?.[0])
          .sort();
      await expect.poll(() => refusals().length, { timeout: 15_000 }).toBe(2);
      expect(refusals()).toEqual([`frame-ancestors 'none'`, `frame-ancestors ${stranger.url}`]);
      // Neither loaded: neither frame shows the checkout's Pay button (a refused frame holds the browser's error
      // page, which an engine may not let the automation read: that, too, is not the checkout).
      for (const probe of ['normal', 'drop-in']) {
        const frame = await tab.frameAt(`iframe[data-probe="${probe}"]`);
        expect(await frame.has(/^Pay /).catch(() => false), probe).toBe(false);
      }
      // Read: the next test's problems are its own.
      sandbox.context.cspReports.length = 0;
      await tab.close();
    }, 120_000);
  });
});

declare global {
  interface Window {
    HitPay: { inited: boolean; toggle(params: { paymentRequest: string }): void };
  }
}
