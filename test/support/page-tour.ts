/**
 * Every page a shopper, a merchant or a developer sees in the demo and the sandbox, each in a state worth
 * looking at: a pending and a completed checkout, the return page after a payment, the marketplace with a
 * connected merchant, the consent page, the connected apps, the API keys, the webhooks with an endpoint, the clock
 * after an advance with what happened on the way, a card reader with a payment waiting, orders with one order. Made by walking the real flows once, in any engine's tab
 * (./engine-browser.ts); the pages are then visited again by URL at every size and colour scheme a test wants, in
 * a tab signed in to the sandbox dashboard through its own page (`signIn`), as the walk's tab was.
 */
import { call } from '@paykit/test-support/sandbox-calls';
import { accepted } from '@paykit/test-support/sandbox-control';
import type { RunningDemo } from '../../demo/start-demo.js';
import { DEMO_MERCHANT } from '../../demo/platform.js';
import type { Tab } from './engine-browser.js';

/** One page of the tour. */
export interface TourPage {
  /** A file-name-safe name: `demo-shop`, `sandbox-checkout`, ... */
  name: string;
  url: string;
  /** Waits until the page shows what it is for (an element's final state), beyond the load event. */
  ready?: (tab: Tab) => Promise<void>;
}

/** The pages, and how to visit them as the walk did. */
export interface Tour {
  pages: TourPage[];
  /** Signs `tab` in to the sandbox dashboard as the walk's merchant, through the sign-in page. */
  signIn(tab: Tab): Promise<void>;
}

/**
 * Waits until the marketplace's merchant views have each answered from the platform's handler: the connection
 * says `connected` and the payments and payouts show their rows (or their empty state: the demo's merchant may not
 * have been paid yet), so that axe reads the page as a merchant's staff sees it.
 */
const merchantViewsSettled = async (tab: Tab) => {
  const deadline = Date.now() + 15_000;
  const states = () =>
    tab.run<string>(
      `() => ['paykit-connection', 'paykit-merchant-payments', 'paykit-merchant-payouts']
        .map((tag) => document.querySelector(tag)?.shadowRoot?.querySelector('[part~="base"]')?.getAttribute('data-state') ?? 'absent')
        .join(' ')`,
    );
  const settled = /^connected (ready|empty) (ready|empty)$/;
  for (let now = await states(); !settled.test(now); now = await states()) {
    if (Date.now() > deadline) throw new Error(`Waited 15 s for the merchant views to answer (they are ${now})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** `<paykit-return>` has left its "checking" state. */
const returnSettled = async (tab: Tab) => {
  const deadline = Date.now() + 15_000;
  const state = () =>
    tab.run<string | null>(
      `() => document.querySelector('paykit-return')?.shadowRoot?.querySelector('[part~="base"]')?.getAttribute('data-state') ?? null`,
    );
  for (let now = await state(); now === null || now === 'checking'; now = await state()) {
    if (Date.now() > deadline) throw new Error(`Waited 15 s for <paykit-return> to settle (it is ${now})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

/** Resolves once `done()` holds (checked every 50 ms), or fails after 10 s naming what it waited for. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`Waited 10 s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** How long the tour waits for each address: the walk runs once per engine, first thing, while other files start browsers. */
const WALK_MS = 30_000;

/**
 * Walks the flows once in `tab` and lists the pages. Walked once per demo: a second walk would connect the
 * merchant again and add a second order.
 */
export async function prepareTour(demo: RunningDemo, tab: Tab): Promise<Tour> {
  const sandbox = demo.sandbox.url;

  // A payment: the shop, a pending checkout, then paid, the return page and an order.
  await tab.goto(demo.url);
  await tab.click('Buy Enamel mug');
  const paidCheckout = (await tab.waitForUrl((url) => url.origin === sandbox, WALK_MS)).href;
  await tab.click(/^Pay /);
  const returnUrl = (await tab.waitForUrl((url) => url.origin === demo.url && url.pathname === '/return', WALK_MS))
    .href;
  await until(() => demo.orders.list().length > 0, 'the webhook to record the order');

  // A checkout left pending (with a purpose and methods to choose from).
  await tab.goto(demo.url);
  await tab.click('Buy Organic T-shirt');
  const pendingCheckout = (await tab.waitForUrl((url) => url.origin === sandbox, WALK_MS)).href;

  // Connect: sign-in and consent on the sandbox dashboard, back to the marketplace.
  await tab.goto(`${demo.url}/platform`);
  await tab.click('Connect with Payments');
  const signIn = (await tab.waitForUrl((url) => url.pathname === '/dashboard/sign-in', WALK_MS)).href;
  await tab.fill('Email', DEMO_MERCHANT.ownerEmail);
  await tab.click('Sign in');
  const consent = (await tab.waitForUrl((url) => url.pathname === '/oauth/authorize', WALK_MS)).href;
  await tab.click('Connect');
  await tab.waitForUrl((url) => url.origin === demo.url && url.pathname === '/platform/return', WALK_MS);
  await returnSettled(tab);

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

  return {
    async signIn(other) {
      await other.goto(`${sandbox}/dashboard/sign-in?next=${encodeURIComponent('/dashboard/connected-apps')}`);
      await other.fill('Email', DEMO_MERCHANT.ownerEmail);
      await other.click('Sign in');
      await other.waitForUrl((url) => url.pathname === '/dashboard/connected-apps', WALK_MS);
    },
    pages: [
      { name: 'demo-shop', url: demo.url },
      { name: 'demo-product', url: `${demo.url}/products/sku-map` },
      { name: 'demo-return', url: returnUrl, ready: returnSettled },
      { name: 'demo-orders', url: `${demo.url}/orders` },
      { name: 'demo-platform', url: `${demo.url}/platform`, ready: merchantViewsSettled },
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
      {
        name: 'sandbox-clock',
        url: `${sandbox}/dashboard/clock`,
        // The page after "Advance" (30 days, the form's default): its status region and the table of what happened
        // on the way, here a payment request made a moment before, expired. Each visit moves the clock 30 days more.
        ready: async (tab) => {
          accepted(
            await call(demo.sandbox, 'POST', '/v1/payment-requests', {
              apiKey: merchant?.apiKey,
              json: { amount: 8.4, currency: merchant?.currency, expires_after: '30 mins' },
            }),
            "make a payment request to expire on the clock page's tour",
          );
          await tab.click(/^Advance$/);
          await tab.waitForUrl((url) => url.pathname === '/dashboard/clock/advance', WALK_MS);
          const caption = await tab.text('table caption');
          if (!caption?.includes('What happened on the way')) {
            throw new Error(`The clock page shows no table of what happened after Advance (caption: ${caption})`);
          }
        },
      },
      { name: 'sandbox-terminal', url: terminal.body.url as string },
    ],
  };
}
