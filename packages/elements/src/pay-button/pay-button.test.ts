import { expect, fixture, html } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { PaykitCheckoutEvent, PaykitErrorEvent } from '../events.js';
import { backendState, injectFault, next, waitFor } from '../../test-support/backend-client.js';
import './define.js';
import type { PaykitPayButton } from './pay-button.js';

let checkoutOrigin: string;
before(async () => {
  ({ checkoutOrigin } = await backendState());
});

/** A pay button whose navigation is held back, so that the test page stays. */
async function button(attributes: { endpoint?: string; amount?: string; reference?: string; origins?: string } = {}) {
  const el = await fixture<PaykitPayButton>(
    html`<paykit-pay-button
      endpoint=${attributes.endpoint ?? '/paykit'}
      reference=${attributes.reference ?? 'sku-mug'}
      amount=${attributes.amount ?? '12.50'}
      currency="SGD"
      payment-methods="paynow_online card"
      checkout-origins=${attributes.origins ?? checkoutOrigin}
      >Buy the mug</paykit-pay-button
    >`,
  );
  el.addEventListener('paykit-checkout', (event) => event.preventDefault());
  return el;
}
const inner = (el: PaykitPayButton) => el.shadowRoot!.querySelector('button')!;

describe('<paykit-pay-button>', () => {
  it('is an accessible button named by its label', async () => {
    const el = await button();
    await expect(el).to.be.accessible();
    expect(inner(el).getAttribute('aria-busy')).to.equal('false');
    expect(el.shadowRoot!.querySelector('slot')!.assignedNodes()[0]!.textContent).to.equal('Buy the mug');
  });

  it('starts a checkout on the sandbox and offers its URL before navigating', async () => {
    const el = await button();
    const checkout = next<PaykitCheckoutEvent>(el, 'paykit-checkout');
    inner(el).click();
    await el.updateComplete;
    expect(inner(el).getAttribute('aria-busy')).to.equal('true');
    expect(el.shadowRoot!.querySelector('[part=spinner]')).to.not.equal(null);
    const { detail } = await checkout;
    expect(new URL(detail.url).origin).to.equal(checkoutOrigin);
    expect(detail.url).to.contain(detail.id);
    // Navigation was prevented: the button is usable again.
    await waitFor(() => inner(el).getAttribute('aria-busy') === 'false');
  });

  it('makes one payment request for a double click', async () => {
    const before = (await backendState()).count;
    const el = await button();
    const checkout = next<PaykitCheckoutEvent>(el, 'paykit-checkout');
    inner(el).click();
    inner(el).click();
    await checkout;
    expect((await backendState()).count).to.equal(before + 1);
  });

  it('makes one payment request for Enter, Space and clicks while the first is in flight', async () => {
    const before = (await backendState()).count;
    // The API answers the create slowly (and creates it), so that every activation below lands while busy.
    await injectFault({ path: '/v1/payment-requests', method: 'POST', kind: 'slow', delay_ms: 800 });
    const el = await button();
    const checkout = next<PaykitCheckoutEvent>(el, 'paykit-checkout');
    el.focus();
    // Real key presses from the browser (CDP, BiDi or WebDriver), not synthetic events: the native button turns them
    // into clicks. Space is ' ': puppeteer's BiDi keyboard (Firefox) knows no key named 'Space'.
    await sendKeys({ press: 'Enter' });
    await sendKeys({ press: ' ' });
    inner(el).click();
    await checkout;
    // A duplicate would still be held by the slow API: let it land before counting.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await backendState()).count).to.equal(before + 1);
  });

  for (const [name, key] of [
    ['Enter', 'Enter'],
    ['Space', ' '],
  ] as const) {
    it(`works from the keyboard: focus lands on the button and ${name} activates it`, async () => {
      const el = await button();
      el.focus();
      expect(el.shadowRoot!.activeElement).to.equal(inner(el));
      const checkout = next<PaykitCheckoutEvent>(el, 'paykit-checkout');
      await sendKeys({ press: key });
      expect((await checkout).detail.id).to.be.a('string');
    });
  }

  it('refuses a tampered price with the shop’s message, and is usable again', async () => {
    const el = await button({ amount: '0.01' });
    const failure = next<PaykitErrorEvent>(el, 'paykit-error');
    inner(el).click();
    expect((await failure).detail.code).to.equal('amount_mismatch');
    await el.updateComplete;
    const shown = el.shadowRoot!.querySelector('[part=error]')!;
    expect(shown.getAttribute('role')).to.equal('alert');
    expect(shown.textContent).to.match(/price has changed/);
    expect(inner(el).getAttribute('aria-busy')).to.equal('false');
    await expect(el).to.be.accessible();
  });

  for (const kind of ['javascript', 'data', 'foreign', 'lookalike', 'relative']) {
    it(`never navigates to a ${kind} checkout URL from the backend`, async () => {
      const el = await button({ endpoint: `/hostile/${kind}` });
      let navigated = false;
      el.addEventListener('paykit-checkout', () => (navigated = true));
      const failure = next<PaykitErrorEvent>(el, 'paykit-error');
      inner(el).click();
      expect((await failure).detail.code).to.equal('unsafe_url');
      expect(navigated).to.equal(false);
    });
  }

  it('needs checkout-origins before it sends anything', async () => {
    const before = (await backendState()).count;
    const el = await button({ origins: '' });
    const failure = next<PaykitErrorEvent>(el, 'paykit-error');
    inner(el).click();
    expect((await failure).detail.code).to.equal('unsafe_url');
    expect((await backendState()).count).to.equal(before);
  });

  it('shows a backend error or a non-JSON answer in words, and recovers', async () => {
    const down = await button({ endpoint: '/hostile/error' });
    const failure = next<PaykitErrorEvent>(down, 'paykit-error');
    inner(down).click();
    expect((await failure).detail).to.deep.equal({
      code: 'upstream_error',
      message: 'The shop is being updated. Please try again in a minute.',
    });
    const html = await button({ endpoint: '/hostile/html' });
    const invalid = next<PaykitErrorEvent>(html, 'paykit-error');
    inner(html).click();
    expect((await invalid).detail.code).to.equal('upstream_invalid_response');
  });

  it('shows an error without moving the elements around it (no layout shift)', async () => {
    const page = await fixture<HTMLElement>(
      html`<div style="width: 24rem">
        <p>Before</p>
        <paykit-pay-button endpoint="/hostile/error" checkout-origins=${checkoutOrigin}>Buy</paykit-pay-button>
        <span id="beside">Beside</span>
        <p id="below">Below</p>
      </div>`,
    );
    const el = page.querySelector('paykit-pay-button')!;
    const beside = page.querySelector('#beside')!;
    const below = page.querySelector('#below')!;
    const boxes = () => [beside, below].map((node) => JSON.stringify(node.getBoundingClientRect()));
    const before = boxes();
    // The nodes each layout shift moved. The spinner widens the button while busy, which moves what is on its
    // line (#beside) and back; an error taking room in the flow would push #below down.
    const moved: Node[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        for (const source of (entry as unknown as { sources: { node: Node | null }[] }).sources)
          if (source.node) moved.push(source.node);
    });
    observer.observe({ type: 'layout-shift' });
    const failure = next<PaykitErrorEvent>(el, 'paykit-error');
    inner(el).click();
    await failure;
    await el.updateComplete;
    expect(el.shadowRoot!.querySelector('[part=error]')!.getBoundingClientRect().height).to.be.greaterThan(0);
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100)));
    observer.disconnect();
    expect(boxes()).to.deep.equal(before);
    expect(moved.filter((node) => node === below || below.contains(node))).to.have.length(0);
  });

  it('resets when the page comes back from the back-forward cache', async () => {
    const el = await button({ endpoint: '/hostile/slow' });
    inner(el).click();
    await el.updateComplete;
    expect(inner(el).getAttribute('aria-busy')).to.equal('true');
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
    await el.updateComplete;
    expect(inner(el).getAttribute('aria-busy')).to.equal('false');
  });
});
