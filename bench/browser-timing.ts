/**
 * In headless Chromium, median of N loads: script start to the first element rendered, and click to the
 * moment navigation would start (the cancelable `paykit-checkout` / `paykit-connect` event, fired right before
 * `location.assign`), for the pay button (backend answering at once) and the connect button (PKCE included),
 * beside a bare Lit element built the same way.
 */
import { launchChromium } from '@paykit/test-support/browser';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { bundle } from './bundle-sizes.js';

/** Medians in milliseconds. */
export interface BrowserFigures {
  renderPaykit: number;
  renderBare: number;
  clickPay: number;
  clickConnect: number;
  clickBare: number;
}

const HARNESS = `<script>
  window.__t0 = performance.now();
  window.__rendered = new Promise((resolve) => {
    const check = () => {
      const el = document.querySelector('[data-measure]');
      if (el && el.shadowRoot && el.shadowRoot.querySelector('button')) resolve(performance.now() - window.__t0);
      else requestAnimationFrame(check);
    };
    check();
  });
</script>`;

function html(script: string, body: string): string {
  return `<!doctype html><html><head>${HARNESS}<script type="module" src="/${script}"></script></head><body>${body}</body></html>`;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Runs the measurements with `runs` loads each. */
export async function measureBrowserTimings(runs = 20): Promise<BrowserFigures> {
  const files: Record<string, Buffer> = {
    'paykit.js': await bundle('all.ts'),
    'bare.js': await bundle('bare-button.ts'),
  };
  let origin = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/paykit/payment-requests') {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ id: 'pr_1', url: `${origin}/checkout`, status: 'pending', amount: '1.00', currency: 'SGD' }),
      );
      return;
    }
    const file = files[path.slice(1)];
    if (file) return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(file);
    const pages: Record<string, string> = {
      '/pay': html(
        'paykit.js',
        `<paykit-pay-button data-measure endpoint="/paykit" checkout-origins="${origin}">Pay</paykit-pay-button>`,
      ),
      '/connect': html(
        'paykit.js',
        `<paykit-connect-button data-measure client-id="c" redirect-uri="${origin}/return" scope="payments" dashboard-url="${origin}"></paykit-connect-button>`,
      ),
      '/bare': html('bare.js', '<bare-button data-measure></bare-button>'),
    };
    const page = pages[path];
    res.writeHead(page ? 200 : 404, { 'content-type': 'text/html' }).end(page ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    const render = async (path: string) => {
      const times: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        await page.goto(`${origin}${path}`);
        times.push(await page.evaluate(() => (window as unknown as { __rendered: Promise<number> }).__rendered));
      }
      return median(times);
    };
    const click = async (path: string, event: string) => {
      const times: number[] = [];
      for (let i = 0; i < runs; i += 1) {
        await page.goto(`${origin}${path}`);
        await page.evaluate(() => (window as unknown as { __rendered: Promise<number> }).__rendered);
        times.push(await clickToEvent(page, event));
      }
      return median(times);
    };
    return {
      renderPaykit: await render('/pay'),
      renderBare: await render('/bare'),
      clickPay: await click('/pay', 'paykit-checkout'),
      clickConnect: await click('/connect', 'paykit-connect'),
      clickBare: await click('/bare', 'bare-navigate'),
    };
  } finally {
    await browser.close();
    server.closeAllConnections();
    server.close();
  }
}

/** Clicks the measured element's button and resolves with the time to `event` (navigation is prevented). */
function clickToEvent(page: Page, event: string): Promise<number> {
  return page.evaluate((type) => {
    const el = document.querySelector('[data-measure]')!;
    return new Promise<number>((resolve) => {
      let start = 0;
      document.addEventListener(
        type,
        (e) => {
          e.preventDefault();
          resolve(performance.now() - start);
        },
        { once: true },
      );
      start = performance.now();
      el.shadowRoot!.querySelector('button')!.click();
    });
  }, event);
}
