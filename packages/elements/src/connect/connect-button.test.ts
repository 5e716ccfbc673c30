import { expect, fixture, html } from '@open-wc/testing';
import type { PaykitConnectEvent, PaykitErrorEvent } from '../events.js';
import { backendState, next } from '../test-config.js';
import './define.js';
import type { PaykitConnectButton } from './connect-button.js';

let dashboard: string;
before(async () => {
  dashboard = (await backendState()).checkoutOrigin;
  sessionStorage.clear();
});

async function button(attributes: { scope?: string; dashboard?: string } = {}) {
  const el = await fixture<PaykitConnectButton>(
    html`<paykit-connect-button
      client-id="app_123"
      redirect-uri=${`${location.origin}/return`}
      scope=${attributes.scope ?? 'payments business:read'}
      dashboard-url=${attributes.dashboard ?? dashboard}
    ></paykit-connect-button>`,
  );
  el.addEventListener('paykit-connect', (event) => event.preventDefault());
  return el;
}
const inner = (el: PaykitConnectButton) => el.shadowRoot!.querySelector('button')!;

describe('<paykit-connect-button>', () => {
  it('is an accessible button with a default label', async () => {
    const el = await button();
    await expect(el).to.be.accessible();
    expect(el.shadowRoot!.querySelector('[part=label]')!.textContent).to.contain('Connect with Payments');
  });

  it('sends the merchant to the dashboard with state and an S256 challenge, kept per attempt', async () => {
    const el = await button();
    const first = next<PaykitConnectEvent>(el, 'paykit-connect');
    inner(el).click();
    const url = new URL((await first).detail.url);
    expect(url.origin + url.pathname).to.equal(`${dashboard}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).to.include({
      client_id: 'app_123',
      redirect_uri: `${location.origin}/return`,
      response_type: 'code',
      scope: 'payments business:read',
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('state')).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('code_challenge')).to.match(/^[A-Za-z0-9_-]{43}$/);
    await el.updateComplete;

    // A second attempt (another tab, or a second click later) gets its own slot.
    const second = next<PaykitConnectEvent>(el, 'paykit-connect');
    inner(el).click();
    const other = new URL((await second).detail.url).searchParams.get('state');
    expect(other).to.not.equal(url.searchParams.get('state'));
    expect(sessionStorage.getItem(`paykit:connect:${url.searchParams.get('state')}`)).to.not.equal(null);
    expect(sessionStorage.getItem(`paykit:connect:${other}`)).to.not.equal(null);
    expect(sessionStorage.getItem(`paykit:connect:${other}`)).to.not.contain(url.searchParams.get('code_challenge')!);
  });

  it('refuses a dashboard URL that is not https (or local) and an empty scope', async () => {
    const insecure = await button({ dashboard: 'http://dashboard.example' });
    const unsafe = next<PaykitErrorEvent>(insecure, 'paykit-error');
    inner(insecure).click();
    expect((await unsafe).detail.code).to.equal('unsafe_url');
    const noScope = await button({ scope: ' ' });
    const invalid = next<PaykitErrorEvent>(noScope, 'paykit-error');
    inner(noScope).click();
    expect((await invalid).detail.code).to.equal('validation_failed');
    await noScope.updateComplete;
    expect(inner(noScope).getAttribute('aria-busy')).to.equal('false');
  });
});
