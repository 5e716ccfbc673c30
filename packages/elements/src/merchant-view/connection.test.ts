import { expect, fixture, html } from '@open-wc/testing';
import type { PaykitConnectButton } from '../connect-button/connect-button.js';
import type { PaykitErrorEvent } from '../events.js';
import { consoleDuring, next } from '../../test-support/backend-client.js';
import { part, shown, stateIs } from '../../test-support/merchant-view-client.js';
import '../locales/ar.js';
import '../locales/fr.js';
import type { PaykitConnection } from './connection.js';
import './define-connection.js';

const connection = (merchant: string) =>
  fixture<PaykitConnection>(
    html`<paykit-connection
      endpoint="/mv"
      merchant=${merchant}
      client-id="app_platform"
      redirect-uri=${`${location.origin}/return`}
      scope="payments business:read"
      dashboard-url="http://127.0.0.1:4010"
      storage="local"
    ></paykit-connection>`,
  );

describe('<paykit-connection>', () => {
  // The connect buttons here keep their attempts in localStorage (storage="local"), which outlives this file on
  // the test runner's one origin: other files' connect tests would read them as their own latest request.
  afterEach(() => localStorage.clear());

  it('shows whom the platform is connected to, since when, and that it works', async () => {
    const el = await connection('biz_cafe');
    await stateIs(el, 'connected');
    expect(shown(part(el, 'business'))).to.equal('Harbour Cafe');
    expect(shown(el.shadowRoot!.querySelector('p'))).to.equal('Connected to Harbour Cafe');
    expect(shown(part(el, 'since'))).to.match(/^Since Mar 14, 2026/);
    expect(shown(part(el, 'health'))).to.equal('The connection is working.');
    expect(el.shadowRoot!.querySelector('paykit-connect-button')).to.equal(null);
    // The live region says it.
    expect(shown(part(el, 'live'))).to.equal('Connected to Harbour Cafe');
    expect(part(el, 'live')!.getAttribute('role')).to.equal('status');
    await expect(el).to.be.accessible();
  });

  it('an expired connection says so and shows "Connect again": the connect button with its own attributes', async () => {
    const el = await connection('biz_expired');
    await stateIs(el, 'connect_again');
    expect(shown(part(el, 'health'))).to.equal(
      'The connection to this merchant has expired. Connect again to see their payments and payouts.',
    );
    const button = el.shadowRoot!.querySelector<PaykitConnectButton>('paykit-connect-button')!;
    await button.updateComplete;
    expect(button.textContent!.trim()).to.equal('Connect again');
    expect(button).to.include({
      clientId: 'app_platform',
      redirectUri: `${location.origin}/return`,
      scope: 'payments business:read',
      dashboardUrl: 'http://127.0.0.1:4010',
      storage: 'local',
      endpoint: '/mv',
    });
    // Its click starts the connection (cancelled here: the page stays).
    const connect = next<CustomEvent<{ url: string }>>(el, 'paykit-connect');
    el.addEventListener('paykit-connect', (event) => event.preventDefault(), { once: true });
    button.shadowRoot!.querySelector('button')!.click();
    const url = new URL((await connect).detail.url);
    expect(url.origin + url.pathname).to.equal('http://127.0.0.1:4010/oauth/authorize');
    expect(url.searchParams.get('client_id')).to.equal('app_platform');
    await expect(el).to.be.accessible();
  });

  it('a merchant never connected shows the connect button with its own label', async () => {
    const el = await connection('biz_new');
    await stateIs(el, 'not_connected');
    expect(shown(part(el, 'health'))).to.equal("This merchant isn't connected yet.");
    const button = el.shadowRoot!.querySelector<PaykitConnectButton>('paykit-connect-button')!;
    await button.updateComplete;
    expect(shown(button.shadowRoot!.querySelector('slot'))).to.equal('Connect with Payments');
  });

  it('a refusal says what the platform should check, fires paykit-error, and the console names the hook', async () => {
    let detail: PaykitErrorEvent['detail'] | undefined;
    let el: PaykitConnection | undefined;
    const lines = await consoleDuring(async () => {
      const wrapper = document.createElement('div');
      const failed = next<PaykitErrorEvent>(wrapper, 'paykit-error');
      el = wrapper.appendChild(document.createElement('paykit-connection'));
      el.setAttribute('endpoint', '/mv');
      el.setAttribute('merchant', 'biz_refused');
      document.body.append(wrapper);
      detail = (await failed).detail;
    });
    expect(detail).to.deep.equal({
      code: 'view_refused',
      message: "You don't have access to this merchant's account. Ask an administrator of the platform for access.",
    });
    await el!.updateComplete;
    expect(part(el!, 'error')!.getAttribute('role')).to.equal('alert');
    expect(shown(part(el!, 'error'))).to.contain('Try again');
    expect(lines.join('\n')).to.match(/<paykit-connection>: the merchantView hook of createPaykitHandler refused/);
    await expect(el!).to.be.accessible();
    el!.parentElement!.remove();
  });

  it('"Try again" asks again, and an unknown merchant says to check its id', async () => {
    const el = await connection('biz_nobody');
    await stateIs(el, 'error');
    expect(shown(part(el, 'error'))).to.match(/Check the merchant's ID/);
    el.merchant = 'biz_cafe';
    await stateIs(el, 'connected');
  });

  it('speaks French and Arabic, right to left', async () => {
    const fr = await fixture(
      html`<div lang="fr"><paykit-connection endpoint="/mv" merchant="biz_cafe"></paykit-connection></div>`,
    );
    const frEl = fr.firstElementChild as PaykitConnection;
    await stateIs(frEl, 'connected');
    expect(shown(frEl.shadowRoot!.querySelector('p'))).to.equal('Connecté à Harbour Cafe');
    const ar = await fixture(
      html`<div lang="ar" dir="rtl">
        <paykit-connection endpoint="/mv" merchant="biz_expired"></paykit-connection>
      </div>`,
    );
    const arEl = ar.firstElementChild as PaykitConnection;
    await stateIs(arEl, 'connect_again');
    const health = part(arEl, 'health')!;
    expect(getComputedStyle(health).direction).to.equal('rtl');
    expect(shown(health)).to.not.match(/[a-z]{3}/i);
    await expect(ar).to.be.accessible();
  });
});
