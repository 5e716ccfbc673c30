import { expect, fixture, html } from '@open-wc/testing';
import {
  PaykitConnectEvent as PaykitConnectEventClass,
  type PaykitConnectEvent,
  type PaykitErrorEvent,
} from '../events.js';
import { backendState, next } from '../../test-support/backend-client.js';
import './define.js';
import { startConnect } from '../connect/start-connect.js';
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

/** A button with only the given attributes (besides client-id, redirect-uri and scope). */
async function buttonWith(attributes: Record<string, string>): Promise<PaykitConnectButton> {
  const el = document.createElement('paykit-connect-button');
  el.setAttribute('client-id', 'app_123');
  el.setAttribute('redirect-uri', `${location.origin}/return`);
  el.setAttribute('scope', 'openid payments');
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  el.addEventListener('paykit-connect', (event) => event.preventDefault());
  document.body.append(el);
  await el.updateComplete;
  return el;
}

/** Clicks and resolves with the URL the button would navigate to, or the error it showed instead. */
async function clickFor(el: PaykitConnectButton): Promise<{ url?: URL; error?: PaykitErrorEvent['detail'] }> {
  const connect = next<PaykitConnectEvent>(el, 'paykit-connect');
  const failure = next<PaykitErrorEvent>(el, 'paykit-error');
  inner(el).click();
  const event = await Promise.race([connect, failure]);
  el.remove();
  return event instanceof PaykitConnectEventClass
    ? { url: new URL(event.detail.url) }
    : { error: (event as PaykitErrorEvent).detail };
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

  it('goes to an authorization-endpoint given outright, keeping its own query, with prompt, login-hint and resource', async () => {
    const { url } = await clickFor(
      await buttonWith({
        'authorization-endpoint': 'https://login.idp.example/oauth2/v1/authorize?tenant=shop',
        'dashboard-url': dashboard,
        prompt: 'consent',
        'login-hint': 'owner@harbour.test',
        resource: 'https://api.payments.example/',
      }),
    );
    // The endpoint wins over dashboard-url; paykit's parameters join the endpoint's own.
    expect(url!.origin + url!.pathname).to.equal('https://login.idp.example/oauth2/v1/authorize');
    expect(Object.fromEntries(url!.searchParams)).to.include({
      tenant: 'shop',
      client_id: 'app_123',
      response_type: 'code',
      scope: 'openid payments',
      code_challenge_method: 'S256',
      prompt: 'consent',
      login_hint: 'owner@harbour.test',
      resource: 'https://api.payments.example/',
    });
    expect(url!.searchParams.get('state')).to.match(/^[A-Za-z0-9_-]{43}$/);
  });

  it("finds the sandbox's authorization endpoint in its RFC 8414 metadata from its issuer", async () => {
    const { url } = await clickFor(await buttonWith({ issuer: dashboard }));
    expect(url!.origin + url!.pathname).to.equal(`${dashboard}/oauth/authorize`);
    expect(url!.searchParams.get('client_id')).to.equal('app_123');
    // No prompt, login_hint or resource unless asked for.
    for (const name of ['prompt', 'login_hint', 'resource']) expect(url!.searchParams.has(name)).to.equal(false);
  });

  it("reads RFC 8414's document where it puts it for an issuer with a path, and OpenID's when that is 404", async () => {
    const plain = await clickFor(await buttonWith({ issuer: `${location.origin}/idp/plain` }));
    expect(plain.url!.origin + plain.url!.pathname).to.equal('https://login.idp.example/authorize');
    expect(plain.url!.searchParams.get('tenant')).to.equal('shop');
    const oidc = await clickFor(await buttonWith({ issuer: `${location.origin}/idp/oidc` }));
    expect(oidc.url!.origin + oidc.url!.pathname).to.equal('https://oidc.idp.example/auth');
  });

  it('refuses metadata that names another issuer, and an http endpoint on another host, found or given', async () => {
    const mismatch = await clickFor(await buttonWith({ issuer: `${location.origin}/idp/mismatch` }));
    expect(mismatch.error!.code).to.equal('unsafe_url');
    const insecure = await clickFor(await buttonWith({ issuer: `${location.origin}/idp/insecure` }));
    expect(insecure.error!.code).to.equal('unsafe_url');
    const given = await clickFor(await buttonWith({ 'authorization-endpoint': 'http://login.idp.example/authorize' }));
    expect(given.error!.code).to.equal('unsafe_url');
    // An issuer over plain http on another host is not even asked.
    const remote = await clickFor(await buttonWith({ issuer: 'http://idp.example' }));
    expect(remote.error!.code).to.equal('unsafe_url');
    // Nothing to connect to at all.
    expect((await clickFor(await buttonWith({}))).error!.code).to.equal('unsafe_url');
  });

  it('startConnect takes extraParams, but not one that would replace a parameter paykit sets', async () => {
    const base = {
      clientId: 'app_123',
      redirectUri: `${location.origin}/return`,
      scope: 'payments',
      authorizationEndpoint: 'https://login.idp.example/authorize',
    };
    const { url } = await startConnect({ ...base, extraParams: { ui_locales: 'fr', acr_values: 'mfa' } });
    expect(Object.fromEntries(new URL(url).searchParams)).to.include({ ui_locales: 'fr', acr_values: 'mfa' });
    for (const name of [
      'client_id',
      'redirect_uri',
      'response_type',
      'scope',
      'state',
      'code_challenge',
      'code_challenge_method',
    ]) {
      let code: string | undefined;
      try {
        await startConnect({ ...base, extraParams: { [name]: 'attacker' } });
      } catch (error) {
        code = (error as { code?: string }).code;
      }
      expect(code, name).to.equal('validation_failed');
    }
  });
});
