/**
 * Every page a shopper, a merchant or a developer sees in the demo and the sandbox, each in a state worth
 * looking at: a pending and a completed checkout, the return page after a payment, the marketplace with a
 * connected merchant, the consent page, the connected apps, the API keys, the webhooks with an endpoint, a card
 * reader with a payment waiting, orders with one order. Made by walking the real flows once in Chromium; the pages
 * are then visited again by URL, with the walk's cookies (the dashboard session), at every size and colour scheme
 * a test wants.
 */
import { call } from '@paykit/test-support/sandbox-calls';
import { accepted } from '@paykit/test-support/sandbox-control';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import type { RunningDemo } from '../../demo/start-demo.js';
import { DEMO_MERCHANT } from '../../demo/platform.js';

/** One page of the tour. */
export interface TourPage {
  /** A file-name-safe name: `demo-shop`, `sandbox-checkout`, ... */
  name: string;
  url: string;
  /** Waits until the page shows what it is for (an element's final state), beyond the load event. */
  ready?: (page: Page) => Promise<void>;
}

/** The pages, and the cookies to visit them with. */
export interface Tour {
  pages: TourPage[];
  storageState: Exclude<BrowserContextOptions['storageState'], string | undefined>;
}

/** `<paykit-return>` has left its "checking" state. */
const returnSettled = async (page: Page) => {
  await page.waitForFunction(
    () => {
      const part = document.querySelector('paykit-return')?.shadowRoot?.querySelector('[part~="base"]');
      const state = part?.getAttribute('data-state');
      return state !== undefined && state !== null && state !== 'checking';
    },
    undefined,
    { timeout: 15_000 },
  );
};

/** Resolves once `done()` holds (checked every 50 ms), or fails after 10 s naming what it waited for. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Waited 10 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Walks the flows once and lists the pages. */
export async function prepareTour(demo: RunningDemo, browser: Browser): Promise<Tour> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sandbox = demo.sandbox.url;

  // A payment: the shop, a pending checkout, then paid, the return page and an order.
  await page.goto(demo.url);
  await page.getByRole('button', { name: 'Buy Enamel mug' }).click();
  await page.waitForURL((url) => url.origin === sandbox);
  const paidCheckout = page.url();
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.waitForURL((url) => url.origin === demo.url && url.pathname === '/return');
  const returnUrl = page.url();
  await until(() => demo.orders.list().length > 0, 'the webhook to record the order');

  // A checkout left pending (with a purpose and methods to choose from).
  await page.goto(demo.url);
  await page.getByRole('button', { name: 'Buy Organic T-shirt' }).click();
  await page.waitForURL((url) => url.origin === sandbox);
  const pendingCheckout = page.url();

  // Connect: sign-in and consent on the sandbox dashboard, back to the marketplace.
  await page.goto(`${demo.url}/platform`);
  await page.getByRole('button', { name: 'Connect with Payments' }).click();
  await page.waitForURL((url) => url.pathname === '/dashboard/sign-in');
  const signIn = page.url();
  await page.getByLabel('Email').fill(DEMO_MERCHANT.ownerEmail);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/oauth/authorize');
  const consent = page.url();
  await page.getByRole('button', { name: 'Connect' }).click();
  await page.waitForURL((url) => url.origin === demo.url && url.pathname === '/platform/return');
  await returnSettled(page);

  // A card reader with a payment waiting on it.
  const terminal = await call(demo.sandbox, 'POST', '/_sandbox/terminals', {
    json: { business_id: demo.sandbox.seed.businessId, name: 'Front counter' },
  });
  await call(demo.sandbox, 'POST', '/v1/payment-requests', {
    json: {
      amount: 8.4,
      currency: 'SGD',
      purpose: 'Flat white and a croissant',
      payment_methods: ['wifi_card_reader'],
      wifi_terminal_id: terminal.body.id,
    },
  });

  // An endpoint on the signed-in merchant, so that the webhooks page shows one with its buttons, not only the form.
  const merchant = [...demo.sandbox.context.state.businesses.values()].find(({ name }) => name === DEMO_MERCHANT.name);
  accepted(
    await call(demo.sandbox, 'POST', '/_sandbox/webhook-endpoints', {
      json: { business_id: merchant?.id, name: 'Booking deposits', url: 'https://harbour.example/webhooks' },
    }),
    "register an endpoint for the webhooks page's tour",
  );

  const storageState = await context.storageState();
  await context.close();
  return {
    storageState,
    pages: [
      { name: 'demo-shop', url: demo.url },
      { name: 'demo-product', url: `${demo.url}/products/sku-map` },
      { name: 'demo-return', url: returnUrl, ready: returnSettled },
      { name: 'demo-orders', url: `${demo.url}/orders` },
      { name: 'demo-platform', url: `${demo.url}/platform` },
      { name: 'demo-onboarding', url: `${demo.url}/platform/onboarding` },
      { name: 'demo-themes', url: `${demo.url}/themes` },
      { name: 'demo-react', url: `${demo.url}/react` },
      { name: 'demo-vue', url: `${demo.url}/vue` },
      { name: 'demo-site-builder', url: `${demo.url}/site-builder?sandbox=top-navigation` },
      { name: 'demo-embed', url: `${demo.url}/embed/sku-mug` },
      { name: 'sandbox-checkout', url: pendingCheckout },
      { name: 'sandbox-checkout-completed', url: paidCheckout },
      { name: 'sandbox-checkout-not-found', url: `${sandbox}/checkout/00000000-0000-4000-8000-000000000000` },
      { name: 'sandbox-sign-in', url: signIn },
      { name: 'sandbox-consent', url: consent },
      { name: 'sandbox-connected-apps', url: `${sandbox}/dashboard/connected-apps` },
      { name: 'sandbox-api-keys', url: `${sandbox}/dashboard/api-keys` },
      { name: 'sandbox-webhooks', url: `${sandbox}/dashboard/webhooks` },
      { name: 'sandbox-terminal', url: terminal.body.url as string },
    ],
  };
}
